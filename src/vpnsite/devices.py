"""A licence's devices as its owner sees them: the sessions that take a place (server, protocol,
since when — never an address), and ending one or all of them. The owner proves the licence with
the e-mail and activation code, under the licence check's own rate limits."""

from __future__ import annotations

from attrs import frozen

from vpnsite.errors import SessionNotFound
from vpnsite.fleet import silent_since
from vpnsite.licence_checks import LicenceChecks
from vpnsite.licences import Licence
from vpnsite.ports import Clock
from vpnsite.vpn_access import MAX_SESSIONS, UNCONFIRMED_FOR, Session, SessionStore


def devices_at_once(servers: int, limit: int = MAX_SESSIONS) -> int:
    """How many devices a licence can connect at once: one per server, at most ``limit``; as many
    as the fleet has servers when it has fewer (0: the fleet is not known yet, the limit stands)."""
    return servers if 0 < servers < limit else limit


@frozen
class DeviceList:
    licence: Licence
    sessions: list[Session]
    limit: int = MAX_SESSIONS

    @property
    def servers_in_use(self) -> int:
        """The limit counts servers: one session per server, ten servers in all."""
        return len({session.server_id for session in self.sessions})


@frozen
class Devices:
    checks: LicenceChecks
    sessions: SessionStore
    clock: Clock

    def list(
        self,
        email: str,
        typed_code: str,
        ip: str | None,
        visitor_id: str | None = None,
        device_cookie: str | None = None,
    ) -> DeviceList:
        licence, _ = self.checks.authenticate(email, typed_code, ip, visitor_id, device_cookie)
        return self.of(licence)

    def disconnect(
        self,
        email: str,
        typed_code: str,
        ip: str | None,
        session_id: str | None,
        visitor_id: str | None = None,
        device_cookie: str | None = None,
    ) -> DeviceList:
        """End one session of the licence (``session_id``), or all of them (None). Its place is
        free at once; its server cuts the connection when it next reports."""
        licence, _ = self.checks.authenticate(email, typed_code, ip, visitor_id, device_cookie)
        if session_id is None:
            self.sessions.mark_ending(licence.id, None)
        elif not self.sessions.mark_ending(licence.id, [session_id]):
            raise SessionNotFound()
        return self.of(licence)

    def of(self, licence: Licence) -> DeviceList:
        """The devices of a licence already proven its owner's (``LicenceChecks.authenticate``)."""
        now = self.clock.now()
        held = self.sessions.sessions_of(licence.id, now - UNCONFIRMED_FOR, silent_since(now))
        return DeviceList(licence, sorted(held, key=lambda session: (session.started_at, session.server_id)))
