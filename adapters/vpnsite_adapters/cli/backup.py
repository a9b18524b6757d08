"""``vpnsite backup --out FILE`` and ``vpnsite restore FILE``: the database and every secret of
the data directory in one file, taken while `vpnsite serve` runs, and put back into an empty data
directory and an empty database."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from attrs import evolve

from vpnsite.erasure_journal import JOURNAL_KEY_PREFIX, Journal, JournalKey, ring_journal_keys
from vpnsite.errors import StoreUnavailable
from vpnsite_adapters.operations.backup_archive import (
    DATABASE,
    SECRET_KEY,
    SECRETS,
    UnreadableBackup,
    manifest,
    read_archive,
    secret_files,
    write_archive,
)
from vpnsite_adapters.protection import erasure_journal
from vpnsite_adapters.protection.erasure_journal import KEY_FILE, read_journal_keys
from vpnsite_adapters.protection.keyring_file import RING_FILE, KeyRingFileError, load_ring
from vpnsite_adapters.runtime.log_lines import use_log_format
from vpnsite_adapters.settings import Settings, SettingsError, data_dir_as_given, load_settings


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    backup = commands.add_parser(
        "backup", help="the database and the secrets in one file (mode 0600), while the site runs"
    )
    backup.add_argument("--out", required=True, type=Path, help="the file to create (never overwritten)")
    backup.add_argument("--data-dir", dest="command_data_dir", help=argparse.SUPPRESS)
    backup.set_defaults(handler=run_backup, store="none", needs_database=True)

    restore = commands.add_parser(
        "restore", help="put a backup back into an empty data directory and an empty database"
    )
    restore.add_argument("file", type=Path, help="a file `vpnsite backup` made")
    restore.add_argument(
        "--erasures",
        action="append",
        type=Path,
        default=[],
        help="an erasure journal (VPNSITE_ERASURE_JOURNAL, or `vpnsite privacy journal`'s output) whose"
        " erasures are applied again to the restored data; VPNSITE_ERASURE_JOURNAL is read anyway",
    )
    restore.add_argument("--data-dir", dest="command_data_dir", help=argparse.SUPPRESS)
    # The settings create the data directory and a secret key in it: a link must be refused first.
    restore.set_defaults(handler=run_restore_command, store=None, hub_settings=False)


def _refuse(message: str) -> int:
    print(f"vpnsite: {message}", file=sys.stderr)
    return 2


def run_backup(settings: Settings, args: argparse.Namespace) -> int:
    from vpnsite_adapters.bootstrap import BackupError, copy_database, database_files

    out: Path = args.out
    if out.resolve().is_relative_to(settings.data_dir):
        return _refuse(f"{out} is inside the data directory: write the backup somewhere else")
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _refuse(f"{out} exists: give the backup a new name (an existing file is never overwritten)")
    except OSError as error:
        return _refuse(f"cannot create {out}: {error.strerror}")
    try:
        with os.fdopen(fd, "wb") as file, tempfile.TemporaryDirectory(dir=out.resolve().parent) as work:
            copy = copy_database(settings, Path(work))
            secrets = {
                name: path.read_bytes()
                for name, path in secret_files(settings.data_dir, database_files(settings)).items()
            }
            # The master secret the site runs with, wherever it came from: without it no code checks.
            secrets[SECRET_KEY] = settings.secret_key
            write_archive(file, manifest(copy.kind, copy.schema_version, copy.columns), secrets, Path(work))
    except BackupError as error:
        out.unlink(missing_ok=True)
        return _refuse(f"no backup made: {error}")
    except BaseException:
        out.unlink(missing_ok=True)
        raise
    print(
        f"vpnsite: WARNING: {out} holds the master secret, the VPN CA's key and every licence:"
        " keep it as you keep those secrets (it was created readable by its owner only)",
        file=sys.stderr,
    )
    print(
        f"backed up the {copy.kind} database (schema version {copy.schema_version}) and "
        f"{len(secrets)} secret file(s) to {out}"
    )
    return 0


def linked_part(path: Path) -> Path | None:
    """The first link on the way to ``path``, the path itself included; None when there is none."""
    return next((part for part in reversed([path, *path.parents]) if part.is_symlink()), None)


def run_restore_command(args: argparse.Namespace) -> int:
    """`vpnsite restore`, which reads the settings only once the data directory is known to be
    no link and to sit under none: loading them creates the directory and a key in it, and
    resolving the name would follow a link where the files would then land."""
    given = data_dir_as_given(args.command_data_dir or args.data_dir)
    link = linked_part(given)
    if link is not None:
        where = "is" if link == given else f"sits under {link}, which is"
        return _refuse(f"nothing restored: the data directory {given} {where} a link: name the real folder")
    try:
        settings = load_settings(data_dir=given)
    except SettingsError as error:
        return _refuse(str(error))
    use_log_format(settings.log_format)
    try:
        return run_restore(settings, args)
    except StoreUnavailable:
        return _refuse("the database cannot be reached")
    except KeyRingFileError as error:
        return _refuse(str(error))


def run_restore(settings: Settings, args: argparse.Namespace) -> int:
    from vpnsite_adapters.bootstrap import BackupError, DatabaseCopy, restore_database

    data_dir = settings.data_dir
    if settings.secret_key_source == "generated":
        # Loading the settings made it a moment ago: it is nobody's key, and the backup brings one.
        (data_dir / SECRET_KEY).unlink()
    # Anything at all, a link or an empty folder included: what is written must land here alone.
    held = sorted(os.listdir(data_dir))
    if held:
        return _refuse(
            f"{data_dir} already holds {held[0]}"
            f"{f' and {len(held) - 1} other entr(ies)' if len(held) > 1 else ''}:"
            " restore into an empty data directory"
        )
    journals = [*args.erasures, *([settings.erasure_journal] if settings.erasure_journal else [])]
    journal = Journal.of((), ())
    try:
        for path in journals:
            if path.exists():
                journal = journal.joined(erasure_journal.read(path))
    except erasure_journal.UnreadableJournal as error:
        return _refuse(f"nothing restored: {error}")
    missing = [path for path in args.erasures if not path.exists()]
    if missing:
        return _refuse(f"nothing restored: {missing[0]} does not exist")
    with tempfile.TemporaryDirectory(dir=data_dir.parent) as work:
        unpacked = Path(work)
        try:
            described = read_archive(args.file, unpacked)
        except UnreadableBackup as error:
            return _refuse(str(error))
        secret = (unpacked / SECRETS / SECRET_KEY).read_bytes().strip()
        if settings.secret_key_source == "environment" and secret != settings.secret_key:
            return _refuse(
                "VPNSITE_SECRET_KEY differs from the backup's secret: the restored codes and links would"
                " not check. Unset it, or set it to the secret the backup was made with"
            )
        journal = journal.with_keys(_backup_journal_keys(unpacked / SECRETS, secret))
        unmatched = journal.unmatched()
        if unmatched:
            # Each would leave its person in the restored data with nothing to say so.
            keys = ", ".join(sorted({record.key_id for record in unmatched}))
            return _refuse(
                f"nothing restored: {len(unmatched)} journalled erasure(s) are under keys neither the"
                f" journal nor the backup holds ({keys}): give the journal file they were written to,"
                " with its key lines"
            )
        copy = DatabaseCopy(
            described["database"],
            described["schema_version"],
            {table: tuple(columns) for table, columns in described["tables"].items()},
        )
        try:
            restore_database(settings, unpacked / DATABASE, copy)
        except BackupError as error:
            return _refuse(f"nothing restored: {error}")
        restored = _write_secrets(unpacked / SECRETS, data_dir)
    print(
        f"restored the {copy.kind} database (schema version {copy.schema_version}) and {restored}"
        f" secret file(s) into {data_dir}"
    )
    # The restored secret, not the one loading the settings generated: the ring's hashes need it.
    return _erase_again(evolve(settings, secret_key=secret), journal, described["created_at"])


def _backup_journal_keys(secrets: Path, secret: bytes) -> tuple[JournalKey, ...]:
    """The journal keys the backup's data directory held, and its master keys' address keys, under
    which a journal written before journal keys existed named its addresses."""
    return (
        *read_journal_keys(secrets / KEY_FILE),
        *ring_journal_keys(load_ring(secrets / RING_FILE).keys(secret)),
    )


def _erase_again(settings: Settings, journal: Journal, taken_at: str) -> int:
    """Apply the journal's erasures to what was restored (migrated first, as `serve` would), so
    that data erased after the backup was taken does not come back with it."""
    from vpnsite_adapters.bootstrap import open_console

    console = open_console(settings, migrate=True)
    try:
        erased = console.reapply_erasures(journal)
        console.journal_keys.keep([key for key in journal.keys if key.id.startswith(JOURNAL_KEY_PREFIX)])
    finally:
        console.close()
    print(f"applied {len(journal.records)} journalled erasure(s) again: {len(erased)} address(es) erased")
    if not journal.records:
        print(
            f"vpnsite: no erasure journal given: anything erased since the backup was taken ({taken_at})"
            " is back. Give the journal with --erasures (see README, Privacy)",
            file=sys.stderr,
        )
    return 0


def _write_secrets(source: Path, data_dir: Path) -> int:
    data_dir.chmod(0o700)
    written = secret_files(source, set())
    for name, path in written.items():
        target = data_dir / name
        _make_folders(data_dir, target.parent)
        # O_EXCL refuses a link in the file's place, O_NOFOLLOW says so twice.
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        with os.fdopen(os.open(target, flags, 0o600), "wb") as file:
            file.write(path.read_bytes())
    return len(written)


def _make_folders(data_dir: Path, folder: Path) -> None:
    """Each folder between the data directory and ``folder``, refusing to pass through a link."""
    for part in reversed([folder, *folder.parents]):
        if not part.is_relative_to(data_dir) or part == data_dir:
            continue
        if part.is_symlink():
            raise OSError(f"{part} is a symbolic link")
        part.mkdir(mode=0o700, exist_ok=True)
