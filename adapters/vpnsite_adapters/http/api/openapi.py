"""The OpenAPI 3.1 description of the JSON API. Each call is described beside its handler
(``http/described.py``); its schemas are generated from the wire contract's classes
(``vpnsite_contract``); only the personal files' paths are written here. Tests validate real
responses against it, and the website's TypeScript types are generated from it."""

from __future__ import annotations

import json
from typing import Any

from vpnsite_adapters.http.api import devices, polling
from vpnsite_adapters.http.api import website as website_api
from vpnsite_adapters.http.described import DESCRIBED, Call
from vpnsite_adapters.http.node import calls
from vpnsite_adapters.http.pages import about_facts, testimonials
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


# The modules whose handlers describe the calls: once they are read, every call is described.
HANDLERS = (polling, website_api, devices, testimonials, about_facts, calls)
_POLLED = "The current snapshot (at most 2 s old)"
# The languages a caller may ask for, as the list names them ("en, es, ru, fr or pt").
_LISTED = f"{', '.join(LANGUAGES[:-1])} or {LANGUAGES[-1]}"


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
    # By path: the order the handlers' modules happened to be read in (which a process's earlier
    # imports decide) says nothing, and must change neither the paths' nor the schemas' order.
    ordered = [call for _, call in sorted(DESCRIBED.items())]
    bodies = [call.body for call in ordered if call.body is not None]
    answers = [website.Error, website.ValidationError, website.Challenged, node_calls.NodeLoginResult]
    answers += [call.answer for call in ordered if call.answer is not None]
    paths = {call.path: {call.method: _operation(call)} for call in ordered}
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


if __name__ == "__main__":
    # `python -m vpnsite_adapters.http.api.openapi > openapi.json`: the document the website's types
    # are generated from (`npm --prefix ui run api-types -- openapi.json`).
    print(json.dumps(openapi_document(), indent=2))
