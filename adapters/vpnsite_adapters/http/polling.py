"""The two endpoints every open page polls, answered before Flask sees the request.

They only copy bytes from the in-memory snapshot, and at a few thousand requests per second the
framework's per-request machinery would cost more than the answer itself.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import Any

from attrs import frozen

from vpnsite_adapters.http.languages import pick_language
from vpnsite_adapters.http.messages import detail_text
from vpnsite_adapters.http.request_ids import HEADER, choose_request_id
from vpnsite_adapters.jobs.status_snapshot import Encoded, StatusSnapshot

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
# method, path, status, seconds, route, request id
AccessLog = Callable[[str, str, int, float, str, str], None]
# The increment of one (route, method, status) in the request metrics, resolved once.
RequestCounter = Callable[[str, str, int], Callable[[], None]]

# Sent on every answer to a request that came over HTTPS (directly or from a trusted proxy).
HSTS = ("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
ALLOW = "GET, HEAD, OPTIONS"


class PollingEndpoints:
    def __init__(
        self,
        app: WsgiApp,
        snapshot: StatusSnapshot,
        headers: dict[str, str],
        cors_origins: tuple[str, ...],
        access_log: AccessLog | None,
        counter: RequestCounter,
    ) -> None:
        self.app = app
        self.routes: dict[str, Callable[[], Encoded]] = {
            "/api/user-count": lambda: snapshot.user_count,
            "/api/server-status": lambda: snapshot.server_status,
        }
        self.counter = counter
        # A poll's count is one call: the counters of the answers polls get are looked up here,
        # once, per path and method (200 and 304).
        self.counted = {
            path: {
                method: (counter(path, method, 200), counter(path, method, 304)) for method in ("GET", "HEAD")
            }
            for path in self.routes
        }
        self.security_headers = list(headers.items())
        self.cors_origins = frozenset(cors_origins)
        self.access_log = access_log
        self._prepared: dict[str, _Prepared] = {}

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        method = environ["REQUEST_METHOD"]
        route = self.routes.get(environ.get("PATH_INFO", ""))
        if route is None:
            return self.app(environ, start_response)
        started = time.perf_counter()
        request_id = (HEADER, choose_request_id(environ))
        if method not in ("GET", "HEAD", "OPTIONS"):
            body = json.dumps(
                {
                    "detail": detail_text(
                        "method_not_allowed", pick_language(environ.get("HTTP_ACCEPT_LANGUAGE"))
                    ),
                    "code": "method_not_allowed",
                },
                ensure_ascii=False,
            ).encode()
            self.counter(environ["PATH_INFO"], method, 405)()
            start_response(
                "405 Method Not Allowed",
                [
                    *self.security_headers,
                    request_id,
                    ("Allow", ALLOW),
                    ("Content-Type", "application/json"),
                    ("Content-Length", str(len(body))),
                ],
            )
            self._log(method, environ, 405, started, request_id[1])
            return [body]
        secure = [HSTS] if environ.get("wsgi.url_scheme") == "https" else []
        origin = environ.get("HTTP_ORIGIN")
        cors = (
            [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
            if origin in self.cors_origins
            else []
        )
        if method == "OPTIONS":
            preflight = [("Access-Control-Allow-Methods", "GET, HEAD")] if cors else []
            self.counter(environ["PATH_INFO"], method, 204)()
            start_response(
                "204 No Content",
                [
                    *self.security_headers,
                    request_id,
                    *secure,
                    *cors,
                    *preflight,
                    ("Allow", ALLOW),
                    ("Content-Length", "0"),
                ],
            )
            self._log(method, environ, 204, started, request_id[1])
            return [b""]
        prepared = self._prepare(environ["PATH_INFO"], route())
        ok, not_modified = self.counted[environ["PATH_INFO"]][method]
        if _matches(environ.get("HTTP_IF_NONE_MATCH"), prepared.encoded.etag):
            status, headers, body = "304 Not Modified", prepared.not_modified, b""
            not_modified()
        else:
            status, headers, body = "200 OK", prepared.ok, prepared.encoded.body
            ok()
        start_response(status, [*headers, request_id, *secure, *cors])
        self._log(method, environ, int(status[:3]), started, request_id[1])
        return [b""] if method == "HEAD" else [body]

    def _log(
        self, method: str, environ: dict[str, Any], status: int, started: float, request_id: str
    ) -> None:
        if self.access_log is not None:
            path = environ["PATH_INFO"]
            self.access_log(method, path, status, time.perf_counter() - started, path, request_id)

    def _prepare(self, path: str, encoded: Encoded) -> _Prepared:
        """The answer's headers, built once per snapshot rather than once per request: every open
        page polls, and a poll does little else."""
        prepared = self._prepared.get(path)
        if prepared is None or prepared.encoded is not encoded:
            prepared = _Prepared(
                encoded,
                ok=[
                    *self.security_headers,
                    *_CACHING,
                    ("ETag", encoded.etag),
                    ("Content-Type", "application/json"),
                    ("Content-Length", str(len(encoded.body))),
                ],
                # The browser keeps the headers it stored with the 200; a 304 carries what may have
                # changed (RFC 9110, 15.4.5).
                not_modified=[*_CACHING, ("ETag", encoded.etag)],
            )
            self._prepared[path] = prepared
        return prepared


_CACHING = [("Cache-Control", "public, max-age=2")]


@frozen
class _Prepared:
    encoded: Encoded
    ok: list[tuple[str, str]]
    not_modified: list[tuple[str, str]]


def _matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    candidates = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return etag in candidates or "*" in candidates
