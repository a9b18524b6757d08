"""Devices and "am I protected?": a licence's live sessions, ended on its owner's word (and its
WireGuard devices, held out until their owner connects them again), and whether a visitor's
address is the exit address of an online VPN server."""

from __future__ import annotations

from flask import Blueprint, Response

from vpnsite.devices import DeviceList as Listing
from vpnsite.devices import devices_at_once
from vpnsite_adapters.http.context import (
    caller_ip,
    device_cookie,
    personal,
    remember_device,
    services,
    visitor_id,
)
from vpnsite_adapters.http.described import Call, route
from vpnsite_adapters.http.pages.connection_answer import connection_check_answer, server_name
from vpnsite_adapters.http.wire import answer, json_body
from vpnsite_contract.structuring import FieldError, InvalidBody
from vpnsite_contract.website import (
    CheckLicense,
    ConnectAgain,
    ConnectionCheck,
    Device,
    DeviceList,
    DeviceServer,
    DisconnectDevices,
    HeldOutDevice,
)

devices_api = Blueprint("devices_api", __name__)


def device_list(listing: Listing) -> DeviceList:
    known = {view.server.location.id: view.server for view in services().snapshot.views}

    def shown(server_id: str) -> DeviceServer:
        server = known.get(server_id)
        if server is None:
            return DeviceServer(server_id)
        name = server_name(server)
        return DeviceServer(name.id, name.name, name.flag, name.location)

    devices = [
        Device(session.id, shown(session.server_id), session.protocol, int(session.started_at.timestamp()))
        for session in listing.sessions
    ]
    held_out = [HeldOutDevice(shown(server_id)) for server_id in listing.held_out]
    limit = devices_at_once(services().snapshot.servers, listing.limit)
    return DeviceList(in_use=listing.servers_in_use, limit=limit, devices=devices, held_out=held_out)


@route(
    devices_api,
    Call(
        "/api/devices",
        "The licence's connected devices (by e-mail and activation code)",
        DeviceList,
        CheckLicense,
        (404,),
    ),
)
def devices() -> Response:
    body = json_body(CheckLicense)
    listing = services().devices.list(
        body.email, body.activation_code, caller_ip(), visitor_id(), device_cookie()
    )
    return personal(remember_device(answer(device_list(listing)), body.email))


@route(
    devices_api,
    Call(
        "/api/devices/disconnect",
        "End one device's session, or all: the server cuts it within seconds",
        DeviceList,
        DisconnectDevices,
        (404,),
    ),
)
def disconnect() -> Response:
    body = json_body(DisconnectDevices)
    if not body.all and not body.session:
        raise InvalidBody([FieldError(("body", "session"), "missing", {})])
    session = None if body.all else body.session
    listing = services().devices.disconnect(
        body.email, body.activation_code, caller_ip(), session, visitor_id(), device_cookie()
    )
    return personal(remember_device(answer(device_list(listing)), body.email))


@route(
    devices_api,
    Call(
        "/api/devices/connect-again",
        "Let a disconnected WireGuard device back on its server: the server puts it back within seconds",
        DeviceList,
        ConnectAgain,
        (404,),
    ),
)
def connect_again() -> Response:
    body = json_body(ConnectAgain)
    listing = services().devices.connect_again(
        body.email, body.activation_code, caller_ip(), body.server, visitor_id(), device_cookie()
    )
    return personal(remember_device(answer(device_list(listing)), body.email))


@route(
    devices_api,
    Call(
        "/api/connection-check",
        "Does this request come from an online VPN server's exit address?",
        ConnectionCheck,
        method="get",
        answered="The answer (never cached)",
    ),
)
def connection_check() -> Response:
    """Compared in memory with the exit addresses of the servers online at the last snapshot; the
    visitor's address is neither stored, logged nor sent back."""
    response = answer(connection_check_answer(services().snapshot.exits.server_of(caller_ip())))
    response.headers["Cache-Control"] = "no-store"
    return response
