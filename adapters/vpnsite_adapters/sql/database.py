"""Opening the database named by a URL: a SQLite file (WAL mode) or PostgreSQL."""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import peewee
from playhouse.pool import PooledDatabase, PooledPostgresqlDatabase
from psycopg2.extensions import TRANSACTION_STATUS_IDLE

# peewee logs every query with its parameters at DEBUG: e-mail and IP addresses would reach the
# logs whenever someone turned debugging on.
logging.getLogger("peewee").setLevel(logging.INFO)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def to_db(moment: datetime) -> int:
    """Times are stored as whole microseconds since the epoch: exact, and the same on both databases."""
    return (moment - _EPOCH) // _MICROSECOND


def from_db(value: int) -> datetime:
    return _EPOCH + value * _MICROSECOND


def _private(path: Path) -> None:
    """The database holds e-mails and addresses: readable by its owner only. SQLite gives its
    -wal and -shm files the mode of the database file."""
    if str(path) in ("", ":memory:"):
        return
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").chmod(0o600)


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL (sqlite:///relative.db and sqlite:////absolute.db, as SQLAlchemy
    spells them); None for any other database."""
    parts = urlsplit(url)
    return unquote(parts.path)[1:] if parts.scheme == "sqlite" else None


def open_database(url: str, max_connections: int = 16) -> peewee.Database:
    parts = urlsplit(url)
    path = sqlite_path(url)
    if path is not None:
        _private(Path(path))
        return peewee.SqliteDatabase(
            path,
            pragmas={
                "journal_mode": "wal",
                "synchronous": "normal",
                "foreign_keys": 1,
                "busy_timeout": 10_000,
                "cache_size": -16_000,
                # What is deleted or rewritten is overwritten with zeros (sql/disk.py).
                "secure_delete": 1,
            },
            timeout=10,
            # Writers take the lock up front: no deadlock between two readers turning writers.
            lock_type="IMMEDIATE",
        )
    if parts.scheme in ("postgres", "postgresql"):
        return _PooledPostgres(
            unquote(parts.path.lstrip("/")),
            user=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            host=parts.hostname,
            port=parts.port,
            max_connections=max_connections,
            stale_timeout=300,
            timeout=10,
            connect_timeout=5,
            autoconnect=True,
        )
    raise ValueError(f"unsupported database URL scheme {parts.scheme!r}: use sqlite:/// or postgresql://")


def is_postgres(db: peewee.Database) -> bool:
    return isinstance(db, peewee.PostgresqlDatabase)


class _PooledPostgres(PooledPostgresqlDatabase):  # type: ignore[misc]
    """peewee asks the server whether a pooled connection still works ("SELECT 1") each time it
    hands one out: a round trip more for every request. Here a connection back in the pool within
    the last ``TRUSTED_FOR_SECONDS`` is handed out as it is (one that broke meanwhile fails its
    request with a 503 and is dropped); one that lay unused longer is asked as before."""

    TRUSTED_FOR_SECONDS = 5.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._returned: dict[int, float] = {}

    def _is_closed(self, conn: Any) -> bool:
        returned = self._returned.pop(self.conn_key(conn), None)
        if conn.closed or conn.get_transaction_status() != TRANSACTION_STATUS_IDLE:
            return bool(super()._is_closed(conn))
        if returned is not None and time.monotonic() - returned < self.TRUSTED_FOR_SECONDS:
            return False
        return bool(super()._is_closed(conn))

    # A transaction's BEGIN goes with its first statement: a round trip less for every transaction
    # (each sign-up, login and heartbeat). One who takes a cursor of their own is sent it first; a
    # transaction that said nothing has nothing to commit or roll back.
    def begin(self, isolation_level: str | None = None) -> None:
        if isolation_level or self._isolation_level:
            super().begin(isolation_level)
            return
        if self.is_closed():
            self.connect()  # now, as peewee's BEGIN would: connecting later forgets the transaction
        self._state.begin_pending = True

    def execute_sql(self, sql: str, params: Any = None) -> Any:
        if self._take_pending_begin():
            sql = "BEGIN; " + sql
        return super().execute_sql(sql, params)

    def cursor(self, named_cursor: Any = None) -> Any:
        if self._take_pending_begin():
            super().begin()
        return super().cursor(named_cursor)

    def commit(self) -> None:
        held: list[tuple[str, Sequence[Any]]] = self._take_held_writes()
        if held:
            # The transaction's last writes travel with its COMMIT: one round trip for both.
            statements = "; ".join(statement for statement, _ in held)
            self.execute_sql(f"{statements}; COMMIT", [value for _, params in held for value in params])
        elif not self._take_pending_begin():
            super().commit()

    def rollback(self) -> None:
        self._take_held_writes()
        if not self._take_pending_begin():
            super().rollback()

    def savepoint(self) -> Any:
        return _CountedSavepoint(super().savepoint(), self._state)

    def hold_until_commit(self, statement: str, params: Sequence[Any]) -> bool:
        """Keep a write to be sent with the transaction's COMMIT; False (and nothing kept) outside
        a transaction or inside a savepoint, whose rollback must be able to take the write back."""
        if self.transaction_depth() != 1 or getattr(self._state, "savepoints", 0):
            return False
        self._take_held_writes(keep=True).append((statement, params))
        return True

    def _take_held_writes(self, keep: bool = False) -> list[tuple[str, Sequence[Any]]]:
        held: list[tuple[str, Sequence[Any]]] = getattr(self._state, "held_writes", [])
        self._state.held_writes = held if keep else []
        return held

    def _take_pending_begin(self) -> bool:
        pending: bool = getattr(self._state, "begin_pending", False)
        self._state.begin_pending = False
        return pending

    def _close(self, conn: Any, close_conn: bool = False) -> None:
        if not close_conn:
            self._returned[self.conn_key(conn)] = time.monotonic()
        super()._close(conn, close_conn)
        if len(self._returned) > 2 * (self._max_connections or 32):
            # Connections the pool closed as stale leave their entries behind.
            pooled = {self.conn_key(pooled) for _, _, pooled in self._connections}
            self._returned = {key: at for key, at in self._returned.items() if key in pooled}


class _CountedSavepoint:
    """peewee's savepoint, counted on the connection's state while it is open."""

    def __init__(self, savepoint: Any, state: Any) -> None:
        self._savepoint = savepoint
        self._state = state

    def __enter__(self) -> Any:
        entered = self._savepoint.__enter__()
        self._state.savepoints = getattr(self._state, "savepoints", 0) + 1
        return entered

    def __exit__(self, *raised: Any) -> Any:
        self._state.savepoints -= 1
        return self._savepoint.__exit__(*raised)


def write_relaxed(db: peewee.Database, statement: str, params: Sequence[Any]) -> None:
    """Run a write whose loss in a crash costs no more than a repeat (a lease, a "sent" mark) as
    a transaction of its own that need not wait for the disk; on PostgreSQL in one round trip (the
    transaction's BEGIN, setting and COMMIT sent with the statement). Inside a transaction already,
    it is part of it, and as durable."""
    if not is_postgres(db) or db.in_transaction():
        with db.atomic():
            db.execute_sql(statement, params)
        return
    try:
        db.execute_sql(f"BEGIN; SET LOCAL synchronous_commit TO OFF; {statement}; COMMIT", params)
    except peewee.DatabaseError:
        with contextlib.suppress(peewee.DatabaseError):
            db.execute_sql("ROLLBACK")
        raise


def write_at_commit(db: peewee.Database, statement: str, params: Sequence[Any]) -> None:
    """Run a write that nothing later in the transaction reads: on PostgreSQL inside a
    transaction it is sent with the COMMIT, a round trip less; an error in it fails the commit
    and rolls the whole transaction back, as it would have failed the transaction at once."""
    if not (isinstance(db, _PooledPostgres) and db.hold_until_commit(statement, params)):
        db.execute_sql(statement, params)


def release(db: peewee.Database) -> None:
    """Hand a pooled connection back after a request; SQLite keeps one open connection per thread."""
    if isinstance(db, PooledDatabase) and not db.is_closed():
        db.close()


def close_database(db: peewee.Database) -> None:
    """Close this thread's connection and, for a pool, every connection it keeps."""
    if not db.is_closed():
        db.close()
    close_all = getattr(db, "close_all", None)
    if close_all is not None:
        close_all()
