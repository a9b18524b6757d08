"""Rate-limit events, counted and recorded atomically across threads and processes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from types import SimpleNamespace

import peewee
from attrs import frozen

from vpnsite.rate_limits import Counter
from vpnsite_adapters.sql.database import from_db, is_postgres, to_db


@frozen
class SqlRateLimitStore:
    db: peewee.Database
    models: SimpleNamespace

    def admit(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        if not counters:
            return None
        with self.db.atomic():
            self._relax_durability()
            self._lock(counters)
            wait = self._longest_wait(counters, now)
            if wait is None:
                self._insert(counters, now)
            return wait

    def wait(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        return self._longest_wait(counters, now) if counters else None

    def record(self, counters: Sequence[Counter], now: datetime) -> None:
        if counters:
            with self.db.atomic():
                self._relax_durability()
                self._insert(counters, now)

    def _relax_durability(self) -> None:
        # Events lost in a crash cost a client a few calls it was owed nothing for: the commit need
        # not wait for the disk, which would otherwise cost every call a flush of its own.
        if is_postgres(self.db):
            self.db.execute_sql("SET LOCAL synchronous_commit = off")

    def _lock(self, counters: Sequence[Counter]) -> None:
        # SQLite serialises writers already (BEGIN IMMEDIATE); PostgreSQL needs a lock per key,
        # taken in a fixed order so two calls sharing keys cannot deadlock.
        if is_postgres(self.db):
            keys = sorted({counter.key for counter in counters})
            self.db.execute_sql(
                "SELECT pg_advisory_xact_lock(hashtextextended(key, 0)) FROM unnest(%s::text[]) AS key",
                (keys,),
            )

    def _longest_wait(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        # Only the newest `limit` events inside each rule's window decide whether one more fits:
        # one statement fetches them for every counter.
        param = self.db.param
        parts, values = [], []
        for number, counter in enumerate(counters):
            parts.append(
                f"SELECT * FROM (SELECT {number} AS counter, at FROM rate_event"
                f" WHERE key = {param} AND at > {param} ORDER BY at DESC LIMIT {param}) AS newest{number}"
            )
            values += [counter.key, to_db(now - counter.rule.window), counter.rule.limit]
        hits: list[list[datetime]] = [[] for _ in counters]
        for number, at in self.db.execute_sql(" UNION ALL ".join(parts), values).fetchall():
            hits[number].append(from_db(at))
        waits = [
            wait
            for counter, times in zip(counters, hits, strict=True)
            if (wait := counter.rule.retry_after(times, now)) is not None
        ]
        return max(waits, default=None)

    def _insert(self, counters: Sequence[Counter], now: datetime) -> None:
        keys = sorted({counter.key for counter in counters})
        param = self.db.param
        values = ", ".join(f"({param}, {param})" for _ in keys)
        at = to_db(now)
        self.db.execute_sql(
            f"INSERT INTO rate_event (key, at) VALUES {values}", [v for key in keys for v in (key, at)]
        )
