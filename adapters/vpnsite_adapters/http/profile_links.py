"""The per-server profile links of a licence, as the create-user and licence-check answers give
them: built from the status snapshot in memory (names, flags, live load), under one personal
archive link."""

from __future__ import annotations

from collections.abc import Sequence

from vpnsite.fleet import ServerView, recommended
from vpnsite.protocols import OPENVPN_PROTOCOLS, WIREGUARD, profile_kinds
from vpnsite_adapters.jobs.status_snapshot import server_entry
from vpnsite_adapters.texts.links import openvpn_import_url, profile_qr_url, profile_url
from vpnsite_contract.website import OpenVpnProfile, ProfileServer, WireGuardProfile


def openvpn_file(server_id: str, protocol: str) -> str:
    return f"{server_id}-{protocol}.ovpn"


def wireguard_file(server_id: str) -> str:
    return f"{server_id}.conf"


def profile_list(origin: str, token: str, views: Sequence[ServerView]) -> list[ProfileServer]:
    """Per server that offers a profile: what the status page shows of it, a link per OpenVPN
    protocol (with OpenVPN Connect's import URL and QR codes), and the WireGuard link. The server
    recommended to a new device (``fleet.recommended``) comes first and says so."""
    best = recommended(views)
    listed = []
    for view in views:
        server_id = view.server.location.id
        kinds = profile_kinds(view.server)
        if not kinds:
            continue
        entry = server_entry(view)
        openvpn = []
        for protocol in kinds:
            if protocol not in OPENVPN_PROTOCOLS:
                continue
            url = profile_url(origin, token, openvpn_file(server_id, protocol))
            openvpn.append(
                OpenVpnProfile(
                    protocol=protocol,
                    url=url,
                    import_url=openvpn_import_url(url),
                    qr_svg=profile_qr_url(origin, token, f"{server_id}-{protocol}.svg"),
                    qr_png=profile_qr_url(origin, token, f"{server_id}-{protocol}.png"),
                )
            )
        wireguard = (
            WireGuardProfile(profile_url(origin, token, wireguard_file(server_id)))
            if WIREGUARD in kinds
            else None
        )
        listed.append(
            ProfileServer(
                id=entry.id,
                name=entry.name,
                flag=entry.flag,
                location=entry.location,
                status=entry.status,
                load=entry.load,
                recommended=view is best,
                openvpn=openvpn,
                wireguard=wireguard,
            )
        )
    return sorted(listed, key=lambda server: not server.recommended)
