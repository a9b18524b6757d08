"""Rate-limit events, counted and recorded atomically across threads and processes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import peewee
from attrs import frozen

from vpnsite.rate_limits import Counter
from vpnsite_adapters.sql.database import from_db, is_postgres, to_db, write_relaxed
from vpnsite_adapters.sql.models import Models


@frozen
class SqlRateLimitStore:
    db: peewee.Database
    models: Models

    def admit(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        if not counters:
            return None
        if not is_postgres(self.db) or self.db.in_transaction():
            return self._admit_in_transaction(counters, now)
        # Every call of the API counts here, in one round trip: the statements sent together run as
        # one transaction, which takes the locks, then records the events only if every window
        # has room, and commits.
        relaxed, values = self._relaxed_and_locked(counters)
        insert, rows = self._insert_if_admitted(counters, now)
        if self.db.execute_sql(relaxed + insert, [*values, *rows]).fetchone() is not None:
            return None
        # Refused. A window's events only accumulate, so a second look finds it as full; should an
        # event have gone in between (an erasure), the locked way decides.
        wait = self._longest_wait(counters, now, ("", []))
        return wait if wait is not None else self._admit_in_transaction(counters, now)

    def _admit_in_transaction(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        # Within a caller's transaction its durability is the caller's: only the locks.
        with self.db.atomic():
            wait = self._longest_wait(counters, now, self._relaxed_and_locked(counters, relax=False))
            if wait is None:
                self.db.execute_sql(*self._insert(counters, now))
            return wait

    def waits(self, counters: Sequence[Counter], now: datetime) -> list[timedelta | None]:
        return self._waits(counters, now, ("", [])) if counters else []

    def lock(self, counters: Sequence[Counter]) -> None:
        """Inside a transaction: hold off every other one that locks or admits under these keys
        until this one ends (vpn_login_limits.CountLocks). SQLite's began IMMEDIATE, which holds
        off every other writer already."""
        statement, values = self._relaxed_and_locked(counters, relax=False)
        if statement:
            self.db.execute_sql(statement, values)

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
        keys = _keys(counters)
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
        statement, values = newest_events(self.db.param, counters, now)
        rows = self.db.execute_sql(first[0] + statement, [*first[1], *values]).fetchall()
        return waits_from(counters, rows, now)

    def _insert_if_admitted(self, counters: Sequence[Counter], now: datetime) -> tuple[str, list[Any]]:
        """On PostgreSQL, the statement that records one event under each counter's key if every
        counter's window holds fewer events than its limit, returning a row if it did: the rule of
        `RateLimit.retry_after`, written in SQL so that deciding and recording are one statement
        (tests/integration/test_rate_limit_store.py holds the two to each other)."""
        at = to_db(now)
        full = " OR ".join(
            "(SELECT COUNT(*) FROM (SELECT 1 FROM rate_event"
            f" WHERE key = %s AND at > %s LIMIT %s) AS hits{number}) >= %s"
            for number in range(len(counters))
        )
        values: list[Any] = [at, _keys(counters)]
        for counter in counters:
            limit = counter.rule.limit
            values += [counter.key, to_db(now - counter.rule.window), limit, limit]
        return (
            "INSERT INTO rate_event (key, at) SELECT key, %s FROM unnest(%s::text[]) AS key"
            f" WHERE NOT ({full}) RETURNING 1",
            values,
        )

    def _insert(self, counters: Sequence[Counter], now: datetime) -> tuple[str, list[Any]]:
        """The statement that records one event under each counter's key, and its values."""
        keys = _keys(counters)
        param = self.db.param
        rows = ", ".join(f"({param}, {param})" for _ in keys)
        at = to_db(now)
        return f"INSERT INTO rate_event (key, at) VALUES {rows}", [v for key in keys for v in (key, at)]


def newest_events(
    param: str, counters: Sequence[Counter], now: datetime, padding: int = 0
) -> tuple[str, list[Any]]:
    """The statement that fetches, for every counter at once, the newest ``limit`` events inside
    its rule's window, as rows of (counter's position, time) and ``padding`` NULLs (for a UNION
    with another look-up): only those decide whether one more fits."""
    nulls = ", NULL" * padding
    parts, values = [], []
    for number, counter in enumerate(counters):
        parts.append(
            f"SELECT counter, at{nulls} FROM (SELECT {number} AS counter, at FROM rate_event"
            f" WHERE key = {param} AND at > {param} ORDER BY at DESC LIMIT {param})"
            f" AS newest{number}"
        )
        values += [counter.key, to_db(now - counter.rule.window), counter.rule.limit]
    return " UNION ALL ".join(parts), values


def waits_from(
    counters: Sequence[Counter], rows: Sequence[Sequence[Any]], now: datetime
) -> list[timedelta | None]:
    """Each counter's wait from the rows of :func:`newest_events`, in the counters' order."""
    hits: list[list[datetime]] = [[] for _ in counters]
    for number, at, *_ in rows:
        hits[number].append(from_db(at))
    return [counter.rule.retry_after(times, now) for counter, times in zip(counters, hits, strict=True)]


def _keys(counters: Sequence[Counter]) -> list[str]:
    """Each counter's key once, in the one order the locks are taken in."""
    return sorted({counter.key for counter in counters})
