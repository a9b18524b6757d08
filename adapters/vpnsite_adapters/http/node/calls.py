"""The calls VPN servers make to the hub, authenticated by each server's own token."""

from __future__ import annotations

import math
from collections.abc import Callable

from flask import Blueprint, Response, current_app, request

from vpnsite.errors import NodeUnauthorized
from vpnsite.fleet import Heartbeat
from vpnsite.vpn_access import Admission
from vpnsite_adapters.http.context import caller_ip, services
from vpnsite_adapters.http.described import Call, route
from vpnsite_adapters.http.errors import domain_error_response
from vpnsite_adapters.http.node.gate import HEARTBEAT_BODY_BYTES, NodeGate, bearer
from vpnsite_adapters.http.wire import answer, json_body
from vpnsite_adapters.vpn import wireguard
from vpnsite_contract.node_calls import (
    HeartbeatBody,
    HeartbeatResult,
    NodeLogin,
    NodeLoginResult,
    NodeResume,
    NodeSession,
    NodeSessionResult,
    WireGuardPeer,
    WireGuardPeers,
)

node_api = Blueprint("node_api", __name__)
GATE = "vpnsite.node_gate"


def gate() -> NodeGate:
    return current_app.extensions[GATE]  # type: ignore[no-any-return]


def calling_server() -> str:
    """The server the caller's token is, asked of the database once per call and before anything
    the caller sent is parsed (the listener's tokens may be up to ``node_gate.RELOAD_SECONDS``
    old); a token the listener had not seen may send a heartbeat's size from now on."""
    token = bearer(request.headers.get("Authorization", ""))
    server = services().server_authentication.server(token)
    if not gate().knows(token):
        gate().learn(token)
    return server


@node_api.errorhandler(NodeUnauthorized)
def unauthorized(error: NodeUnauthorized) -> Response:
    """A token refused counts against its caller's address (the listener turns a caller away that
    keeps failing), and is no longer let send a heartbeat's size."""
    gate().failed(caller_ip())
    token = bearer(request.headers.get("Authorization", ""))
    if token:
        gate().forget(token)
    return domain_error_response(error)


@route(
    node_api,
    Call(
        "/api/node/heartbeat",
        "A VPN server reports its health",
        HeartbeatResult,
        HeartbeatBody,
        answered="Stored",
        node=True,
    ),
)
def heartbeat() -> Response:
    server = calling_server()
    body = json_body(HeartbeatBody, limit=HEARTBEAT_BODY_BYTES)
    exits = None if body.exit_addresses is None else tuple(body.exit_addresses)
    beat = Heartbeat(
        body.cpu_load, body.bandwidth_mbps, body.sessions, body.service_up, exits, body.wireguard
    )
    connections = body.connections
    held = None if connections is None else {c.session: c.licence for c in connections}
    protocols = {c.session: c.protocol for c in connections or ()}
    report = services().node_access.report(server, beat, held, protocols, caller_ip())
    return answer(HeartbeatResult(server=report.server_id, end=report.end))


@route(
    node_api,
    Call(
        "/api/node/resume",
        "May a connection OpenVPN let in by an earlier login's session token use the calling server?",
        NodeLoginResult,
        NodeResume,
        answered="Admitted (403 with a reason when refused; in_use_here: the licence is connected here)",
        node=True,
    ),
)
def resume() -> Response:
    """A connection the server's OpenVPN let in by the session token of an earlier login (after
    a restart): admitted as a login, unless the licence is connected to this server already."""
    server = calling_server()
    body = json_body(NodeResume)
    return admission_answer(services().node_access.resume(server, body.username, body.protocol))


@route(
    node_api,
    Call(
        "/api/node/login",
        "May this e-mail and activation code use the calling server?",
        NodeLoginResult,
        NodeLogin,
        answered="Admitted (403 with a reason when refused; rate_limited says when to try again)",
        node=True,
    ),
)
def login() -> Response:
    """May this e-mail and activation code use the calling server? Admitted, the answer names the
    session the server reports as established and ended."""
    metrics = services().metrics
    try:
        server = calling_server()
    except NodeUnauthorized:
        metrics.node_logins.labels("bad_token").inc()
        raise
    body = json_body(NodeLogin)
    # OpenVPN's username and password: the e-mail and the activation code the app was given.
    admission = services().node_access.log_in(server, body.username, body.password or "", body.protocol)
    metrics.node_login(admission.refused)
    return admission_answer(admission)


def admission_answer(admission: Admission) -> Response:
    """Admitted: the session the server reports as established and ended. Refused: 403 with the
    reason; too many wrong codes for the address lately also says for how long (a node that does
    not know this reason reads it as no decision, and tells the app to try again all the same)."""
    if admission.retry_after is not None:
        seconds = max(1, math.ceil(admission.retry_after.total_seconds()))
        refused = answer(
            NodeLoginResult(admitted=False, reason="rate_limited", retry_after=seconds), status=403
        )
        refused.headers["Retry-After"] = str(seconds)
        return refused
    if admission.refused:
        return answer(NodeLoginResult(admitted=False, reason=admission.refused), status=403)
    return answer(NodeLoginResult(admitted=True, session=admission.session_id, licence=admission.licence_id))


@route(
    node_api,
    Call(
        "/api/node/established",
        "The admitted client is connected",
        NodeSessionResult,
        NodeSession,
        answered="Noted",
        node=True,
    ),
)
def established() -> Response:
    return session_call(services().node_access.established)


@route(
    node_api,
    Call(
        "/api/node/ended",
        "The client left",
        NodeSessionResult,
        NodeSession,
        answered="Its place is free",
        node=True,
    ),
)
def ended() -> Response:
    return session_call(services().node_access.ended)


def session_call(change: Callable[[str, str], bool]) -> Response:
    """A session of the calling server connected or ended: whether the hub knew it."""
    server = calling_server()
    body = json_body(NodeSession)
    return answer(NodeSessionResult(known=change(server, body.session)))


@route(
    node_api,
    Call(
        "/api/node/wireguard-peers",
        "The calling server's WireGuard peers (experimental): the live licences, their keys and addresses",
        WireGuardPeers,
        method="get",
        answered="The peers",
        node=True,
    ),
)
def wireguard_peers() -> Response:
    """The calling server's WireGuard peers: the live licences that have a tunnel address there.
    Ended licences drop out, and the agent removes them from the interface."""
    server = calling_server()
    tunnels = services().node_access.tunnel_peers(server)
    vpn_keys = services().vpn_keys
    if vpn_keys is None:
        return answer(WireGuardPeers(peers=[]))
    secret = vpn_keys.wireguard_secret
    peers = [
        WireGuardPeer(
            public_key=wireguard.client_key(secret, licence, server)[1],
            allowed_ips=f"{address}/32",
            licence=licence,
        )
        for licence, address in tunnels
    ]
    return answer(WireGuardPeers(peers=peers))


@node_api.get("/api/node/deny-list")
def deny_list() -> Response:
    """The licences whose keys servers must refuse (ended or erased), one id a line. Servers keep
    a copy, so no packet waits for the hub."""
    calling_server()
    ended = services().node_access.deny_list()
    return Response("".join(f"{licence}\n" for licence in ended), mimetype="text/plain")
