"""VPN sessions: one row per licence and server while a device is connected or connecting."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import peewee
from attrs import frozen

from vpnsite.licences import Licence
from vpnsite.vpn_access import Session
from vpnsite_adapters.sql.database import from_db, is_postgres, to_db
from vpnsite_adapters.sql.licences import licences_by_id
from vpnsite_adapters.sql.models import Models

# The class of the advisory locks that take a licence's admissions one at a time (the migrations'
# lock has a single key, so it never collides with these).
_LICENCE_ADMISSIONS = 7253902


def _session(row: Any) -> Session:
    return Session(
        row.licence_id,
        row.server_id,
        from_db(row.started_at),
        row.session_id,
        row.confirmed,
        row.protocol,
        row.ending,
    )


@frozen
class SqlSessionStore:
    db: peewee.Database
    models: Models

    def sessions_of(
        self, licence_id: str, unconfirmed_since: datetime, heard_since: datetime
    ) -> list[Session]:
        sessions, servers = self.models.VpnSession, self.models.VpnServer
        fresh = sessions.confirmed | (sessions.started_at > to_db(unconfirmed_since))
        # Each of the licence's few sessions looks its server up by key: a login's cost does not
        # grow with the fleet (a subquery of the servers heard lately read them all).
        rows = (
            sessions.select(sessions)
            .join(servers, on=servers.id == sessions.server_id)
            .where(
                (sessions.licence_id == licence_id)
                & fresh
                & ~sessions.ending
                & (servers.last_seen >= to_db(heard_since))
            )
        )
        return [_session(row) for row in rows]

    def sessions_on(self, server_id: str) -> list[Session]:
        # Written out: every heartbeat reads its server's hundreds of sessions.
        rows = self.db.execute_sql(
            "SELECT licence_id, server_id, started_at, session_id, confirmed, protocol, ending"
            f" FROM vpn_session WHERE server_id = {self.db.param}",
            (server_id,),
        ).fetchall()
        return [
            Session(licence, server, from_db(started), session, bool(confirmed), protocol, bool(ending))
            for licence, server, started, session, confirmed, protocol, ending in rows
        ]

    def lock_licence(self, licence_id: str) -> None:
        # SQLite needs nothing more: the transaction began IMMEDIATE (database.py), which already
        # holds every other writer off. On PostgreSQL an advisory lock, gone with the transaction:
        # nothing is written to the licence's row, and erasure (which deletes a licence's sessions
        # before it updates the licence) cannot deadlock with a login.
        if is_postgres(self.db):
            self.db.execute_sql(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_LICENCE_ADMISSIONS, licence_id)
            )

    def hold(self, session: Session) -> None:
        sessions = self.models.VpnSession
        values = {
            sessions.started_at: to_db(session.started_at),
            sessions.confirmed: session.confirmed,
            sessions.session_id: session.id,
            sessions.protocol: session.protocol,
            sessions.ending: session.ending,
        }
        sessions.insert(
            {sessions.licence_id: session.licence_id, sessions.server_id: session.server_id, **values}
        ).on_conflict(conflict_target=[sessions.licence_id, sessions.server_id], update=values).execute()

    def mark_ending(self, licence_id: str, session_ids: Sequence[str] | None) -> int:
        sessions = self.models.VpnSession
        mine = (sessions.licence_id == licence_id) & ~sessions.ending
        if session_ids is not None:
            if not session_ids:
                return 0
            mine &= sessions.session_id.in_(list(session_ids))
        return int(sessions.update(ending=True).where(mine).execute())

    def confirm(self, server_id: str, session_id: str, fresh_since: datetime) -> bool:
        sessions = self.models.VpnSession
        holding = sessions.confirmed | (sessions.started_at > to_db(fresh_since))
        query = sessions.update(confirmed=True).where(
            (sessions.server_id == server_id) & (sessions.session_id == session_id) & holding
        )
        return bool(query.execute())

    def release(self, server_id: str, session_ids: Sequence[str]) -> int:
        sessions = self.models.VpnSession
        if not session_ids:
            return 0
        query = sessions.delete().where(
            (sessions.server_id == server_id) & sessions.session_id.in_(list(session_ids))
        )
        return int(query.execute())

    def licences_by_id(self, licence_ids: Sequence[str]) -> dict[str, Licence]:
        return licences_by_id(self.db, licence_ids)
