"""A licence's devices as its owner sees them: the sessions that take a place (server, protocol,
since when — never an address), and ending one or all of them. The owner proves the licence with
the e-mail and activation code, under the licence check's own rate limits.

A WireGuard app has no login and cannot be told to stop: a WireGuard device its owner disconnects
is held out of its server by the hub (``TunnelAddressStore.hold_out``) until its owner connects it
again here, or it would be back at its next handshake."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import Factory, frozen

from vpnsite.errors import SessionNotFound
from vpnsite.fleet import silent_since
from vpnsite.licence_checks import LicenceChecks
from vpnsite.licences import Licence
from vpnsite.ports import Clock
from vpnsite.protocols import WIREGUARD
from vpnsite.tunnel_addresses import TunnelAddressStore
from vpnsite.vpn_access import MAX_SESSIONS, UNCONFIRMED_FOR, Session, SessionStore


def devices_at_once(servers: int, limit: int = MAX_SESSIONS) -> int:
    """How many devices a licence can connect at once: one per server, at most ``limit``; as many
    as the fleet has servers when it has fewer (0: the fleet is not known yet, the limit stands)."""
    return servers if 0 < servers < limit else limit


def held_out_by(ending: Iterable[Session]) -> set[str]:
    """The servers whose WireGuard peers are held out when these sessions end: a WireGuard
    session's (an OpenVPN app is told by its server, and may log in again)."""
    return {session.server_id for session in ending if session.protocol == WIREGUARD}


@frozen
class DeviceList:
    licence: Licence
    sessions: list[Session]
    limit: int = MAX_SESSIONS
    # The servers the licence's WireGuard devices are held out of, until their owner connects them.
    held_out: list[str] = Factory(list)

    @property
    def servers_in_use(self) -> int:
        """The limit counts servers: one session per server, ten servers in all."""
        return len({session.server_id for session in self.sessions})


@frozen
class Devices:
    checks: LicenceChecks
    sessions: SessionStore
    tunnels: TunnelAddressStore
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
        free at once; its server cuts the connection when it next reports, and a WireGuard one
        stays out of its server until its owner connects it again (``connect_again``)."""
        licence, _ = self.checks.authenticate(email, typed_code, ip, visitor_id, device_cookie)
        held = self._held(licence)
        if session_id is None:
            self.sessions.mark_ending(licence.id, None)
        elif not self.sessions.mark_ending(licence.id, [session_id]):
            raise SessionNotFound()
        ending = [session for session in held if session_id in (None, session.id)]
        self.tunnels.hold_out(licence.id, held_out_by(ending))
        return self.of(licence)

    def connect_again(
        self,
        email: str,
        typed_code: str,
        ip: str | None,
        server_id: str,
        visitor_id: str | None = None,
        device_cookie: str | None = None,
    ) -> DeviceList:
        """Let the licence's WireGuard device back on ``server_id``: its server puts the peer back
        at its next sync, and the app connects at its next handshake. Nothing to do when it is not
        held out."""
        licence, _ = self.checks.authenticate(email, typed_code, ip, visitor_id, device_cookie)
        self.tunnels.let_in(licence.id, server_id)
        return self.of(licence)

    def of(self, licence: Licence) -> DeviceList:
        """The devices of a licence already proven its owner's (``LicenceChecks.authenticate``)."""
        held = sorted(self._held(licence), key=lambda session: (session.started_at, session.server_id))
        return DeviceList(licence, held, held_out=sorted(self.tunnels.held_out(licence.id)))

    def _held(self, licence: Licence) -> Sequence[Session]:
        now = self.clock.now()
        return self.sessions.sessions_of(licence.id, now - UNCONFIRMED_FOR, silent_since(now))
