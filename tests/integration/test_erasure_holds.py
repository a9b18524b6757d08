"""Erasure holds through the operator's ordinary operations, on SQLite and PostgreSQL, through the
real `vpnsite` commands and a real `vpnsite serve`, days moved by the clock port
(tests/support/moved_clock.py): a key rotation before a restore, a person who comes back, retention
of the outbox, the journal and a silent server's sessions, retention at start, an internationalised
address's mail, and the bytes SQLite keeps on disk."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.integration.processes import vpnsite
from tests.support import moved_clock
from tests.support.serve import OPERATOR_ENV, Served, serve, signed_form, stop
from vpnsite.emails import mailbox_key
from vpnsite.keyed_hashes import KeySet
from vpnsite_adapters.protection import erasure_journal

DAY = 86400.0


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def databases(request: pytest.FixtureRequest) -> Iterator[tuple[str | None, str | None]]:
    """The database the site runs on and the one a backup is restored into (None: SQLite in the
    data directory)."""
    if request.param == "sqlite":
        yield None, None
        return
    create = request.getfixturevalue("new_postgres_database")
    yield create(), create()


def environment(data_dir: Path, database_url: str | None, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VPNSITE_")}
    env.update(OPERATOR_ENV)
    env.update(
        {"VPNSITE_DATA_DIR": str(data_dir), "VPNSITE_RATE_LIMITS": "off", "VPNSITE_SIGNUP_CHALLENGE": "off"}
    )
    env.update({f"VPNSITE_{name.upper()}": value for name, value in settings.items()})
    if database_url:
        env["VPNSITE_DATABASE_URL"] = database_url
    return env


def run(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    result = vpnsite(*args, env=env, cwd=cwd)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def run_later(clock: Path, *args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real command, its clock as far on as the test moved ``clock``."""
    result = subprocess.run(
        [sys.executable, *moved_clock.LAUNCHER, *args],
        env={**env, moved_clock.VARIABLE: str(clock)},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def serve_later(clock: Path, env: dict[str, str], log: Path) -> Served:
    return serve({**env, moved_clock.VARIABLE: str(clock)}, log, launcher=moved_clock.LAUNCHER)


def sign_up(base: str, email: str) -> dict[str, str]:
    created = requests.post(base + "/api/create-user", json=signed_form(base, email), timeout=30)
    assert created.status_code == 200, created.text
    return {"email": email, "code": created.json()["user_code"]}


def write_ticket(base: str, email: str, message: str) -> None:
    opened = requests.post(base + "/api/support", json={"email": email, "message": message}, timeout=30)
    assert opened.status_code == 200, opened.text


def check(base: str, user: dict[str, str]) -> int:
    body = {"email": user["email"], "activation_code": user["code"]}
    return requests.post(base + "/api/check-license", json=body, timeout=30).status_code


def export(email: str, env: dict[str, str], cwd: Path) -> dict[str, Any]:
    held: dict[str, Any] = json.loads(run("privacy", "export", email, env=env, cwd=cwd).stdout)
    return held


def outbox(env: dict[str, str]) -> list[Path]:
    return sorted((Path(env["VPNSITE_DATA_DIR"]) / "outbox").glob("*.eml"))


def wait_for_mail(env: dict[str, str], count: int) -> None:
    deadline = time.monotonic() + 20
    while len(outbox(env)) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(outbox(env)) >= count, [path.name for path in outbox(env)]


def test_a_restore_after_a_key_rotation_keeps_a_person_erased_after_the_backup(
    databases: tuple[str | None, str | None], tmp_path: Path
) -> None:
    source, target = databases
    journal = tmp_path / "erasures.jsonl"
    old = environment(tmp_path / "old", source, erasure_journal=str(journal))
    served = serve(old, tmp_path / "old.log")
    try:
        bob, carol = sign_up(served.base, "bob@example.org"), sign_up(served.base, "carol@example.org")
        write_ticket(served.base, "bob@example.org", "Please call me back.")
        run("backup", "--out", str(tmp_path / "site.backup"), env=old, cwd=tmp_path)
        run("keys", "rotate", env=old, cwd=tmp_path)
        run("privacy", "erase", "Bob@example.org", env=old, cwd=tmp_path)
    finally:
        stop(served.process)

    new = environment(tmp_path / "new", target, erasure_journal=str(journal))
    restoring = run("restore", str(tmp_path / "site.backup"), env=new, cwd=tmp_path)
    assert "applied 1 journalled erasure(s) again: 1 address(es) erased" in restoring.stdout
    assert not any(export("bob@example.org", new, tmp_path).values())
    # The restored site's own journal names the key of the erasure it re-applied: it can be given
    # to a later restore as it is.
    printed = erasure_journal.parse(run("privacy", "journal", env=new, cwd=tmp_path).stdout, "output")
    assert len(printed.records) == 1 and printed.unmatched() == ()
    restored = serve(new, tmp_path / "new.log")
    try:
        assert check(restored.base, bob) == 404
        assert check(restored.base, carol) == 200
    finally:
        stop(restored.process)


def test_a_restore_refuses_journalled_erasures_it_cannot_match_and_writes_nothing(tmp_path: Path) -> None:
    journal = tmp_path / "erasures.jsonl"
    old = environment(tmp_path / "old", None, erasure_journal=str(journal))
    run("migrate", env=old, cwd=tmp_path)
    run("backup", "--out", str(tmp_path / "site.backup"), env=old, cwd=tmp_path)
    run("privacy", "erase", "dan@example.org", env=old, cwd=tmp_path)
    lines = journal.read_text().splitlines()
    assert len(lines) == 2 and '"journal_key"' in lines[0], "the key before the entry it makes"

    keyless = tmp_path / "keyless.jsonl"
    keyless.write_text(lines[1] + "\n")
    # Written by a vpnsite before journal keys: under master key 2, which the backup never had.
    (tmp_path / "older.jsonl").write_text(
        json.dumps({"key_id": 2, "address_hash": "ab" * 32, "erased_at": "2026-11-01T00:00:00+00:00"}) + "\n"
    )
    for given in ("keyless.jsonl", "older.jsonl"):
        new = environment(tmp_path / f"new-{given}", None)
        refused = vpnsite(
            "restore", str(tmp_path / "site.backup"), "--erasures", given, env=new, cwd=tmp_path
        )
        assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
        assert "nothing restored" in refused.stderr and "neither the journal nor the backup" in refused.stderr
        assert list((tmp_path / f"new-{given}").iterdir()) == []


def test_an_older_journals_entry_under_a_master_key_the_backup_holds_is_applied(tmp_path: Path) -> None:
    old = environment(tmp_path / "old", None)
    served = serve(old, tmp_path / "old.log")
    try:
        eve = sign_up(served.base, "eve@example.org")
        run("backup", "--out", str(tmp_path / "site.backup"), env=old, cwd=tmp_path)
    finally:
        stop(served.process)
    secret = (tmp_path / "old" / "secret.key").read_bytes().strip()
    address_hash = KeySet.derive(1, secret).addresses.hash(mailbox_key(eve["email"]))
    entry = {"key_id": 1, "address_hash": address_hash, "erased_at": "2099-01-01T00:00:00+00:00"}
    (tmp_path / "older.jsonl").write_text(json.dumps(entry) + "\n")
    new = environment(tmp_path / "new", None)
    restoring = run(
        "restore", str(tmp_path / "site.backup"), "--erasures", "older.jsonl", env=new, cwd=tmp_path
    )
    assert "1 address(es) erased" in restoring.stdout
    assert not any(export(eve["email"], new, tmp_path).values())


def test_a_person_who_came_back_keeps_their_licence_through_retention_backup_and_restore(
    databases: tuple[str | None, str | None], tmp_path: Path
) -> None:
    source, target = databases
    clock, journal = tmp_path / "clock", tmp_path / "erasures.jsonl"
    old = environment(tmp_path / "old", source, erasure_journal=str(journal))
    served = serve_later(clock, old, tmp_path / "old.log")
    try:
        first = sign_up(served.base, "anna@example.org")
        run("privacy", "erase", "anna@example.org", env=old, cwd=tmp_path)
        as_erased = tmp_path / "as-erased.jsonl"
        as_erased.write_text(journal.read_text())
        back = sign_up(served.base, "Anna@example.org")
        moved_clock.move(clock, 31 * DAY)
        swept = json.loads(run_later(clock, "retention", "run", env=old, cwd=tmp_path).stdout)
        assert swept["erasure_records_deleted"] == 1
        assert swept["files_deleted"]["erasure_journal_lines"] == 1
        # The journal outlives no erasure by more than the 30 days a backup is kept.
        assert erasure_journal.read(journal).records == ()
        assert journal.read_text() == ""
        run("backup", "--out", str(tmp_path / "site.backup"), env=old, cwd=tmp_path)
    finally:
        stop(served.process)

    # Restored with the journal as it is now, and with the copy taken right after the erasure: the
    # erasure reaches only what was there when it was made.
    new = environment(tmp_path / "new", target, erasure_journal=str(journal))
    restoring = run(
        "restore", str(tmp_path / "site.backup"), "--erasures", str(as_erased), env=new, cwd=tmp_path
    )
    assert "applied 1 journalled erasure(s) again: 0 address(es) erased" in restoring.stdout
    restored = serve(new, tmp_path / "new.log")
    try:
        assert check(restored.base, back) == 200
        assert check(restored.base, first) == 404
    finally:
        stop(restored.process)


def test_two_hundred_days_on_no_outbox_file_names_anyone_and_a_restart_ran_retention(
    databases: tuple[str | None, str | None], tmp_path: Path
) -> None:
    source, _ = databases
    clock = tmp_path / "clock"
    env = environment(tmp_path / "data", source)
    served = serve_later(clock, env, tmp_path / "serve.log")
    try:
        sign_up(served.base, "ines@example.org")
        sign_up(served.base, "joao@example.org")
        write_ticket(served.base, "kai@example.org", "Hello there.")
        wait_for_mail(env, 4)  # two licences, the ticket's copy to support and its acknowledgement
    finally:
        stop(served.process)
    moved_clock.move(clock, 200 * DAY)
    log = tmp_path / "later.log"
    served = serve_later(clock, env, log)  # retention runs before the site answers
    try:
        assert outbox(env) == []
        assert export("ines@example.org", env, tmp_path)["licences"] == []
        assert "retention:" in log.read_text()
    finally:
        stop(served.process)


def test_an_internationalised_addresss_outbox_copies_go_with_its_erasure(
    databases: tuple[str | None, str | None], tmp_path: Path
) -> None:
    source, _ = databases
    env = environment(tmp_path / "data", source)
    served = serve(env, tmp_path / "serve.log")
    try:
        sign_up(served.base, "anna@bücher.de")
        write_ticket(served.base, "anna@bücher.de", "Hallo.")
        sign_up(served.base, "otto@example.org")
        wait_for_mail(env, 4)
        assert sum("xn--bcher-kva.de" in path.read_text() for path in outbox(env)) == 3
        # Every search reads the address as its mailbox, however it is spelt.
        held = export("Anna+news@XN--BCHER-KVA.DE", env, tmp_path)
        assert len(held["licences"]) == 1 and len(held["tickets"]) == 1
        found = run("licences", "find", "ANNA@BÜCHER.DE", "--json", env=env, cwd=tmp_path).stdout
        assert len(json.loads(found)) == 1
        erased = json.loads(run("privacy", "erase", "ANNA@XN--BCHER-KVA.DE", env=env, cwd=tmp_path).stdout)
    finally:
        stop(served.process)
    assert erased["outbox_files_deleted"] == 3
    [left] = [path.read_text() for path in outbox(env)]
    assert "otto@example.org" in left and "bcher" not in left


def test_after_an_erasure_the_sqlite_files_hold_no_byte_of_the_address_while_the_site_runs(
    tmp_path: Path,
) -> None:
    env = environment(tmp_path / "data", None)
    served = serve(env, tmp_path / "serve.log")
    try:
        person = sign_up(served.base, "zanzibar.quokka@example.org")
        write_ticket(served.base, "zanzibar.quokka@example.org", "my-very-own-ticket-text")
        assert check(served.base, person) == 200
        for n in range(30):  # others' rows, so the pages the address was on are rewritten, not dropped
            sign_up(served.base, f"other{n}@example.org")
        wanted = (b"zanzibar.quokka", b"my-very-own-ticket-text")
        assert all(part in stored_bytes(env) for part in wanted), "the test sees what is stored"
        run("privacy", "erase", person["email"], env=env, cwd=tmp_path)
        kept = stored_bytes(env)
        assert not [part for part in wanted if part in kept]
        assert served.process.poll() is None and check(served.base, person) == 404
        assert requests.get(served.base + "/api/user-count", timeout=10).status_code == 200
    finally:
        stop(served.process)


def stored_bytes(env: dict[str, str]) -> bytes:
    """Every byte of SQLite's files: the database, its write-ahead log, its shared memory."""
    folder = Path(env["VPNSITE_DATA_DIR"])
    return b"".join(path.read_bytes() for path in sorted(folder.glob("vpnsite.db*")))


def test_a_silent_servers_sessions_go_with_retention(
    databases: tuple[str | None, str | None], tmp_path: Path
) -> None:
    source, _ = databases
    clock = tmp_path / "clock"
    env = environment(tmp_path / "data", source)
    run("vpn", "init", env=env, cwd=tmp_path)
    server = ("nl-1", "--country", "nl", "--city", "Amsterdam", "--host", "203.0.113.9")
    added = run("vpn", "add-server", *server, env=env, cwd=tmp_path)
    auth = {"Authorization": f"Bearer {added.stdout.strip().splitlines()[-1]}"}
    served = serve_later(clock, env, tmp_path / "serve.log")
    try:
        lea = sign_up(served.base, "lea@example.org")
        beat = {"cpu_load": 5, "bandwidth_mbps": 1, "sessions": 0, "service_up": True}
        assert requests.post(served.base + "/api/node/heartbeat", json=beat, headers=auth, timeout=10).ok
        login = {"username": lea["email"], "password": lea["code"], "protocol": "udp"}
        answer = requests.post(served.base + "/api/node/login", json=login, headers=auth, timeout=10).json()
        assert answer["admitted"], answer
        assert len(export(lea["email"], env, tmp_path)["vpn_sessions"]) == 1
        # The server says nothing more: within the hour its session is held, after it gone.
        moved_clock.move(clock, 3000)
        assert (
            json.loads(run_later(clock, "retention", "run", env=env, cwd=tmp_path).stdout)["sessions_ended"]
            == 0
        )
        moved_clock.move(clock, 1200)
        assert (
            json.loads(run_later(clock, "retention", "run", env=env, cwd=tmp_path).stdout)["sessions_ended"]
            == 1
        )
        assert export(lea["email"], env, tmp_path)["vpn_sessions"] == []
    finally:
        stop(served.process)
