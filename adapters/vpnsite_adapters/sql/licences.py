"""Licences: look-up by code hash or id, and the count of users."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import peewee
from attrs import frozen

from vpnsite.keyed_hashes import KeyedHash
from vpnsite.licences import Licence
from vpnsite.rate_limits import Counter
from vpnsite_adapters.sql.database import from_db, to_db
from vpnsite_adapters.sql.models import Models
from vpnsite_adapters.sql.rate_limits import newest_events, waits_from
from vpnsite_adapters.sql.users import UserTally

# Written out rather than built by peewee: every licence check and VPN login runs one of these,
# and building the statement cost more than the database took to answer it.
_COLUMNS = "id, email, code_hash, starts_at, ends_at, language, code_key"
_BY_CODE_HASH = f"SELECT {_COLUMNS} FROM licence WHERE code_hash IN ({{params}}) LIMIT 1"
_BY_ID = f"SELECT {_COLUMNS} FROM licence WHERE id = {{param}}"
# First, so that a UNION with the rate events' rows takes its columns' types from the licence's
# (PostgreSQL resolves the NULLs of a UNION pair by pair, left to right).
_FOUND_FIRST = f"SELECT NULL AS counter, NULL AS at, found.* FROM ({_BY_CODE_HASH}) AS found"


def licences_by_id(db: peewee.Database, licence_ids: Sequence[str]) -> dict[str, Licence]:
    """The licences of these ids that exist, by id; written out, as every heartbeat asks for
    hundreds (peewee's model rows cost more than the query)."""
    if not licence_ids:
        return {}
    params = ", ".join([db.param] * len(licence_ids))
    rows = db.execute_sql(f"SELECT {_COLUMNS} FROM licence WHERE id IN ({params})", list(licence_ids))
    return {row[0]: _licence_from_columns(*row) for row in rows.fetchall()}


def licence_from_row(row: Any) -> Licence:
    return _licence_from_columns(
        row.id, row.email, row.code_hash, row.starts_at, row.ends_at, row.language, row.code_key
    )


def _licence_from_columns(
    licence_id: str,
    email: str | None,
    code_hash: str,
    starts_at: int,
    ends_at: int,
    language: str,
    code_key: int,
) -> Licence:
    """A licence from the columns of ``_COLUMNS``; an erased address reads as empty."""
    return Licence(
        licence_id, email or "", code_hash, from_db(starts_at), from_db(ends_at), language, code_key
    )


@frozen
class SqlLicenceStore:
    db: peewee.Database
    models: Models
    users: UserTally

    def find_by_code_hashes(self, code_hashes: Sequence[str]) -> Licence | None:
        # One query, no exception when nothing matches: a miss must cost what a hit costs, so the
        # time of a wrong code tells nothing.
        params = ", ".join([self.db.param] * len(code_hashes))
        return self._one(_BY_CODE_HASH.format(params=params), code_hashes)

    def find_by_code_hashes_with_waits(
        self, code_hashes: Sequence[str], counters: Sequence[Counter], now: datetime
    ) -> tuple[Licence | None, list[timedelta | None]]:
        """The licence check's two reads in one round trip: rows of the licence (its counter
        NULL) and of the counters' newest events (rate_limits.newest_events), as one UNION."""
        if not counters:
            return self.find_by_code_hashes(code_hashes), []
        params = ", ".join([self.db.param] * len(code_hashes))
        events, values = newest_events(self.db.param, counters, now, padding=_COLUMNS.count(",") + 1)
        statement = f"{_FOUND_FIRST.format(params=params)} UNION ALL {events}"
        rows = self.db.execute_sql(statement, [*code_hashes, *values]).fetchall()
        found = next((row[2:] for row in rows if row[0] is None), None)
        licence = None if found is None else _licence_from_columns(*found)
        return licence, waits_from(counters, [row for row in rows if row[0] is not None], now)

    def find_by_id(self, licence_id: str) -> Licence | None:
        return self._one(_BY_ID.format(param=self.db.param), [licence_id])

    def _one(self, statement: str, values: Sequence[str]) -> Licence | None:
        row = self.db.execute_sql(statement, tuple(values)).fetchone()
        return None if row is None else _licence_from_columns(*row)

    def rekey_code(self, licence_id: str, old_hash: str, new: KeyedHash) -> None:
        licences = self.models.Licence
        licences.update(code_hash=new.value, code_key=new.key_id).where(
            (licences.id == licence_id) & (licences.code_hash == old_hash)
        ).execute()

    def find_by_email_key(self, key: str) -> list[Licence]:
        licences = self.models.Licence
        query = licences.select().where(licences.email_key == key).order_by(licences.starts_at)
        return [licence_from_row(row) for row in query]

    def count_users(self, now: datetime) -> int:
        """Distinct addresses holding a licence that has not ended."""
        return self.users.count(now)

    def forget_ended_users(self, now: datetime) -> None:
        self.users.sweep(now)

    def started_since(self, since: datetime) -> list[datetime]:
        """Start times of the licences issued since ``since``: sign-ups, for the statistics."""
        licences = self.models.Licence
        query = licences.select(licences.starts_at).where(licences.starts_at >= to_db(since)).tuples()
        return [from_db(starts_at) for (starts_at,) in query]

    def licences_started(self, windows: Sequence[tuple[datetime, datetime]]) -> list[int]:
        """Licences started in each window (after its start, up to its end): the sign-up pace, in
        one round trip, each count a range of the start-time index (migration 14)."""
        if not windows:
            return []
        param = self.db.param
        counts = ", ".join(
            f"(SELECT COUNT(*) FROM licence WHERE starts_at > {param} AND starts_at <= {param})"
            for _ in windows
        )
        values = [to_db(moment) for window in windows for moment in window]
        row = self.db.execute_sql(f"SELECT {counts}", values).fetchone()
        return [int(count) for count in row]

    def erased_ids(self, ended_since: datetime) -> list[str]:
        licences = self.models.Licence
        erased = (licences.ends_at >= to_db(ended_since)) & licences.email_key.is_null()
        return [licence_id for (licence_id,) in licences.select(licences.id).where(erased).tuples()]
