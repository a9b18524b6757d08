"""The erasure journal as a file, and the journal's keys in the data directory.

The file (``VPNSITE_ERASURE_JOURNAL``, beside the backups) holds one JSON object a line: a key line
``{"journal_key": ID, "secret": HEX}`` for each journal key its entries use, before them, and an
entry ``{"key_id": ID, "address_hash": …, "erased_at": …}`` for each erasure. Every erasure
(`vpnsite privacy erase`, the licence e-mail's erasure link) appends to it; retention takes out
the entries past the policy's 30 days, and the keys no entry uses any more; `vpnsite privacy
journal` writes the database's copy in the same form; `vpnsite restore` reads it. Whoever changes
the file holds its lock (``flock``), and a rewrite replaces it whole, so an erasure appended while
retention rewrites the file is never lost.

The keys live in the data directory too (``erasure-journal-keys.json``, mode 0600, the last one
current): the hub makes its entries with it even where it cannot read the journal."""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from vpnsite.erasure_journal import ErasureRecord, Journal, JournalKey, new_journal_key
from vpnsite.erasures import JournalNotWritten
from vpnsite.ports import RandomSource
from vpnsite.retention import RetentionPlan, deletes_erasure_record
from vpnsite_adapters.protection.keyring_file import KeyRingFileError

log = logging.getLogger("vpnsite")

KEY_FILE = "erasure-journal-keys.json"
Keys = tuple[JournalKey, ...]
_FORMAT = 1


class UnreadableJournal(Exception):
    pass


def key_line(key: JournalKey) -> str:
    return json.dumps({"journal_key": key.id, "secret": key.secret.hex()})


def entry_line(record: ErasureRecord) -> str:
    return json.dumps(
        {
            "key_id": record.key_id,
            "address_hash": record.address_hash,
            "erased_at": record.erased_at.isoformat(),
        }
    )


def journal_lines(journal: Journal) -> list[str]:
    """The journal as the file holds it: the keys its entries use, then the entries."""
    used = {record.key_id for record in journal.records}
    return [key_line(key) for key in journal.keys if key.id in used] + [
        entry_line(record) for record in journal.records
    ]


def parse(text: str, source: str) -> Journal:
    keys, records = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            if "journal_key" in item:
                keys.append(JournalKey(str(item["journal_key"]), bytes.fromhex(item["secret"])))
            else:
                # An entry written before journal keys existed names its master key by number.
                records.append(
                    ErasureRecord(
                        str(item["key_id"]),
                        str(item["address_hash"]),
                        datetime.fromisoformat(item["erased_at"]),
                    )
                )
        except (ValueError, KeyError, TypeError):
            raise UnreadableJournal(f"{source}, line {number}: not an erasure journal's line") from None
    return Journal.of(keys, records)


def read(path: Path) -> Journal:
    try:
        return parse(path.read_text(), str(path))
    except OSError as error:
        raise UnreadableJournal(f"cannot read {path}: {error.strerror}") from None


@contextlib.contextmanager
def _locked(path: Path, create: bool) -> Iterator[IO[str] | None]:
    """The journal file opened and locked: the one at ``path`` once the lock is held (a rewrite
    may have replaced the file whose lock was awaited). None when there is none to open."""
    flags = os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | (os.O_CREAT if create else 0)
    while True:
        try:
            fd = os.open(path, flags, 0o600)
        except FileNotFoundError:
            if create:
                raise
            yield None
            return
        file = os.fdopen(fd, "r+")
        try:
            fcntl.flock(file, fcntl.LOCK_EX)
            try:
                current = os.stat(path, follow_symlinks=False).st_ino
            except FileNotFoundError:
                current = None
            if current == os.fstat(fd).st_ino:
                yield file
                return
        finally:
            file.close()


def append(path: Path, records: list[ErasureRecord], keys: list[JournalKey]) -> None:
    """Add the records, and each key they are under that the file lacks, and wait for the disk:
    an erasure the journal lost could come back."""
    with _locked(path, create=True) as file:
        assert file is not None, "created when missing"
        file.seek(0)
        held = parse(file.read(), str(path))
        missing = [key for key in keys if key.id not in {known.id for known in held.keys}]
        file.writelines(line + "\n" for line in [*map(key_line, missing), *map(entry_line, records)])
        file.flush()
        os.fsync(file.fileno())


def prune(path: Path, keeps: Callable[[ErasureRecord], bool]) -> int:
    """Rewrite the file with only the entries ``keeps`` keeps, and the keys they use; how many
    entries went."""
    with _locked(path, create=False) as file:
        if file is None:
            return 0
        text = file.read()
        held = parse(text, str(path))
        kept = [record for record in held.records if keeps(record)]
        lines = journal_lines(Journal.of(held.keys, kept))
        if lines != [line for line in text.splitlines() if line.strip()]:
            _replace(path, lines)
        return len(held.records) - len(kept)


def _replace(path: Path, lines: list[str]) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "w") as out:
            out.writelines(line + "\n" for line in lines)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


class JournalFile:
    """The erasures' port (``erasures.ErasureJournal``) on the file ``VPNSITE_ERASURE_JOURNAL``,
    and its retention (``retention.RetainedFiles``): entries go 30 days after their erasure."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def append(self, record: ErasureRecord, key: JournalKey) -> None:
        try:
            append(self.path, [record], [key])
        except (OSError, UnreadableJournal) as error:
            reason = error.strerror if isinstance(error, OSError) else None
            raise JournalNotWritten(reason or str(error)) from None

    def apply_retention(self, plan: RetentionPlan) -> int:
        try:
            return prune(self.path, lambda record: not deletes_erasure_record(plan, record.erased_at))
        except (OSError, UnreadableJournal) as error:
            log.warning("the erasure journal %s was not pruned: %s", self.path, error)
            return 0


def read_journal_keys(path: Path) -> tuple[JournalKey, ...]:
    """The keys of a data directory's key file (none without one), the current one last."""
    try:
        data: dict[str, Any] = json.loads(path.read_text())
        if data.get("format") != _FORMAT:
            raise ValueError(f"unknown format {data.get('format')!r}")
        return tuple(JournalKey(str(key["id"]), bytes.fromhex(key["secret"])) for key in data["keys"])
    except FileNotFoundError:
        return ()
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise KeyRingFileError(f"{path} is not the erasure journal's keys ({error})") from None


class JournalKeyFile:
    """The journal's keys (``erasure_journal.JournalKeyring``) in the data directory; the first is
    made on first use, a new one by :meth:`rotate`."""

    def __init__(self, data_dir: Path, random: RandomSource) -> None:
        self.path = data_dir / KEY_FILE
        self.random = random

    def current(self) -> JournalKey:
        keys = self.known()
        return keys[-1] if keys else self._change(lambda held: held or (new_journal_key(self.random),))[-1]

    def known(self) -> tuple[JournalKey, ...]:
        return read_journal_keys(self.path)

    def rotate(self) -> JournalKey:
        """A new key, current from now on; the others stay for the entries made under them."""
        return self._change(lambda held: (*held, new_journal_key(self.random)))[-1]

    def keep(self, keys: Iterable[JournalKey]) -> None:
        """Hold ``keys`` too, before the current one: a restore keeps the keys of the entries it
        applied, so that `privacy journal` prints each entry with its key."""
        self._change(lambda held: (*[key for key in keys if key not in held], *held))

    def _change(
        self, change: Callable[[tuple[JournalKey, ...]], tuple[JournalKey, ...]]
    ) -> tuple[JournalKey, ...]:
        # Under a lock on the data directory (no file of its own to land in backups): two processes
        # making the first key at once agree on one.
        lock = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            held = self.known()
            keys = change(held)
            if keys != held:
                document = {"format": _FORMAT, "keys": [{"id": k.id, "secret": k.secret.hex()} for k in keys]}
                _replace(self.path, [json.dumps(document, indent=2)])
            return keys
        finally:
            os.close(lock)
