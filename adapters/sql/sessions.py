"""VPN sessions: one row per licence and server while a device is connected."""

from __future__ import annotations

from datetime import datetime, timedelta
from types import SimpleNamespace

import peewee
from attrs import frozen

from vpnsite.fleet import HEARTBEAT_PERIOD, MISSED_BEATS_OFFLINE
from vpnsite.vpn_access import Session
from vpnsite_adapters.sql.database import from_db, to_db

# A login that passed holds its place this long for the connect hook to confirm it.
UNCONFIRMED_FOR = timedelta(seconds=60)


@frozen
class SqlSessionStore:
    db: peewee.Database
    models: SimpleNamespace

    def server_for_token(self, token_hash: str) -> str | None:
        servers = self.models.VpnServer
        row = servers.select(servers.id).where(servers.token_hash == token_hash).first()
        return None if row is None else str(row.id)

    def _live(self, now: datetime) -> peewee.Expression:
        sessions, servers = self.models.VpnSession, self.models.VpnServer
        # Sessions of a server that stopped sending heartbeats do not count: the device is gone.
        silent_since = to_db(now - HEARTBEAT_PERIOD * MISSED_BEATS_OFFLINE)
        heard = servers.select(servers.id).where(servers.last_seen >= silent_since)
        fresh = sessions.confirmed | (sessions.started_at >= to_db(now - UNCONFIRMED_FOR))
        return fresh & sessions.server_id.in_(heard)

    def sessions_of(self, licence_id: str, now: datetime) -> list[Session]:
        sessions = self.models.VpnSession
        rows = sessions.select().where((sessions.licence_id == licence_id) & self._live(now))
        return [Session(row.licence_id, row.server_id, from_db(row.started_at)) for row in rows]

    def reserve(self, session: Session) -> bool:
        sessions = self.models.VpnSession
        with self.db.atomic():
            existing = sessions.get_or_none(
                (sessions.licence_id == session.licence_id) & (sessions.server_id == session.server_id)
            )
            if existing is not None and existing.confirmed:
                return False
            sessions.insert(
                licence_id=session.licence_id,
                server_id=session.server_id,
                started_at=to_db(session.started_at),
                confirmed=False,
            ).on_conflict(
                conflict_target=[sessions.licence_id, sessions.server_id],
                update={sessions.started_at: to_db(session.started_at), sessions.confirmed: False},
            ).execute()
        return True

    def _of_address(self, email_key: str, server_id: str) -> peewee.Expression:
        sessions, licences = self.models.VpnSession, self.models.Licence
        ids = licences.select(licences.id).where(licences.email_key == email_key)
        return (sessions.server_id == server_id) & sessions.licence_id.in_(ids)

    def confirm(self, email_key: str, server_id: str) -> int:
        sessions = self.models.VpnSession
        return int(sessions.update(confirmed=True).where(self._of_address(email_key, server_id)).execute())

    def release(self, email_key: str, server_id: str) -> int:
        sessions = self.models.VpnSession
        return int(sessions.delete().where(self._of_address(email_key, server_id)).execute())

    def drop_licence_sessions(self, licence_ids: list[str]) -> int:
        sessions = self.models.VpnSession
        return (
            int(sessions.delete().where(sessions.licence_id.in_(licence_ids)).execute()) if licence_ids else 0
        )
