"""Putting a VPN server into service: the hub records it with its ports and exit addresses, issues
the token it calls the hub with, and the credentials it serves clients with (a WireGuard key where
it offers WireGuard, and its certificate)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from attrs import field, frozen

from vpnsite.fleet import Location, exit_addresses
from vpnsite.keyed_hashes import Keyring
from vpnsite.ports import RandomSource, UnitOfWork
from vpnsite.server_tokens import ServerTokens, issue_server_token


def _ports(port: int | None) -> int | None:
    """0 (the operator's "none") and no port are the same: the server does not take it."""
    return port or None


@frozen
class NewServer:
    """A server as its operator describes it; its exit addresses are checked (and written
    canonically) as it is made, so an invalid one stops the registration before anything else."""

    location: Location
    host: str
    udp_port: int | None = field(converter=_ports)
    tcp_port: int | None = field(converter=_ports)
    wg_port: int | None = field(converter=_ports)
    exit_addresses: tuple[str, ...] = field(converter=exit_addresses, default=())


class ServerRegistry(ServerTokens, Protocol):
    def add_server(self, location: Location, host: str, udp_port: int | None, tcp_port: int | None) -> bool:
        """Register a VPN server; False if one of that name exists."""
        ...

    def configure_exit_addresses(self, server_id: str, addresses: Sequence[str]) -> None: ...

    def set_wireguard(self, server_id: str, port: int, public_key: str) -> None: ...


class ServerCredentials(Protocol):
    """What a server serves its clients with, made and kept where its directory is written from
    (``vpn server-config``); the hub's database holds none of it."""

    def new_wireguard_key(self, server_id: str) -> str:
        """A new WireGuard key pair for the server, its private half kept; the public half."""
        ...

    def issue_certificate(self, server_id: str) -> None:
        """A new key and certificate for the server, signed by the VPN's certificate authority."""
        ...


@frozen
class ServerRegistration:
    store: ServerRegistry
    credentials: ServerCredentials
    keys: Keyring
    random: RandomSource
    unit_of_work: UnitOfWork

    def register(self, server: NewServer) -> str | None:
        """The server's token (shown once: only its keyed hash is kept), or None when a server of
        that name exists (and nothing is changed). The server, its token, exit addresses and
        WireGuard key are recorded together; its certificate is issued once they are."""
        server_id = server.location.id
        with self.unit_of_work.atomic():
            if not self.store.add_server(server.location, server.host, server.udp_port, server.tcp_port):
                return None
            token = issue_server_token(self.store, server_id, self.keys, self.random)
            assert token is not None  # the server was just added
            self.store.configure_exit_addresses(server_id, server.exit_addresses)
            if server.wg_port:
                self.store.set_wireguard(
                    server_id, server.wg_port, self.credentials.new_wireguard_key(server_id)
                )
        self.credentials.issue_certificate(server_id)
        return token
