"""Devices and "am I protected?": a licence's live sessions, ended on its owner's word, and whether
a visitor's address is the exit address of an online VPN server."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from vpnsite.devices import DeviceList, devices_at_once
from vpnsite_adapters.http.api import caller_ip, json_body, personal, services
from vpnsite_adapters.http.connection_answer import answer_json, server_json
from vpnsite_adapters.http.schemas import CheckLicense, DisconnectDevices, FieldError, InvalidBody

devices_api = Blueprint("devices_api", __name__)


def devices_json(listing: DeviceList) -> dict[str, Any]:
    known = {view.server.location.id: view.server for view in services().snapshot.views}
    devices = []
    for session in listing.sessions:
        server = known.get(session.server_id)
        devices.append(
            {
                "session": session.id,
                "server": server_json(server) if server is not None else {"id": session.server_id},
                "protocol": session.protocol,
                "since": int(session.started_at.timestamp()),
            }
        )
    limit = devices_at_once(services().snapshot.servers, listing.limit)
    return {"success": True, "in_use": listing.servers_in_use, "limit": limit, "devices": devices}


@devices_api.post("/api/devices")
def devices() -> Response:
    body: CheckLicense = json_body(CheckLicense)
    listing = services().devices.list(body.email, body.activation_code, caller_ip())
    return personal(jsonify(devices_json(listing)))


@devices_api.post("/api/devices/disconnect")
def disconnect() -> Response:
    body: DisconnectDevices = json_body(DisconnectDevices)
    if not body.all and not body.session:
        raise InvalidBody([FieldError(("body", "session"), "missing", {})])
    session = None if body.all else body.session
    listing = services().devices.disconnect(body.email, body.activation_code, caller_ip(), session)
    return personal(jsonify(devices_json(listing)))


@devices_api.get("/api/connection-check")
def connection_check() -> Response:
    """Compared in memory with the exit addresses of the servers online at the last snapshot; the
    visitor's address is neither stored, logged nor sent back."""
    response = jsonify(answer_json(services().snapshot.exits.server_of(caller_ip())))
    response.headers["Cache-Control"] = "no-store"
    return response
