"""The two endpoints every open page polls, answered before Flask sees the request.

They only copy bytes from the in-memory snapshot, and at a few thousand requests per second the
framework's per-request machinery would cost more than the answer itself. A client that accepts
gzip gets the snapshot's compressed copy (made once per refresh), under an ETag of its own.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import Any

from attrs import frozen

from vpnsite_adapters.http.described import Call, described
from vpnsite_adapters.http.languages import pick_language
from vpnsite_adapters.http.messages import detail_text
from vpnsite_adapters.http.request_ids import HEADER, choose_request_id
from vpnsite_adapters.http.weighted_header import weighted
from vpnsite_adapters.jobs.status_snapshot import Encoded, StatusSnapshot
from vpnsite_contract import website
from vpnsite_contract.structuring import unstructure
from vpnsite_contract.website import Error

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
# method, path, status, seconds, route, request id
AccessLog = Callable[[str, str, int, float, str, str], None]
# The increment of one (route, method, status) in the request metrics, resolved once.
RequestCounter = Callable[[str, str, int], Callable[[], None]]

# Sent on every answer to a request that came over HTTPS (directly or from a trusted proxy).
HSTS = ("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
ALLOW = "GET, HEAD, OPTIONS"


USER_COUNT = described(
    Call(
        "/api/user-count",
        "Users holding a live licence, and the free tier's cap",
        website.UserCount,
        method="get",
        polled=True,
    )
)
SERVER_STATUS = described(
    Call("/api/server-status", "VPN and system servers", website.ServerStatus, method="get", polled=True)
)


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
            USER_COUNT.path: lambda: snapshot.user_count,
            SERVER_STATUS.path: lambda: snapshot.server_status,
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
            language = pick_language(environ.get("HTTP_ACCEPT_LANGUAGE"))
            refused = Error(detail_text("method_not_allowed", language), "method_not_allowed")
            body = json.dumps(unstructure(refused), ensure_ascii=False).encode()
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
        allowed = origin in self.cors_origins
        cors = [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")] if allowed else []
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
        encoded = prepared.encoded
        ok, not_modified = self.counted[environ["PATH_INFO"]][method]
        compressed = encoded.gzipped is not None and accepts_gzip(environ.get("HTTP_ACCEPT_ENCODING"))
        sent = (encoded.gzip_etag if compressed else None) or encoded.etag
        held = _held(environ.get("HTTP_IF_NONE_MATCH"), encoded, sent)
        if held is not None:
            status, headers, body = "304 Not Modified", prepared.not_modified[held], b""
            not_modified()
        elif compressed:
            status, headers, body = "200 OK", prepared.ok_gzip, encoded.gzipped or b""
            ok()
        else:
            status, headers, body = "200 OK", prepared.ok, encoded.body
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
            ok = [*self.security_headers, *_CACHING, ("Content-Type", "application/json")]
            # The browser keeps the headers it stored with the 200; a 304 carries what may have
            # changed (RFC 9110, 15.4.5), and the ETag of the copy the client holds.
            not_modified = {encoded.etag: [*_CACHING, ("ETag", encoded.etag)]}
            if encoded.gzip_etag is not None:
                not_modified[encoded.gzip_etag] = [*_CACHING, ("ETag", encoded.gzip_etag)]
            prepared = _Prepared(
                encoded,
                ok=[*ok, ("ETag", encoded.etag), ("Content-Length", str(len(encoded.body)))],
                ok_gzip=[
                    *ok,
                    ("ETag", encoded.gzip_etag or encoded.etag),
                    ("Content-Encoding", "gzip"),
                    ("Content-Length", str(len(encoded.gzipped or b""))),
                ],
                not_modified=not_modified,
            )
            self._prepared[path] = prepared
        return prepared


# Every answer may be compressed, so every answer says what it depends on.
_CACHING = [("Cache-Control", "public, max-age=2"), ("Vary", "Accept-Encoding")]


@frozen
class _Prepared:
    encoded: Encoded
    ok: list[tuple[str, str]]
    ok_gzip: list[tuple[str, str]]
    # By the ETag the client holds.
    not_modified: dict[str, list[tuple[str, str]]]


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` takes gzip: named (or ``*``) with a weight above zero, and
    not refused by name (RFC 9110, 12.5.3)."""
    weights = dict(weighted(accept_encoding))
    named = weights.get("gzip", weights.get("x-gzip"))
    return (named if named is not None else weights.get("*", 0.0)) > 0


def _held(if_none_match: str | None, encoded: Encoded, sent: str) -> str | None:
    """The current ETag the client says it holds (identity or gzip), or None; for ``*``, the one
    it would be ``sent``."""
    if not if_none_match:
        return None
    candidates = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    if "*" in candidates:
        return sent
    return next((tag for tag in (encoded.etag, encoded.gzip_etag) if tag in candidates), None)
