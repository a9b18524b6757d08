"""The erasure journal's file: keys before the entries that use them, retention that takes out old
entries and the keys no entry uses, and no entry lost to a rewrite made while others append."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vpnsite.erasure_journal import ErasureRecord, JournalKey
from vpnsite.retention import ERASURES_KEPT, plan_retention
from vpnsite_adapters.protection import erasure_journal
from vpnsite_adapters.protection.erasure_journal import JournalFile

NOW = datetime(2026, 11, 27, 12, tzinfo=UTC)
KEYS = (JournalKey("ja", b"a" * 32), JournalKey("jb", b"b" * 32))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(KEYS), st.integers(min_value=0, max_value=60)), max_size=12))
def test_retention_keeps_exactly_the_entries_of_the_last_30_days_and_their_keys(
    tmp_path_factory: pytest.TempPathFactory, entries: list[tuple[JournalKey, int]]
) -> None:
    path = tmp_path_factory.mktemp("journal") / "erasures.jsonl"
    journal = JournalFile(path)
    for n, (key, days) in enumerate(entries):
        journal.append(ErasureRecord(key.id, f"h{n}", NOW - timedelta(days=days)), key)
    gone = journal.apply_retention(plan_retention(NOW, timedelta(days=1)))
    kept = erasure_journal.read(path) if path.exists() else None
    recent = [(key, days) for key, days in entries if timedelta(days=days) <= ERASURES_KEPT]
    assert gone == len(entries) - len(recent)
    if kept is not None:
        assert [record.key_id for record in kept.records] == [key.id for key, _ in recent]
        assert {key.id for key in kept.keys} == {key.id for key, _ in recent}
        assert kept.unmatched() == ()
        lines = path.read_text().splitlines()
        assert all('"journal_key"' in line for line in lines[: len(kept.keys)]), "keys first"


def test_an_entry_appended_while_retention_rewrites_the_file_is_never_lost(tmp_path: Path) -> None:
    path = tmp_path / "erasures.jsonl"
    journal = JournalFile(path)
    for n in range(50):
        journal.append(ErasureRecord("ja", f"old{n}", NOW - timedelta(days=40)), KEYS[0])
    plan = plan_retention(NOW, timedelta(days=1))
    done = threading.Event()

    def sweep() -> None:
        while not done.is_set():
            journal.apply_retention(plan)

    sweeper = threading.Thread(target=sweep)
    sweeper.start()
    try:
        for n in range(200):
            journal.append(ErasureRecord("jb", f"new{n}", NOW), KEYS[1])
    finally:
        done.set()
        sweeper.join()
    journal.apply_retention(plan)
    kept = erasure_journal.read(path)
    assert sorted(record.address_hash for record in kept.records) == sorted(f"new{n}" for n in range(200))
    assert [key.id for key in kept.keys] == ["jb"]
