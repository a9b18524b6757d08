"""The number of users — addresses holding a licence that has not ended — kept as licences change,
so reading it costs the same at a thousand users as at a million.

``user_end`` holds, for each address, the end of its latest licence; ``user_tally`` counts those
rows, spread over a few stripes so concurrent sign-ups do not queue for one row. A row whose end
has passed is counted until ``sweep`` removes it, and the count subtracts those: the answer is exact
at every moment, and the rows it subtracts are the few that ended since the last sweep. The
statements are written out: they run in every sign-up, and peewee took longer to build them than the
database took to run them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import peewee
from attrs import frozen

from vpnsite_adapters.sql.database import is_postgres, to_db
from vpnsite_adapters.sql.models import Models

STRIPES = 16


@frozen
class UserTally:
    db: peewee.Database
    models: Models

    def count(self, now: datetime) -> int:
        # One statement, so the tally and the rows it subtracts are read from the same moment even
        # while a sweep or a sign-up commits.
        (users,) = self.db.execute_sql(
            "SELECT (SELECT COALESCE(SUM(users), 0) FROM user_tally)"
            f" - (SELECT COUNT(*) FROM user_end WHERE ends_at <= {self.db.param})",
            (to_db(now),),
        ).fetchone()
        return int(users)

    def address_changed(self, key: str | None) -> None:
        """Bring the address's row up to date; call it in the transaction that changed the address's
        licences, after the change."""
        if key is None:
            return
        if is_postgres(self.db):
            # Two transactions changing one address's licences would each read the other's latest
            # end as it was before; SQLite serialises writers already.
            self.db.execute_sql("SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", ("user:" + key,))
        param = self.db.param
        (latest,) = self.db.execute_sql(
            f"SELECT MAX(ends_at) FROM licence WHERE email_key = {param}", (key,)
        ).fetchone()
        if latest is None:
            if self.db.execute_sql(f"DELETE FROM user_end WHERE email_key = {param}", (key,)).rowcount:
                self._add(-1)
            return
        # No row to update means the address is new, or a sweep took it (and took it off the tally).
        updated = self.db.execute_sql(
            f"UPDATE user_end SET ends_at = {param} WHERE email_key = {param}", (latest, key)
        ).rowcount
        if not updated:
            self.db.execute_sql(
                f"INSERT INTO user_end (email_key, ends_at) VALUES ({param}, {param})", (key, latest)
            )
            self._add(1)

    def insert_counted(self, insert: str, values: Sequence[Any]) -> bool:
        """Run ``insert``, an INSERT of one licence that may insert nothing and returns the
        inserted row's ``email_key, ends_at``, and count what it inserted; True if it did."""
        if is_postgres(self.db):
            # One statement: the address's latest end can only move later, so no read of its
            # licences is needed. The advisory lock orders it with `address_changed`; the
            # upsert orders it with other sign-ups and with a sweep taking the row. A row inserted
            # (xmax 0) is a new user on the tally; one updated was counted already.
            (inserted,) = self.db.execute_sql(
                f"WITH inserted AS ({insert}),"
                " locked AS (SELECT email_key, ends_at,"
                " pg_advisory_xact_lock(hashtextextended('user:' || email_key, 1)) FROM inserted),"
                " ended AS (INSERT INTO user_end (email_key, ends_at) SELECT email_key, ends_at FROM locked"
                " ON CONFLICT (email_key)"
                " DO UPDATE SET ends_at = GREATEST(user_end.ends_at, excluded.ends_at)"
                " RETURNING xmax = 0 AS fresh),"
                " counted AS (INSERT INTO user_tally (stripe, users) SELECT %s, 1 FROM ended WHERE fresh"
                " ON CONFLICT (stripe) DO UPDATE SET users = user_tally.users + excluded.users)"
                " SELECT COUNT(*) FROM inserted",
                (*values, random.randrange(STRIPES)),
            ).fetchone()
            return bool(inserted)
        # SQLite runs in-process: the general way costs no round trip.
        row = self.db.execute_sql(insert, values).fetchone()
        if row is None:
            return False
        self.address_changed(row[0])
        return True

    def sweep(self, now: datetime) -> None:
        """Forget the addresses whose latest licence has ended."""
        ends = self.models.UserEnd
        ended = ends.ends_at <= to_db(now)
        # Every process sweeps every second; most seconds nothing has ended, and a read is all
        # that costs (on SQLite a write transaction would take the database's one write lock).
        if not ends.select(ends.email_key).where(ended).exists():
            return
        with self.db.atomic():
            gone = ends.delete().where(ended).execute()
            if gone:
                self._add(-gone)

    def _add(self, users: int) -> None:
        self.db.execute_sql(
            f"INSERT INTO user_tally (stripe, users) VALUES ({self.db.param}, {self.db.param}) "
            "ON CONFLICT (stripe) DO UPDATE SET users = user_tally.users + excluded.users",
            (random.randrange(STRIPES), users),
        )
