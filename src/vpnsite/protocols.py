"""The VPN protocols a server can offer: OpenVPN over UDP and over TCP, and WireGuard; which of
them a server offers (a port for each, and for WireGuard a key and a node that can run it), and
the port it takes each on. One list, read by the profiles, the devices, the logins and the
contract."""

from __future__ import annotations

from collections.abc import Iterable

from vpnsite.fleet import VpnServer


def offers_wireguard(server: VpnServer) -> bool:
    """A server with a WireGuard key and port, unless its node said it cannot run WireGuard."""
    return bool(server.wg_port and server.wg_public_key and server.host and server.wg_running is not False)


OPENVPN_PROTOCOLS = ("udp", "tcp")
WIREGUARD = "wireguard"


def protocol_port(server: VpnServer, protocol: str) -> int | None:
    """The port a server takes ``protocol`` on (OpenVPN's ``udp`` or ``tcp``, or WireGuard);
    None where it has none."""
    return {"udp": server.udp_port, "tcp": server.tcp_port, WIREGUARD: server.wg_port}.get(protocol)


def profile_kinds(server: VpnServer) -> list[str]:
    """The profiles a server offers: OpenVPN over each protocol it has a port for, and WireGuard."""
    if not server.host:
        return []
    kinds = [protocol for protocol in OPENVPN_PROTOCOLS if protocol_port(server, protocol)]
    return kinds + ([WIREGUARD] if offers_wireguard(server) else [])


def offering(servers: Iterable[VpnServer], server_id: str, kind: str) -> VpnServer | None:
    """The server ``server_id`` if it offers the profile ``kind``; None if it does not, or is not
    among ``servers``."""
    server = next((server for server in servers if server.location.id == server_id), None)
    return server if server is not None and kind in profile_kinds(server) else None
