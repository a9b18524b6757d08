"""``GET /metrics`` on the public site, for a Prometheus that can only reach the site: registered
only when ``VPNSITE_METRICS_TOKEN`` is set, and answered only to ``Authorization: Bearer <token>``.
Without the setting the path is as unknown as any other."""

from __future__ import annotations

import hmac

from flask import Flask, Response, current_app, request

from vpnsite_adapters.http.errors import error_response
from vpnsite_adapters.services import Services


def register_metrics(app: Flask, token: str) -> None:
    expected = f"Bearer {token}".encode()

    @app.get("/metrics")
    def metrics() -> Response:
        given = request.headers.get("Authorization", "").encode()
        if not hmac.compare_digest(given, expected):
            response = error_response(401, "metrics_unauthorized")
            response.headers["WWW-Authenticate"] = "Bearer"
            return response
        services: Services = current_app.extensions["vpnsite"]
        body, content_type = services.metrics.scrape()
        response = Response(body, content_type=content_type)
        response.headers["Cache-Control"] = "no-store"
        return response
