"""The erasure journal as a file: one JSON object a line, appended by every erasure (`vpnsite
privacy erase`, or the licence e-mail's erasure link) and written whole by `vpnsite privacy
journal`, read by `vpnsite restore --erasures`."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from vpnsite.erasures import JournalNotWritten
from vpnsite.privacy import ErasureRecord


class UnreadableJournal(Exception):
    pass


def journal_line(record: ErasureRecord) -> str:
    return json.dumps(
        {
            "key_id": record.key_id,
            "address_hash": record.address_hash,
            "erased_at": record.erased_at.isoformat(),
        }
    )


def append(path: Path, records: Iterable[ErasureRecord]) -> None:
    """Add the records and wait for the disk: an erasure the journal lost could come back."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "a") as file:
        file.writelines(journal_line(record) + "\n" for record in records)
        file.flush()
        os.fsync(file.fileno())


class JournalFile:
    """The erasures' port (``erasures.ErasureJournal``) on the file ``VPNSITE_ERASURE_JOURNAL``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def append(self, record: ErasureRecord) -> None:
        try:
            append(self.path, [record])
        except OSError as error:
            raise JournalNotWritten(error.strerror or str(error)) from None


def read(path: Path) -> list[ErasureRecord]:
    try:
        lines = path.read_text().splitlines()
    except OSError as error:
        raise UnreadableJournal(f"cannot read {path}: {error.strerror}") from None
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            records.append(
                ErasureRecord(
                    int(item["key_id"]), str(item["address_hash"]), datetime.fromisoformat(item["erased_at"])
                )
            )
        except (ValueError, KeyError, TypeError):
            raise UnreadableJournal(f"{path}, line {number}: not an erasure journal's line") from None
    return records
