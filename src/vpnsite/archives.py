"""The personal archive: what is in it, and its link — signed, bound to one licence, and good for a
week. Nothing is stored for the link; a download checks the signature, the week and the licence
as it is then."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from datetime import UTC, datetime, timedelta
from typing import Protocol

from attrs import frozen

from vpnsite.errors import LicenceNotFound, ProfileNotFound
from vpnsite.fleet import VpnServer
from vpnsite.keyed_hashes import Keyring
from vpnsite.licences import Licence
from vpnsite.ports import Clock
from vpnsite.protocols import WIREGUARD, offering, offers_wireguard, protocol_port
from vpnsite.rate_limits import ARCHIVE, QR_CODE, Limiter
from vpnsite.tunnel_addresses import TunnelAddressStore, tunnel_address

LINK_LIFETIME = timedelta(days=7)

_ID_BYTES = 16  # licence ids are 32 hex digits
_EXPIRY_BYTES = 5  # seconds since the epoch: enough for 34,000 years
_MAC_BYTES = 16


@frozen
class ArchiveLinks:
    """Signed by the ring's current key; a link signed by any key of the ring opens."""

    keys: Keyring

    def mint(self, licence_id: str, now: datetime) -> str:
        """A link token for ``licence_id`` that stops working ``LINK_LIFETIME`` from ``now``."""
        expires = int((now + LINK_LIFETIME).timestamp())
        body = bytes.fromhex(licence_id) + expires.to_bytes(_EXPIRY_BYTES, "big")
        return (
            base64.urlsafe_b64encode(body + _mac(self.keys.current.archive_links, body)).decode().rstrip("=")
        )

    def read(self, token: str, now: datetime) -> str | None:
        """The licence id of a genuine token that has not expired; None for anything else."""
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        except (binascii.Error, ValueError):
            return None
        if len(raw) != _ID_BYTES + _EXPIRY_BYTES + _MAC_BYTES:
            return None
        body, mac = raw[:-_MAC_BYTES], raw[-_MAC_BYTES:]
        if not any(
            hmac.compare_digest(mac, _mac(keys.archive_links, body)) for keys in self.keys.read().sets
        ):
            return None
        expires = datetime.fromtimestamp(int.from_bytes(body[_ID_BYTES:], "big"), UTC)
        return body[:_ID_BYTES].hex() if now < expires else None


def _mac(key: bytes, body: bytes) -> bytes:
    return hmac.new(key, body, hashlib.sha256).digest()[:_MAC_BYTES]


class LicenceById(Protocol):
    def find_by_id(self, licence_id: str) -> Licence | None: ...


class ServerList(Protocol):
    def list_servers(self) -> list[VpnServer]: ...


@frozen
class ProfileDownload:
    """One profile behind a personal link: the licence, the server, the protocol (``udp``,
    ``tcp`` or ``wireguard``), the port the server takes it on and, for WireGuard, the licence's
    tunnel address there."""

    licence: Licence
    server: VpnServer
    kind: str
    port: int
    tunnel_address: str | None = None


@frozen
class Archive:
    """What goes into one licence's archive: a profile per server (OpenVPN where the server has
    a port for it) and, on servers that offer WireGuard, the licence's tunnel address there."""

    licence: Licence
    servers: list[VpnServer]
    tunnel_addresses: dict[str, str]


@frozen
class Archives:
    links: ArchiveLinks
    licences: LicenceById
    fleet: ServerList
    tunnels: TunnelAddressStore
    limiter: Limiter
    clock: Clock

    def open(self, token: str, ip: str | None) -> Archive:
        """The archive ``token`` opens: a genuine link younger than a week, of a licence that is
        live and not erased."""
        licence = self._licence(token, ip)
        servers = self.fleet.list_servers()
        addresses = {
            server.location.id: tunnel_address(self.tunnels, licence.id, server.location.id)
            for server in servers
            if offers_wireguard(server)
        }
        return Archive(licence, servers, addresses)

    def open_profile(self, token: str, ip: str | None, server_id: str, kind: str) -> ProfileDownload:
        """One profile of the archive the same link opens, under the same rules and limits."""
        licence = self._licence(token, ip)
        server = offering(self.fleet.list_servers(), server_id, kind)
        port = None if server is None else protocol_port(server, kind)
        if server is None or port is None:
            raise ProfileNotFound()
        if kind != WIREGUARD:
            return ProfileDownload(licence, server, kind, port)
        return ProfileDownload(
            licence, server, kind, port, tunnel_address(self.tunnels, licence.id, server_id)
        )

    def licence_of(self, token: str, ip: str | None) -> Licence:
        """The licence a personal link opens (the licence e-mail's link for a phone), under the
        archive's rules and limits."""
        return self._licence(token, ip)

    def check_qr_link(self, token: str, ip: str | None) -> None:
        """Refuse a link that is not genuine or has expired (without looking the licence up), and
        more QR codes from one address than its limit allows: each is drawn afresh."""
        now = self.clock.now()
        self.limiter.admit(QR_CODE, {"ip": ip}, now)
        if self.links.read(token, now) is None:
            raise LicenceNotFound()

    def _licence(self, token: str, ip: str | None) -> Licence:
        now = self.clock.now()
        self.limiter.admit(ARCHIVE, {"ip": ip}, now)
        licence_id = self.links.read(token, now)
        licence = self.licences.find_by_id(licence_id) if licence_id else None
        if licence is None or not licence.email or not licence.is_live(now):
            raise LicenceNotFound()
        return licence
