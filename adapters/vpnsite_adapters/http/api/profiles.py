"""One profile behind a personal link (an OpenVPN `.ovpn`, or WireGuard's `.conf`), and QR codes
of those links, drawn here (segno) so nothing personal leaves for another service."""

from __future__ import annotations

import io
import re

import segno
from flask import Blueprint, Response

from vpnsite.errors import ProfileNotFound
from vpnsite.protocols import OPENVPN_PROTOCOLS, WIREGUARD, offering
from vpnsite_adapters.http.context import caller_ip, personal, services
from vpnsite_adapters.http.errors import error_response
from vpnsite_adapters.http.profile_links import openvpn_file
from vpnsite_adapters.texts.links import profile_url
from vpnsite_adapters.vpn import wireguard
from vpnsite_adapters.vpn.profiles import Endpoint, client_profile

profile_api = Blueprint("profile_api", __name__)

# The content type OpenVPN Connect registers for profiles on iOS and Android.
OVPN_TYPE = "application/x-openvpn-profile"
_PROTOCOLS = "|".join(OPENVPN_PROTOCOLS)
# Server ids as the operator names them; ASCII, as they go into a Content-Disposition header.
_SERVER = r"(?P<server>[A-Za-z0-9_.-]{1,64})"
_OPENVPN_FILE = re.compile(rf"{_SERVER}-(?P<kind>{_PROTOCOLS})\.ovpn")
_WIREGUARD_FILE = re.compile(rf"{_SERVER}\.conf")
_QR_IMAGE = re.compile(rf"{_SERVER}-(?P<kind>{_PROTOCOLS})\.(?P<format>svg|png)")
QR_SCALE = 4
# An image: nothing in it may load or run anything.
QR_CSP = "default-src 'none'; frame-ancestors 'none'"


def _download(body: str, mimetype: str, file_name: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{file_name}"'
    return personal(response)


def _wanted(file_name: str) -> tuple[str, str]:
    """(server id, protocol) of a profile's file name; ProfileNotFound for any other name."""
    if found := _OPENVPN_FILE.fullmatch(file_name):
        return found["server"], found["kind"]
    if found := _WIREGUARD_FILE.fullmatch(file_name):
        return found["server"], WIREGUARD
    raise ProfileNotFound()


@profile_api.get("/api/profile/<token>/<file_name>")
def profile(token: str, file_name: str) -> Response:
    server_id, kind = _wanted(file_name)
    download = services().archives.open_profile(token, caller_ip(), server_id, kind)
    vpn = services().vpn_keys
    if vpn is None:
        return error_response(503, "unavailable")
    server, licence = download.server, download.licence
    if download.tunnel_address is not None:
        private, _ = wireguard.client_key(vpn.wireguard_secret, licence.id, server_id)
        body = wireguard.client_config(server, private, download.tunnel_address)
        return _download(body, "text/plain", file_name)
    endpoint = Endpoint(server, kind, download.port)
    body = client_profile(endpoint, vpn.ca.certificate_pem().decode(), vpn.client_key_pem(licence.id))
    return _download(body, OVPN_TYPE, file_name)


@profile_api.get("/api/profile-qr/<token>/<image_name>")
def profile_qr(token: str, image_name: str) -> Response:
    """A QR code holding the profile's link, for a phone's camera. The link's signature and week
    are checked (no one draws codes of made-up links here), under a limit of its own per address;
    the licence is checked when the phone opens the link, under the archive's limits."""
    found = _QR_IMAGE.fullmatch(image_name)
    if found is None:
        raise ProfileNotFound()
    services().archives.check_qr_link(token, caller_ip())
    server_id, kind = found["server"], found["kind"]
    if offering((view.server for view in services().snapshot.views), server_id, kind) is None:
        raise ProfileNotFound()
    link = profile_url(services().settings.origin, token, openvpn_file(server_id, kind))
    code = segno.make(link, error="m")
    image = io.BytesIO()
    if found["format"] == "svg":
        code.save(image, kind="svg", scale=QR_SCALE, xmldecl=False, svgns=True, title=None)
        response = Response(image.getvalue(), mimetype="image/svg+xml")
    else:
        code.save(image, kind="png", scale=QR_SCALE)
        response = Response(image.getvalue(), mimetype="image/png")
    response.headers["Content-Security-Policy"] = QR_CSP
    return personal(response)
