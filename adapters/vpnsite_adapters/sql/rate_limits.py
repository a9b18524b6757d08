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
                self._insert(counters, now)

    def _lock(self, counters: Sequence[Counter]) -> None:
        # SQLite serialises writers already (BEGIN IMMEDIATE); PostgreSQL needs a lock per key,
        # taken in a fixed order so two calls sharing keys cannot deadlock.
        if is_postgres(self.db):
            for key in sorted({counter.key for counter in counters}):
                self.db.execute_sql("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (key,))

    def _longest_wait(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        events = self.models.RateEvent
        waits = []
        for counter in counters:
            rule = counter.rule
            # Only the newest `limit` events inside the window decide whether one more fits.
            hits = [
                from_db(at)
                for (at,) in events.select(events.at)
                .where((events.key == counter.key) & (events.at > to_db(now - rule.window)))
                .order_by(events.at.desc())
                .limit(rule.limit)
                .tuples()
            ]
            wait = rule.retry_after(hits, now)
            if wait is not None:
                waits.append(wait)
        return max(waits, default=None)

    def _insert(self, counters: Sequence[Counter], now: datetime) -> None:
        keys = sorted({counter.key for counter in counters})
        self.models.RateEvent.insert_many([(key, to_db(now)) for key in keys], fields=["key", "at"]).execute()
