"""The OpenAPI 3.1 description of the JSON API. Tests validate real responses against it."""

from __future__ import annotations

from typing import Any

from vpnsite.codes import CODE_LENGTH
from vpnsite.vpn_access import MAX_SESSIONS

_ERROR = {
    "type": "object",
    "required": ["detail", "code"],
    "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
}
_VALIDATION_ERROR = {
    "type": "object",
    "required": ["detail", "code"],
    "properties": {
        "code": {"const": "validation_error"},
        "detail": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["loc", "msg", "type"],
                "properties": {
                    "loc": {"type": "array", "items": {"type": ["string", "integer"]}},
                    "msg": {"type": "string"},
                    "type": {"type": "string"},
                },
            },
        },
    },
}
_COOKIES = {
    "type": ["object", "null"],
    "properties": {"hz_id": {"type": ["string", "null"], "maxLength": 64}},
}
_CODE = {"type": "string", "pattern": f"^[0-9]{{{CODE_LENGTH}}}$"}
_EMAIL = {"type": "string", "maxLength": 320}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    descriptions = {
        400: "Malformed JSON, or the sign-up request has already been used",
        403: "Invalid signature, or the free tier is full",
        404: "Licence not found",
        409: "Not renewable yet: renewal opens seven days before the end",
        410: "The sign-up request has expired, or the licence ended too long ago to renew",
        413: "Body larger than 16 KB",
        415: "Body not sent as application/json",
        429: "Rate limited; see Retry-After",
        503: "The database is unavailable",
    }
    responses: dict[str, Any] = {"422": _json(_ref("ValidationError"), "A field is missing or wrong")}
    for status in (400, 413, 415, 429, 503, *statuses):
        responses[str(status)] = _json(_ref("Error"), descriptions[status])
    return responses


def _post(summary: str, body: str, ok: str, *statuses: int) -> dict[str, Any]:
    return {
        "post": {
            "summary": summary,
            "parameters": [{"$ref": "#/components/parameters/AcceptLanguage"}],
            "requestBody": {"required": True, "content": {"application/json": {"schema": _ref(body)}}},
            "responses": {"200": _json(_ref(ok), "Success"), **_errors(*statuses)},
        }
    }


def _polled(summary: str, ok: str) -> dict[str, Any]:
    return {
        "get": {
            "summary": summary,
            "responses": {
                "200": _json(_ref(ok), "The current snapshot (at most 2 s old)"),
                "304": {"description": "Unchanged since the ETag sent in If-None-Match"},
            },
        }
    }


_VPN_SERVER = {
    "type": "object",
    "required": [
        "id",
        "name",
        "flag",
        "location",
        "status",
        "ping",
        "load",
        "sessions",
        "rank",
        "popularity",
        "popularity_ru",
    ],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "flag": {"type": "string", "pattern": "^[a-z]{2}$"},
        "location": {"type": "string"},
        "status": {"enum": ["online", "offline"]},
        "ping": {"type": ["integer", "null"], "minimum": 0},
        "load": {"type": "string", "pattern": "^[0-9]{1,3}%$"},
        "sessions": {"type": "integer", "minimum": 0},
        "rank": {"enum": ["very_high", "high", "medium", "low"]},
        "popularity": {"type": "string"},
        "popularity_ru": {"type": "string"},
        "popularity_es": {"type": "string"},
        "popularity_fr": {"type": "string"},
        "popularity_pt": {"type": "string"},
    },
}
_SYSTEM_SERVER = {
    "type": "object",
    "required": ["id", "location", "status", "ping", "load"],
    "properties": {
        "id": {"type": "string"},
        "location": {"type": "string"},
        "status": {"enum": ["online", "offline"]},
        "ping": {"type": ["integer", "null"], "minimum": 0},
        "load": {"type": ["string", "null"]},
    },
}

_SERVER_NAME: dict[str, Any] = {
    "type": "object",
    "required": ["id", "name", "flag", "location"],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "flag": {"type": "string", "pattern": "^[a-z]{2}$"},
        "location": {"type": "string", "description": "The city"},
    },
}
_PROFILES = {
    "type": "array",
    "description": "Per server: its personal profile links (empty when the licence has ended)",
    "items": {"$ref": "#/components/schemas/ProfileServer"},
}
_PROFILE_SCHEMAS: dict[str, Any] = {
    "OpenVpnProfile": {
        "type": "object",
        "required": ["protocol", "url", "import_url", "qr_svg", "qr_png"],
        "properties": {
            "protocol": {"enum": ["udp", "tcp"]},
            "url": {"type": "string", "format": "uri", "description": "The .ovpn, personal, a week"},
            "import_url": {
                "type": "string",
                "description": "openvpn://import-profile/<url>: opens OpenVPN Connect (3.3.6+), "
                "which downloads the profile (over HTTPS only)",
            },
            "qr_svg": {"type": "string", "format": "uri", "description": "A QR code of url (SVG)"},
            "qr_png": {"type": "string", "format": "uri", "description": "The same QR code as PNG"},
        },
    },
    "ProfileServer": {
        "type": "object",
        "required": [*_SERVER_NAME["required"], "status", "load", "recommended", "openvpn", "wireguard"],
        "properties": {
            **_SERVER_NAME["properties"],
            "status": {"enum": ["online", "offline"]},
            "load": {"type": "string", "pattern": "^[0-9]{1,3}%$"},
            "recommended": {
                "type": "boolean",
                "description": "The server to use first: the least loaded online; listed first",
            },
            "openvpn": {"type": "array", "items": {"$ref": "#/components/schemas/OpenVpnProfile"}},
            "wireguard": {
                "type": ["object", "null"],
                "required": ["url"],
                "properties": {"url": {"type": "string", "format": "uri"}},
                "description": "WireGuard (experimental, desktops): the .conf; null where not offered",
            },
        },
    },
    "DisconnectDevices": {
        "type": "object",
        "required": ["email", "activation_code"],
        "description": "One session to end, or all: true",
        "properties": {
            "email": _EMAIL,
            "activation_code": {"type": "string", "maxLength": 64},
            "session": {"type": ["string", "null"], "maxLength": 64},
            "all": {"type": "boolean"},
        },
    },
    "DeviceList": {
        "type": "object",
        "required": ["success", "in_use", "limit", "devices"],
        "properties": {
            "success": {"const": True},
            "in_use": {"type": "integer", "minimum": 0, "description": "Servers in use (one device each)"},
            "limit": {
                "type": "integer",
                "minimum": 1,
                "description": "Devices a licence may connect at once: one per server, "
                f"at most {MAX_SESSIONS}, and no more than the fleet has servers",
            },
            "devices": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["session", "server", "protocol", "since"],
                    "properties": {
                        "session": {"type": "string", "description": "For /api/devices/disconnect"},
                        "server": {
                            "type": "object",
                            "required": ["id"],
                            "properties": _SERVER_NAME["properties"],
                            "description": "Only the id for a server no longer listed",
                        },
                        "protocol": {"enum": ["udp", "tcp", "wireguard", None]},
                        "since": {"type": "integer", "description": "Unix time in seconds"},
                    },
                },
            },
        },
    },
    "ConnectionCheck": {
        "type": "object",
        "required": ["protected", "server"],
        "properties": {
            "protected": {"type": "boolean"},
            "server": {
                "oneOf": [{"$ref": "#/components/schemas/ServerName"}, {"type": "null"}],
                "description": "The server whose exit address the request came from",
            },
        },
    },
    "ServerName": _SERVER_NAME,
    "Testimonials": {
        "type": "object",
        "required": ["examples", "testimonials"],
        "properties": {
            "examples": {
                "type": "boolean",
                "description": "Invented examples (the demo's), shown labelled so",
            },
            "testimonials": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "about", "text", "stars", "initials"],
                    "properties": {
                        "name": {"type": "string"},
                        "about": {"type": "string", "description": "Role and place, as shown under the name"},
                        "text": {"type": "string"},
                        "stars": {"type": "integer", "minimum": 1, "maximum": 5},
                        "initials": {"type": "string"},
                    },
                },
            },
        },
    },
}

SCHEMAS: dict[str, Any] = {
    "Error": _ERROR,
    "ValidationError": _VALIDATION_ERROR,
    "SubmitEmail": {
        "type": "object",
        "required": ["email"],
        "properties": {"email": _EMAIL, "cookies": _COOKIES},
    },
    "FormData": {
        "type": "object",
        "required": ["user_email", "user_days", "subscription", "user_comment", "request_id", "sig"],
        "properties": {
            "user_email": {"type": "string"},
            "user_days": {"type": "integer", "minimum": 1},
            "subscription": {"type": "string"},
            "user_comment": {"type": "string"},
            "request_id": {"type": "string", "pattern": "^[0-9a-f]{32}-[0-9]{1,12}-[a-z]{2}$"},
            "sig": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        },
    },
    "SubmitEmailResult": {
        "type": "object",
        "required": ["success", "form_data"],
        "properties": {"success": {"const": True}, "form_data": _ref("FormData")},
    },
    "CreateUser": {
        "type": "object",
        "required": ["email", "user_days", "subscription", "user_comment", "request_id", "sig"],
        "properties": {
            "email": _EMAIL,
            "user_days": {"type": "integer"},
            "subscription": {"type": "string", "maxLength": 32},
            "user_comment": {"type": "string", "maxLength": 500},
            "request_id": {"type": "string", "maxLength": 64},
            "sig": {"type": "string", "maxLength": 128},
            "cookies": _COOKIES,
        },
    },
    "ActivationResult": {
        "type": "object",
        "required": [
            "success",
            "user_email",
            "user_code",
            "user_days",
            "user_start",
            "user_stop",
            "activation_url",
            "profiles",
        ],
        "properties": {
            "success": {"const": True},
            "user_email": {"type": "string"},
            "user_code": _CODE,
            "user_days": {"type": "integer", "minimum": 1},
            "user_start": {"type": "integer", "description": "Unix time in seconds"},
            "user_stop": {"type": "integer", "description": "Expiry, Unix time in seconds"},
            "activation_url": {"type": "string", "format": "uri"},
            "profiles": _PROFILES,
        },
    },
    "CheckLicense": {
        "type": "object",
        "required": ["email", "activation_code"],
        "properties": {"email": _EMAIL, "activation_code": {"type": "string", "maxLength": 64}},
    },
    "LicenceResult": {
        "type": "object",
        "required": ["success", "license"],
        "properties": {
            "success": {"const": True},
            "license": {
                "type": "object",
                "required": [
                    "email",
                    "code",
                    "start",
                    "end",
                    "end_timestamp",
                    "days",
                    "active",
                    "renewable",
                    "renewable_from",
                    "configUrl",
                    "profiles",
                ],
                "properties": {
                    "email": {"type": "string"},
                    "code": {
                        **_CODE,
                        "type": ["string", "null"],
                        "description": "null after a renewal by link",
                    },
                    "start": {"type": "string", "format": "date"},
                    "end": {"type": "string", "format": "date"},
                    "end_timestamp": {"type": "integer"},
                    "days": {"type": "integer", "minimum": 0},
                    "active": {"type": "boolean"},
                    "renewable": {"type": "boolean"},
                    "renewable_from": {"type": "string", "format": "date"},
                    "configUrl": {"type": ["string", "null"], "format": "uri"},
                    "profiles": _PROFILES,
                },
            },
        },
    },
    "RenewLicence": {
        "type": "object",
        "description": "Either the token of a reminder e-mail's link, or the e-mail and activation code",
        "properties": {
            "token": {"type": ["string", "null"], "maxLength": 64},
            "email": {"type": ["string", "null"], "maxLength": 320},
            "activation_code": {"type": ["string", "null"], "maxLength": 64},
        },
    },
    "SupportRequest": {
        "type": "object",
        "required": ["email", "message"],
        "properties": {
            "email": _EMAIL,
            "activation_code": {"type": ["string", "null"], "maxLength": 64},
            "message": {"type": "string", "maxLength": 10000},
        },
    },
    "SupportResult": {
        "type": "object",
        "required": ["success", "ticket"],
        "properties": {"success": {"const": True}, "ticket": {"type": "string", "pattern": "^T-[0-9]{8}$"}},
    },
    "UserCount": {
        "type": "object",
        "required": ["success", "user_count"],
        "properties": {"success": {"const": True}, "user_count": {"type": "integer", "minimum": 0}},
    },
    "ServerStatus": {
        "type": "object",
        "required": ["vpn_servers", "system_servers", "summary"],
        "properties": {
            "vpn_servers": {"type": "array", "items": _VPN_SERVER},
            "system_servers": {
                "type": "array",
                "items": _SYSTEM_SERVER,
                "description": "The activation and hub servers, and the billing service when one is"
                " configured (VPNSITE_BILLING_HEALTH_URL): what is not configured is not listed",
            },
            "summary": {
                "type": "object",
                "required": [
                    "vpn_servers_count",
                    "vpn_servers_online",
                    "system_servers_count",
                    "user_count",
                    "demo",
                    "updated_at",
                ],
                "properties": {
                    "vpn_servers_count": {"type": "integer", "minimum": 0},
                    "vpn_servers_online": {"type": "integer", "minimum": 0},
                    "system_servers_count": {"type": "integer", "minimum": 0},
                    "user_count": {"type": "integer", "minimum": 0},
                    "demo": {"type": "boolean"},
                    "updated_at": {"type": "integer"},
                },
            },
        },
    },
    "Health": {"type": "object", "required": ["status"], "properties": {"status": {"type": "string"}}},
    "Heartbeat": {
        "type": "object",
        "required": ["cpu_load", "bandwidth_mbps", "sessions", "service_up"],
        "properties": {
            "cpu_load": {"type": "number", "minimum": 0, "maximum": 100},
            "bandwidth_mbps": {"type": "number", "minimum": 0},
            "sessions": {"type": "integer", "minimum": 0},
            "service_up": {"type": "boolean"},
            "connections": {
                "type": ["array", "null"],
                "description": "The connections the server holds; the hub answers which must end",
                "items": {
                    "type": "object",
                    "required": ["session", "licence"],
                    "properties": {
                        "session": {"type": "string", "maxLength": 64},
                        "licence": {"type": "string", "maxLength": 64},
                        "protocol": {
                            "type": ["string", "null"],
                            "maxLength": 16,
                            "description": "udp, tcp or wireguard (a peer that has shaken hands lately)",
                        },
                    },
                },
            },
            "exit_addresses": {
                "type": ["array", "null"],
                "maxItems": 16,
                "items": {"type": "string", "maxLength": 64},
                "description": "Public addresses (or networks) the clients' traffic leaves from, "
                "when not the address the heartbeat comes from (which the hub uses by default); "
                "the operator's `vpn add-server --exit-address` comes first",
            },
        },
    },
    "HeartbeatResult": {
        "type": "object",
        "required": ["success", "server", "end"],
        "properties": {
            "success": {"const": True},
            "server": {"type": "string"},
            "end": {"type": "array", "items": {"type": "string"}, "description": "Sessions to cut"},
        },
    },
    "NodeLogin": {
        "type": "object",
        "required": ["username"],
        "properties": {
            "username": {"type": "string", "maxLength": 320},
            "password": {"type": ["string", "null"], "maxLength": 128},
            "protocol": {"type": ["string", "null"], "maxLength": 16, "description": "udp or tcp"},
        },
    },
    "NodeSession": {
        "type": "object",
        "required": ["session"],
        "properties": {"session": {"type": "string", "maxLength": 64}},
    },
    "NodeLoginResult": {
        "type": "object",
        "required": ["admitted"],
        "properties": {
            "admitted": {"type": "boolean"},
            "reason": {"enum": ["bad_credentials", "ended", "too_many_devices"]},
            "session": {"type": "string", "description": "The session's id, for established and ended"},
            "licence": {"type": "string", "description": "The licence that logged in"},
        },
    },
    "NodeSessionResult": {
        "type": "object",
        "required": ["known"],
        "properties": {"known": {"type": "boolean"}},
    },
    **_PROFILE_SCHEMAS,
}


def _node(summary: str, body: str | None, ok: dict[str, Any], method: str = "post") -> dict[str, Any]:
    operation: dict[str, Any] = {
        "summary": summary,
        "security": [{"serverToken": []}],
        "responses": {
            "200": ok,
            "401": _json(_ref("Error"), "No valid server token"),
            "403": _json(_ref("NodeLoginResult"), "Refused, with the reason"),
            **_errors(),
        },
    }
    if body:
        operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": _ref(body)}}}
    return {method: operation}


def _personal_file(summary: str, name: str, content: dict[str, Any]) -> dict[str, Any]:
    path_parameters = [
        {"name": part, "in": "path", "required": True, "schema": {"type": "string"}}
        for part in ("token", name)
    ]
    return {
        "get": {
            "summary": summary,
            "parameters": path_parameters,
            "responses": {
                "200": {"description": "Personal: never cached", "content": content},
                "404": _json(_ref("Error"), "Unknown link, ended licence, or no such profile"),
                "429": _json(_ref("Error"), "Rate limited; see Retry-After"),
                "503": _json(_ref("Error"), "The VPN keys are not set up"),
            },
        }
    }


def openapi_document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "vpnsite",
            "version": "1",
            "description": "Sign-up, licences, support and status of a free VPN service.",
        },
        "paths": {
            "/api/user-count": _polled("Users holding a live licence", "UserCount"),
            "/api/server-status": _polled("VPN and system servers", "ServerStatus"),
            "/api/submit-email": _post(
                "Start a sign-up: a signed, one-time request", "SubmitEmail", "SubmitEmailResult", 403
            ),
            "/api/create-user": _post(
                "Redeem a sign-up request for a licence", "CreateUser", "ActivationResult", 403, 410
            ),
            "/api/check-license": _post(
                "Look up a licence by e-mail and activation code", "CheckLicense", "LicenceResult", 404
            ),
            "/api/renew": _post(
                "Renew a licence for another term, keeping its code",
                "RenewLicence",
                "LicenceResult",
                403,
                404,
                409,
                410,
            ),
            "/api/support": _post("Open a support ticket", "SupportRequest", "SupportResult"),
            "/api/config/{token}": {
                "get": {
                    "summary": "The personal archive of OpenVPN profiles (a zip) behind the personal links",
                    "parameters": [
                        {"name": "token", "in": "path", "required": True, "schema": {"type": "string"}}
                    ],
                    "responses": {
                        "200": {"description": "The zip", "content": {"application/zip": {}}},
                        "404": _json(_ref("Error"), "Unknown link, or the licence has ended"),
                        "429": _json(_ref("Error"), "Rate limited; see Retry-After"),
                        "503": _json(_ref("Error"), "The VPN keys are not set up"),
                    },
                }
            },
            "/api/profile/{token}/{file}": _personal_file(
                "One profile of the personal archive: {server}-udp.ovpn, {server}-tcp.ovpn "
                "(application/x-openvpn-profile) or {server}.conf (WireGuard, text/plain)",
                "file",
                {"application/x-openvpn-profile": {}, "text/plain": {}},
            ),
            "/api/profile-qr/{token}/{image}": _personal_file(
                "A QR code of a profile's link: {server}-udp.svg, {server}-tcp.png, …",
                "image",
                {"image/svg+xml": {}, "image/png": {}},
            ),
            "/api/devices": _post(
                "The licence's connected devices (by e-mail and activation code)",
                "CheckLicense",
                "DeviceList",
                404,
            ),
            "/api/devices/disconnect": _post(
                "End one device's session, or all: the server cuts it within seconds",
                "DisconnectDevices",
                "DeviceList",
                404,
            ),
            "/api/connection-check": {
                "get": {
                    "summary": "Does this request come from an online VPN server's exit address?",
                    "responses": {"200": _json(_ref("ConnectionCheck"), "The answer (never cached)")},
                }
            },
            "/api/testimonials": {
                "get": {
                    "summary": "A few of the operator's testimonials in a language, picked at random",
                    "parameters": [
                        {"name": "language", "in": "query", "required": False, "schema": {"type": "string"}}
                    ],
                    "responses": {"200": _json(_ref("Testimonials"), "The pick (never cached)")},
                }
            },
            "/api/node/heartbeat": _node(
                "A VPN server reports its health", "Heartbeat", _json(_ref("HeartbeatResult"), "Stored")
            ),
            "/api/node/login": _node(
                "May this e-mail and activation code use the calling server?",
                "NodeLogin",
                _json(_ref("NodeLoginResult"), "Admitted (403 with a reason when refused)"),
            ),
            "/api/node/established": _node(
                "The admitted client is connected", "NodeSession", _json(_ref("NodeSessionResult"), "Noted")
            ),
            "/api/node/ended": _node(
                "The client left", "NodeSession", _json(_ref("NodeSessionResult"), "Its place is free")
            ),
            "/api/node/wireguard-peers": _node(
                "The calling server's WireGuard peers (experimental): the live licences, their keys "
                "and addresses",
                None,
                {"description": "The peers", "content": {"application/json": {"schema": {"type": "object"}}}},
                method="get",
            ),
            "/api/node/deny-list": _node(
                "Licences whose keys servers refuse, one id a line",
                None,
                {"description": "The list", "content": {"text/plain": {}}},
                method="get",
            ),
            "/healthz": {
                "get": {
                    "summary": "The process is alive",
                    "responses": {"200": _json(_ref("Health"), "Alive")},
                }
            },
            "/readyz": {
                "get": {
                    "summary": "The database answers",
                    "responses": {
                        "200": _json(_ref("Health"), "Ready"),
                        "503": _json(_ref("Error"), "The database is unavailable"),
                    },
                }
            },
        },
        "components": {
            "securitySchemes": {"serverToken": {"type": "http", "scheme": "bearer"}},
            "schemas": SCHEMAS,
            "parameters": {
                "AcceptLanguage": {
                    "name": "Accept-Language",
                    "in": "header",
                    "required": False,
                    "description": "en, ru, es, fr or pt: the language of human-readable details",
                    "schema": {"type": "string"},
                }
            },
        },
    }
