"""The personal archive behind activation_url / configUrl: a zip of OpenVPN profiles."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request

from vpnsite_adapters.http.client_ip import client_ip
from vpnsite_adapters.http.errors import error_response
from vpnsite_adapters.services import Services
from vpnsite_adapters.vpn import wireguard
from vpnsite_adapters.vpn.profiles import archive, client_profile, endpoints

archive_api = Blueprint("archive_api", __name__)
# Where the app keeps its website, when it has one (http/app.py).
SITE = "vpnsite.site"


@archive_api.get("/api/config/<token>")
def personal_archive(token: str) -> Response:
    services: Services = current_app.extensions["vpnsite"]
    opened = services.archives.open(token, client_ip(request.environ, services.settings.trusted_proxies))
    if services.vpn_keys is None:
        return error_response(503, "unavailable")
    vpn, licence, servers = services.vpn_keys, opened.licence, opened.servers
    ca = vpn.ca.certificate_pem().decode()
    key = vpn.client_key_pem(licence.id)
    found = endpoints(
        servers,
        {s.location.id: s.udp_port for s in servers},
        {s.location.id: s.tcp_port for s in servers},
    )
    profiles = {endpoint.file_name: client_profile(endpoint, ca, key) for endpoint in found}
    for server in servers:
        address = opened.tunnel_addresses.get(server.location.id)
        if address is not None:
            private, _ = wireguard.client_key(vpn.wireguard_secret, licence.id, server.location.id)
            profiles[f"wireguard/{server.location.id}.conf"] = wireguard.client_config(
                server, private, address
            )
    # The device limit in the words the site says it for the same fleet (http/pages/device_rows.py).
    site = current_app.extensions.get(SITE)
    rule = None if site is None else site.device_rows.limit_texts(licence.language, services.snapshot.servers)
    body = archive(profiles, licence.language, None if rule is None else rule["DEVICE_RULE"])
    response = Response(body, mimetype="application/zip")
    response.headers["Content-Disposition"] = 'attachment; filename="vpnsite-profiles.zip"'
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
