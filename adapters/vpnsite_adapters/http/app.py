"""The Flask app factory."""

from __future__ import annotations

import logging
import time
from typing import Any, Literal

from flask import Flask, Response, g, jsonify, request
from flask.typing import ResponseReturnValue
from flask_cors import CORS

from vpnsite.ports import UnitOfWork
from vpnsite_adapters.http.api.archive import SITE, archive_api
from vpnsite_adapters.http.api.devices import devices_api
from vpnsite_adapters.http.api.metrics import register_metrics
from vpnsite_adapters.http.api.openapi import openapi_document
from vpnsite_adapters.http.api.polling import HSTS, PollingEndpoints
from vpnsite_adapters.http.api.profiles import profile_api
from vpnsite_adapters.http.api.website import api
from vpnsite_adapters.http.client_ip import TrustedProxyHeaders
from vpnsite_adapters.http.errors import MAX_BODY_BYTES, register_error_handlers
from vpnsite_adapters.http.languages import pick_language
from vpnsite_adapters.http.node.calls import GATE, node_api
from vpnsite_adapters.http.node.gate import NodeGate
from vpnsite_adapters.http.pages.about_facts import about_api
from vpnsite_adapters.http.pages.erasure_pages import erasure_blueprint
from vpnsite_adapters.http.pages.forms import forms_blueprint
from vpnsite_adapters.http.pages.security_txt import security_blueprint
from vpnsite_adapters.http.pages.site import Site, register_site
from vpnsite_adapters.http.pages.testimonials import testimonials_api
from vpnsite_adapters.http.request_ids import HEADER, RequestIds
from vpnsite_adapters.operator_files.testimonials import shown_testimonials
from vpnsite_adapters.services import Services

access_log = logging.getLogger("vpnsite.access")
# The segments a personal link's token follows: the archive's (/api/config/<token>), its profiles'
# and their QR codes', and the licence e-mail's erasure link (/ru/erase/<token>) and its link for
# a phone (/ru/license/setup/<token>).
_BEFORE_TOKEN = frozenset({"config", "profile", "profile-qr", "erase", "setup"})

Serves = Literal["all", "public", "node"]
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    # No page uses the device's sensors, camera, microphone or payments: none may ask for them.
    "Permissions-Policy": (
        "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(),"
        " payment=(), usb=()"
    ),
    # A page opened from ours (or ours from another) shares no window with it.
    "Cross-Origin-Opener-Policy": "same-origin",
}
API_CSP = "default-src 'none'; frame-ancestors 'none'"


def redact(path: str) -> str:
    """The path as logs may show it: personal links lose their token, however the path is
    spelt — the segment after any of ``_BEFORE_TOKEN``, wherever it stands, once empty and ``.``
    segments are dropped (``/api/config//<token>``, ``/API/./config/<token>``, an encoded slash)."""
    segments = [segment for segment in path.split("/") if segment not in ("", ".")]
    shown = [
        "[redacted]" if place and segments[place - 1].lower() in _BEFORE_TOKEN else segment
        for place, segment in enumerate(segments)
    ]
    return "/" + "/".join(shown) + ("/" if shown and path.endswith("/") else "")


def log_access(
    method: str, path: str, status: int, seconds: float, route: str | None = None, request: str | None = None
) -> None:
    """One line per request: no address, no query string, no personal link. ``route`` is the
    path's template (``/api/config/<token>``); the polling paths are their own, and name their
    ``request`` id (Flask's requests have theirs from the log filter)."""
    duration_ms = round(seconds * 1000, 1)
    fields: dict[str, object] = {"method": method, "route": route or path, "status": status}
    fields["duration_ms"] = duration_ms
    if request is not None:
        fields["request_id"] = request
    access_log.info("%s %s %s %.1fms", method, redact(path), status, duration_ms, extra=fields)


class _App(Flask):
    """Each request runs in one unit-of-work scope: the database connection it takes goes back to
    the pool when its view returns, and a database that cannot be reached is a StoreUnavailable."""

    unit_of_work: UnitOfWork

    def dispatch_request(self) -> ResponseReturnValue:
        with self.unit_of_work.scope():
            return super().dispatch_request()


def create_app(services: Services, serves: Serves = "all", gate: NodeGate | None = None) -> Flask:
    """The website and API (``public``), the calls VPN servers make (``node``), or both (``all``:
    on one listener). ``gate``: what the listener knows of the servers' tokens (see node_gate)."""
    app = _App("vpnsite")
    # A path is served as it came or not at all (404): werkzeug would otherwise answer a doubled
    # slash (``/api/config//<token>``) with a redirect built from the request's Host. No rule but
    # "/" ends in a slash, so strict slashes never redirect either.
    app.url_map.merge_slashes = False
    app.url_map.redirect_defaults = False
    app.unit_of_work = services.unit_of_work
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["vpnsite"] = services
    if serves != "public":
        app.extensions[GATE] = gate or node_gate(services)
        app.register_blueprint(node_api)
    if serves != "node":
        register_public(app, services)
    register_error_handlers(app)

    @app.before_request
    def start() -> None:
        g.language = pick_language(request.headers.get("Accept-Language"))
        g.started = time.perf_counter()

    @app.after_request
    def finish(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if response.mimetype == "application/json":
            response.headers.setdefault("Content-Security-Policy", API_CSP)
        if request.is_secure:
            response.headers.setdefault(*HSTS)
        elapsed = time.perf_counter() - g.get("started", time.perf_counter())
        rule = request.url_rule
        services.metrics.observe_request(
            rule.rule if rule else None, request.method, response.status_code, elapsed
        )
        if services.settings.access_log:
            log_access(
                request.method,
                request.path,
                response.status_code,
                elapsed,
                # A path no rule matched is no template: the line says so rather than echo it.
                rule.rule if rule is not None else "(unmatched)",
            )
        return response

    handler: Any = RequestIds(app.wsgi_app)
    if serves != "node":
        handler = PollingEndpoints(
            handler,
            services.snapshot,
            {**SECURITY_HEADERS, "Content-Security-Policy": API_CSP},
            services.settings.cors_origins,
            log_access if services.settings.access_log else None,
            services.metrics.request_counter,
        )
    app.wsgi_app = TrustedProxyHeaders(handler, services.settings.trusted_proxies)  # type: ignore[method-assign]
    return app


def register_public(app: Flask, services: Services) -> None:
    """The website, its API and its forms."""
    app.register_blueprint(api)
    app.register_blueprint(archive_api)
    app.register_blueprint(profile_api)
    app.register_blueprint(devices_api)
    app.register_blueprint(security_blueprint())
    settings = services.settings
    site = Site.load(
        settings.origin,
        services.snapshot,
        settings.operator,
        settings.social_links,
        shown_testimonials(settings.testimonials, settings.demo),
        settings.licence_days,
        settings.free_tier_cap,
        settings.operator_facts,
    )
    if site is not None:
        app.extensions[SITE] = site
        register_site(app, site)
        app.register_blueprint(forms_blueprint(site))
        app.register_blueprint(erasure_blueprint(site))
        app.register_blueprint(testimonials_api(site.testimonials))
        app.register_blueprint(about_api(site.about_data))
    if services.settings.metrics_token:
        register_metrics(app, services.settings.metrics_token)
    CORS(
        app,
        resources={r"/api/*": {"origins": list(services.settings.cors_origins)}},
        expose_headers=["Retry-After", "ETag", HEADER],
    )
    document = openapi_document()

    @app.get("/api/openapi.json")
    def openapi() -> Response:
        return jsonify(document)


def node_gate(services: Services) -> NodeGate:
    def token_hashes() -> list[str]:
        with services.unit_of_work.scope():
            return services.server_authentication.token_hashes()

    return NodeGate.load(services.server_authentication.keys, token_hashes)
