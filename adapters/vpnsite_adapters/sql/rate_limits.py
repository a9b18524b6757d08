"""Rate-limit events, counted and recorded atomically across threads and processes."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import peewee
from attrs import frozen

from vpnsite.rate_limits import Counter
from vpnsite_adapters.sql.database import from_db, is_postgres, to_db, write_relaxed


@frozen
class SqlRateLimitStore:
    db: peewee.Database
    models: SimpleNamespace

    def admit(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        if not counters:
            return None
        if not is_postgres(self.db) or self.db.in_transaction():
            # Within a caller's transaction its durability is the caller's: only the locks.
            with self.db.atomic():
                wait = self._longest_wait(counters, now, self._relaxed_and_locked(counters, relax=False))
                if wait is None:
                    self.db.execute_sql(*self._insert(counters, now))
                return wait
        # Every call of the API counts here: its transaction is begun with the first statement
        # and committed with the last, two round trips in all.
        relaxed, values = self._relaxed_and_locked(counters)
        try:
            wait = self._longest_wait(counters, now, ("BEGIN; " + relaxed, values))
            insert, rows = self._insert(counters, now) if wait is None else ("", [])
            self.db.execute_sql(f"{insert}; COMMIT" if insert else "COMMIT", rows)
        except peewee.DatabaseError:
            with contextlib.suppress(peewee.DatabaseError):
                self.db.execute_sql("ROLLBACK")
            raise
        return wait

    def waits(self, counters: Sequence[Counter], now: datetime) -> list[timedelta | None]:
        return self._waits(counters, now, ("", [])) if counters else []

    def record(self, counters: Sequence[Counter], now: datetime) -> None:
        if counters:
            write_relaxed(self.db, *self._insert(counters, now))

    def _relaxed_and_locked(self, counters: Sequence[Counter], relax: bool = True) -> tuple[str, list[Any]]:
        """What to say first in the transaction, sent with its first statement to save the round
        trips: on PostgreSQL, that the commit need not wait for the disk (events lost in a crash
        cost a client a few calls it was owed nothing for, while a flush would cost every call),
        and a lock per key, taken in a fixed order so two calls sharing keys cannot deadlock.
        SQLite serialises writers already (BEGIN IMMEDIATE) and has no such setting."""
        if not is_postgres(self.db):
            return "", []
        keys = sorted({counter.key for counter in counters})
        locks = (
            "SELECT pg_advisory_xact_lock(hashtextextended(key, 0)) FROM unnest(%s::text[]) AS key; "
            if keys
            else ""
        )
        return ("SET LOCAL synchronous_commit = off; " if relax else "") + locks, [keys] if keys else []

    def _longest_wait(
        self, counters: Sequence[Counter], now: datetime, first: tuple[str, list[Any]]
    ) -> timedelta | None:
        return max((wait for wait in self._waits(counters, now, first) if wait is not None), default=None)

    def _waits(
        self, counters: Sequence[Counter], now: datetime, first: tuple[str, list[Any]]
    ) -> list[timedelta | None]:
        # Only the newest `limit` events inside each rule's window decide whether one more fits:
        # one statement fetches them for every counter.
        param = self.db.param
        parts, values = [], list(first[1])
        for number, counter in enumerate(counters):
            parts.append(
                f"SELECT * FROM (SELECT {number} AS counter, at FROM rate_event"
                f" WHERE key = {param} AND at > {param} ORDER BY at DESC LIMIT {param}) AS newest{number}"
            )
            values += [counter.key, to_db(now - counter.rule.window), counter.rule.limit]
        hits: list[list[datetime]] = [[] for _ in counters]
        for number, at in self.db.execute_sql(first[0] + " UNION ALL ".join(parts), values).fetchall():
            hits[number].append(from_db(at))
        return [counter.rule.retry_after(times, now) for counter, times in zip(counters, hits, strict=True)]

    def _insert(self, counters: Sequence[Counter], now: datetime) -> tuple[str, list[Any]]:
        """The statement that records one event under each counter's key, and its values."""
        keys = sorted({counter.key for counter in counters})
        param = self.db.param
        rows = ", ".join(f"({param}, {param})" for _ in keys)
        at = to_db(now)
        return f"INSERT INTO rate_event (key, at) VALUES {rows}", [v for key in keys for v in (key, at)]
