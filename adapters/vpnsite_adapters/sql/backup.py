"""The database's half of a backup: a consistent copy taken while `vpnsite serve` writes, and its
restoration into an empty database. SQLite is copied whole through its online backup API;
PostgreSQL table by table with COPY inside one read-only REPEATABLE READ transaction, so every
table shows the same moment."""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path

import peewee
import psycopg2
from attrs import frozen

from vpnsite_adapters.sql.database import close_database, open_database, sqlite_path
from vpnsite_adapters.sql.migrations import LATEST, migrate, tables_at

SQLITE_FILE = "vpnsite.db"
_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")


class BackupError(Exception):
    """A backup or restore that cannot go on; the message says why, for the operator."""


@frozen
class DatabaseCopy:
    kind: str
    schema_version: int
    # PostgreSQL: each table's columns in the order of its COPY file (empty for SQLite).
    columns: Mapping[str, tuple[str, ...]]


def database_kind(url: str) -> str:
    return "sqlite" if sqlite_path(url) is not None else "postgresql"


def copy_database(url: str, into: Path) -> DatabaseCopy:
    """Write the copy into the directory ``into``: ``vpnsite.db``, or one ``TABLE.copy`` per table."""
    path = sqlite_path(url)
    if path is not None:
        return _copy_sqlite(Path(path), into / SQLITE_FILE)
    return _copy_postgres(url, into)


def restore_database(url: str, source: Path, copy: DatabaseCopy) -> None:
    """Restore a copy into an empty database; BackupError, with nothing written, otherwise."""
    if copy.schema_version > LATEST:
        raise BackupError(
            f"the backup's database is at schema version {copy.schema_version}; this vpnsite knows "
            f"versions up to {LATEST}: restore it with a newer vpnsite"
        )
    kind = database_kind(url)
    if kind != copy.kind:
        raise BackupError(f"the backup holds a {copy.kind} database, but the database configured is {kind}")
    path = sqlite_path(url)
    if path is not None:
        _restore_sqlite(source / SQLITE_FILE, Path(path), copy.schema_version)
    else:
        _restore_postgres(url, source, copy)


def _version(connection: sqlite3.Connection) -> int:
    try:
        row = connection.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"the database holds no vpnsite schema ({error})") from None
    return int(row[0] or 0)


def _copy_sqlite(path: Path, target: Path) -> DatabaseCopy:
    if not path.is_file() or path.stat().st_size == 0:
        raise BackupError(f"there is no database at {path}")
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    # Opened read-write (a WAL reader needs the -shm file) but only read: the backup API copies
    # every page in one read transaction, so the copy is one moment whatever serve writes.
    with (
        contextlib.closing(sqlite3.connect(path, timeout=30)) as source,
        contextlib.closing(sqlite3.connect(target)) as copy,
    ):
        source.backup(copy)
        version = _version(copy)
        # One self-contained file: no -wal beside it in the backup.
        copy.execute("PRAGMA journal_mode=DELETE")
    return DatabaseCopy("sqlite", version, {})


def _restore_sqlite(copied: Path, target: Path, version: int) -> None:
    for suffix in ("", "-wal"):
        existing = Path(f"{target}{suffix}")
        if existing.exists() and existing.stat().st_size > 0:
            raise BackupError(f"{existing} already holds a database: restore into an empty one")
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    partial = target.with_name(f".{target.name}.restoring")
    try:
        with contextlib.closing(sqlite3.connect(f"file:{copied}?mode=ro", uri=True)) as source:
            checked = source.execute("PRAGMA integrity_check").fetchone()[0]
            if checked != "ok" or _version(source) != version:
                raise BackupError("the backup's database is damaged")
            os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
            with contextlib.closing(sqlite3.connect(partial)) as restored:
                source.backup(restored)
        os.replace(partial, target)
    except sqlite3.DatabaseError as error:
        raise BackupError(f"the backup's database is damaged ({error})") from None
    finally:
        partial.unlink(missing_ok=True)


@contextlib.contextmanager
def _postgres(url: str) -> Iterator[psycopg2.extensions.connection]:
    try:
        connection = psycopg2.connect(url, connect_timeout=5)
    except psycopg2.OperationalError:
        raise BackupError("the database cannot be reached") from None
    try:
        yield connection
    finally:
        connection.close()


def _columns(cursor: psycopg2.extensions.cursor, table: str) -> tuple[str, ...]:
    cursor.execute(
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = %s ORDER BY ordinal_position",
        (table,),
    )
    return tuple(str(row[0]) for row in cursor.fetchall())


def _copy_postgres(url: str, into: Path) -> DatabaseCopy:
    columns: dict[str, tuple[str, ...]] = {}
    with _postgres(url) as connection:
        connection.set_session(isolation_level="REPEATABLE READ", readonly=True)
        with connection, connection.cursor() as cursor:
            cursor.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")
            if not cursor.fetchone()[0]:
                raise BackupError("the database holds no vpnsite schema")
            cursor.execute("SELECT MAX(version) FROM schema_migrations")
            version = int(cursor.fetchone()[0] or 0)
            for table in tables_at(version):
                columns[table] = _columns(cursor, table)
                with (into / f"{table}.copy").open("xb") as file:
                    cursor.copy_expert(f"COPY {table} ({', '.join(columns[table])}) TO STDOUT", file)
    return DatabaseCopy("postgresql", version, columns)


def _restore_postgres(url: str, source: Path, copy: DatabaseCopy) -> None:
    tables = tables_at(copy.schema_version)
    if set(copy.columns) != set(tables) or not all(
        _NAME.match(name) for names in copy.columns.values() for name in names
    ):
        raise BackupError("the backup's list of tables does not match its schema version")
    db = open_database(url, max_connections=1)
    try:
        with db.atomic():
            cursor = db.cursor()
            for table in tables:
                cursor.execute("SELECT to_regclass(%s) IS NOT NULL", (table,))
                if cursor.fetchone()[0]:
                    cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {table})")
                    if cursor.fetchone()[0]:
                        raise BackupError(
                            f"the database already holds data ({table}): restore into an empty one"
                        )
            migrate(db, up_to=copy.schema_version)
            # The migrations leave rows of their own (the user count's tally, their records).
            for table in reversed(tables):
                cursor.execute(f"DELETE FROM {table}")
            for table in tables:
                with (source / f"{table}.copy").open("rb") as file:
                    cursor.copy_expert(f"COPY {table} ({', '.join(copy.columns[table])}) FROM STDIN", file)
            _fix_sequences(cursor, tables)
    except (peewee.OperationalError, psycopg2.OperationalError):
        raise BackupError("the database cannot be reached") from None
    except (peewee.DatabaseError, psycopg2.Error, FileNotFoundError) as error:
        raise BackupError(f"the backup's data does not load: {str(error).splitlines()[0]}") from None
    finally:
        close_database(db)


def _fix_sequences(cursor: psycopg2.extensions.cursor, tables: tuple[str, ...]) -> None:
    """Sequences continue after the rows restored (rows were copied with their own keys)."""
    cursor.execute(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND (column_default LIKE 'nextval(%%' OR is_identity = 'YES')"
    )
    for table, column in cursor.fetchall():
        if table in tables:
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence(%s, %s), COALESCE(MAX({column}), 1),"
                f" MAX({column}) IS NOT NULL) FROM {table}",
                (table, column),
            )
