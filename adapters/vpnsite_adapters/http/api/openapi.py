"""The OpenAPI 3.1 description of the JSON API. Its schemas are generated from the wire contract's
classes (``vpnsite_contract``): only the table of paths below is written here. Tests validate real
responses against it, and the website's TypeScript types are generated from it."""

from __future__ import annotations

from typing import Any

from attrs import frozen

from vpnsite_adapters.texts.languages import LANGUAGES
from vpnsite_contract import node_calls, website
from vpnsite_contract.json_schema import component_schemas, ref

_ERRORS = {
    400: "Malformed JSON, or the sign-up request has already been used",
    401: "No valid server token",
    403: "Invalid signature, or the free tier is full",
    404: "Licence not found",
    409: "Not renewable yet: renewal opens seven days before the end",
    410: "The sign-up request has expired, or the licence ended too long ago to renew",
    413: "Body larger than 16 KB",
    415: "Body not sent as application/json",
    429: "Rate limited; see Retry-After",
    503: "The database is unavailable",
}
# What every JSON call may answer besides its own refusals.
_EVERY_CALL = (400, 413, 415, 429, 503)


@frozen
class Call:
    """One operation: its body and answer classes, and the refusals (``Error``) it may give."""

    summary: str
    answer: type | None
    body: type | None = None
    errors: tuple[int, ...] = ()
    method: str = "post"
    answered: str = "Success"
    # The node calls: a server's own token, and a refused login's reason (403).
    node: bool = False
    # Served from the status snapshot (at most 2 s old) with an ETag: an unchanged answer is a 304.
    polled: bool = False
    # The GET's optional query parameters (strings).
    query: tuple[str, ...] = ()
    # Under pressure the call asks for a proof of work first: 428 with the challenge to solve.
    challenged: bool = False


_POLLED = "The current snapshot (at most 2 s old)"
# The languages a caller may ask for, as the list names them ("en, es, ru, fr or pt").
_LISTED = f"{', '.join(LANGUAGES[:-1])} or {LANGUAGES[-1]}"

CALLS: dict[str, Call] = {
    "/api/user-count": Call(
        "Users holding a live licence, and the free tier's cap",
        website.UserCount,
        method="get",
        polled=True,
    ),
    "/api/server-status": Call("VPN and system servers", website.ServerStatus, method="get", polled=True),
    "/api/submit-email": Call(
        "Start a sign-up: a signed, one-time request",
        website.SubmitEmailResult,
        website.SubmitEmail,
        (403,),
        challenged=True,
    ),
    "/api/create-user": Call(
        "Redeem a sign-up request for a licence",
        website.ActivationResult,
        website.CreateUser,
        (403, 410),
    ),
    "/api/check-license": Call(
        "Look up a licence by e-mail and activation code", website.LicenceResult, website.CheckLicense, (404,)
    ),
    "/api/renew": Call(
        "Renew a licence for another term, keeping its code",
        website.LicenceResult,
        website.RenewLicence,
        (403, 404, 409, 410),
    ),
    "/api/support": Call("Open a support ticket", website.SupportResult, website.SupportRequest),
    "/api/devices": Call(
        "The licence's connected devices (by e-mail and activation code)",
        website.DeviceList,
        website.CheckLicense,
        (404,),
    ),
    "/api/devices/disconnect": Call(
        "End one device's session, or all: the server cuts it within seconds",
        website.DeviceList,
        website.DisconnectDevices,
        (404,),
    ),
    "/api/devices/connect-again": Call(
        "Let a disconnected WireGuard device back on its server: the server puts it back within seconds",
        website.DeviceList,
        website.ConnectAgain,
        (404,),
    ),
    "/api/connection-check": Call(
        "Does this request come from an online VPN server's exit address?",
        website.ConnectionCheck,
        method="get",
        answered="The answer (never cached)",
    ),
    "/api/testimonials": Call(
        "A few of the operator's testimonials in a language, picked at random",
        website.Testimonials,
        method="get",
        answered="The pick (never cached)",
        query=("language",),
    ),
    "/api/about": Call(
        "What the operator says of itself on the About page, in a language",
        website.AboutFacts,
        method="get",
        answered="The facts, as the page writes them",
        query=("language",),
    ),
    "/api/node/heartbeat": Call(
        "A VPN server reports its health",
        node_calls.HeartbeatResult,
        node_calls.HeartbeatBody,
        answered="Stored",
        node=True,
    ),
    "/api/node/login": Call(
        "May this e-mail and activation code use the calling server?",
        node_calls.NodeLoginResult,
        node_calls.NodeLogin,
        answered="Admitted (403 with a reason when refused; rate_limited says when to try again)",
        node=True,
    ),
    "/api/node/resume": Call(
        "May a connection OpenVPN let in by an earlier login's session token use the calling server?",
        node_calls.NodeLoginResult,
        node_calls.NodeResume,
        answered="Admitted (403 with a reason when refused; in_use_here: the licence is connected here)",
        node=True,
    ),
    "/api/node/established": Call(
        "The admitted client is connected",
        node_calls.NodeSessionResult,
        node_calls.NodeSession,
        answered="Noted",
        node=True,
    ),
    "/api/node/ended": Call(
        "The client left",
        node_calls.NodeSessionResult,
        node_calls.NodeSession,
        answered="Its place is free",
        node=True,
    ),
    "/api/node/wireguard-peers": Call(
        "The calling server's WireGuard peers (experimental): the live licences, their keys and addresses",
        node_calls.WireGuardPeers,
        method="get",
        answered="The peers",
        node=True,
    ),
    "/healthz": Call("The process is alive", website.Health, method="get", answered="Alive"),
    "/readyz": Call("The database answers", website.Health, errors=(503,), method="get", answered="Ready"),
}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(status: int, description: str | None = None) -> dict[str, Any]:
    return _json(ref(website.Error.__name__), description or _ERRORS[status])


def _operation(call: Call) -> dict[str, Any]:
    operation: dict[str, Any] = {"summary": call.summary}
    responses: dict[str, Any] = {}
    if call.answer is not None:
        responses["200"] = _json(ref(call.answer.__name__), _POLLED if call.polled else call.answered)
    if call.body is not None:
        operation["parameters"] = [{"$ref": "#/components/parameters/AcceptLanguage"}]
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": ref(call.body.__name__)}},
        }
        responses["422"] = _json(ref(website.ValidationError.__name__), "A field is missing or wrong")
        responses.update({str(status): _error(status) for status in (*_EVERY_CALL, *call.errors)})
    else:
        responses.update({str(status): _error(status) for status in call.errors})
    if call.challenged:
        responses["428"] = _json(
            ref(website.Challenged.__name__),
            "Sign-ups come faster than people do: solve the challenge, then call again with its solution",
        )
    if call.polled:
        responses["304"] = {"description": "Unchanged since the ETag sent in If-None-Match"}
    if call.query:
        operation["parameters"] = [
            {"name": name, "in": "query", "required": False, "schema": {"type": "string"}}
            for name in call.query
        ]
    if call.node:
        operation["security"] = [{"serverToken": []}]
        responses.update(_node_refusals())
    operation["responses"] = responses
    return operation


def _node_refusals() -> dict[str, Any]:
    """What a node call may answer besides its own: a refused token, or a refused login's reason."""
    return {
        "401": _error(401),
        "403": _json(ref(node_calls.NodeLoginResult.__name__), "Refused, with the reason"),
        "422": _json(ref(website.ValidationError.__name__), "A field is missing or wrong"),
        **{str(status): _error(status) for status in _EVERY_CALL},
    }


def _personal(summary: str, names: tuple[str, ...], content: dict[str, Any], missing: str) -> dict[str, Any]:
    """A personal file behind a link (never JSON, never cached)."""
    return {
        "get": {
            "summary": summary,
            "parameters": [
                {"name": name, "in": "path", "required": True, "schema": {"type": "string"}} for name in names
            ],
            "responses": {
                "200": {"description": "Personal: never cached", "content": content},
                "404": _error(404, missing),
                "429": _error(429),
                "503": _error(503, "The VPN keys are not set up"),
            },
        }
    }


_FILES: dict[str, Any] = {
    "/api/config/{token}": _personal(
        "The personal archive of OpenVPN profiles (a zip) behind the personal links",
        ("token",),
        {"application/zip": {}},
        "Unknown link, or the licence has ended",
    ),
    "/api/profile/{token}/{file}": _personal(
        "One profile of the personal archive: {server}-udp.ovpn, {server}-tcp.ovpn "
        "(application/x-openvpn-profile) or {server}.conf (WireGuard, text/plain)",
        ("token", "file"),
        {"application/x-openvpn-profile": {}, "text/plain": {}},
        "Unknown link, ended licence, or no such profile",
    ),
    "/api/profile-qr/{token}/{image}": _personal(
        "A QR code of a profile's link: {server}-udp.svg, {server}-tcp.png, …",
        ("token", "image"),
        {"image/svg+xml": {}, "image/png": {}},
        "Unknown link, ended licence, or no such profile",
    ),
    "/api/node/deny-list": {
        "get": {
            "summary": "Licences whose keys servers refuse, one id a line",
            "security": [{"serverToken": []}],
            "responses": {
                "200": {"description": "The list", "content": {"text/plain": {}}},
                **_node_refusals(),
            },
        }
    },
}


def openapi_document() -> dict[str, Any]:
    bodies = [call.body for call in CALLS.values() if call.body is not None]
    answers = [website.Error, website.ValidationError, website.Challenged, node_calls.NodeLoginResult]
    answers += [call.answer for call in CALLS.values() if call.answer is not None]
    paths = {path: {call.method: _operation(call)} for path, call in CALLS.items()}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "vpnsite",
            "version": "1",
            "description": "Sign-up, licences, support and status of a free VPN service.",
        },
        "paths": {**paths, **_FILES},
        "components": {
            "securitySchemes": {"serverToken": {"type": "http", "scheme": "bearer"}},
            "schemas": component_schemas(dict.fromkeys(bodies), dict.fromkeys(answers)),
            "parameters": {
                "AcceptLanguage": {
                    "name": "Accept-Language",
                    "in": "header",
                    "required": False,
                    "description": f"{_LISTED}: the language of human-readable details",
                    "schema": {"type": "string"},
                }
            },
        },
    }
