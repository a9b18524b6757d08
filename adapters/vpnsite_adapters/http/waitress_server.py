"""The waitress servers `vpnsite serve` runs — the public listener and, when it has one of its own,
the VPN servers' — with how they are tuned and what they decide before the app runs."""

from __future__ import annotations

import json
from typing import Any

import waitress
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import BaseWSGIServer
from waitress.task import WSGITask
from waitress.utilities import Error, RequestEntityTooLarge

from vpnsite_adapters.http.graceful_stop import GracefulServer
from vpnsite_adapters.http.languages import pick_language
from vpnsite_adapters.http.messages import detail_text
from vpnsite_adapters.http.node.gate import HEARTBEAT_BODY_BYTES, NODE_PATHS, NodeGate, Verdict, peer_address
from vpnsite_adapters.settings import Settings

# select() cannot watch a descriptor numbered 1,024 or above; poll() can, but waitress's poll loop
# now and then spins for seconds, cutting throughput to a quarter (the bare "hello" app too: six
# runs of eight, against none with select()). Up to this many connections select() is used, with room
# left for the process's own descriptors: database connections, files, pipes.
SELECT_CONNECTIONS = 800
# The website's largest request (a support message, a form) is a few KB; the app refuses more
# than 16 KiB with its own answer. Anything larger is cut off while it is read, chunked or not.
PUBLIC_BODY_BYTES = 64 * 1024


class _KeepAliveTask(WSGITask):  # type: ignore[misc]
    """waitress closes the connection after every answer without a body (304, 204) because it has
    no Content-Length, though HTTP/1.1 needs none there (RFC 9112, 6.3). Every open page polls
    with If-None-Match and mostly gets 304: each poll would cost a new connection."""

    def set_close_on_finish(self) -> None:
        asked_to_close = self.request.headers.get("CONNECTION", "").lower() == "close"
        if self.has_body or self.version != "1.1" or asked_to_close:
            super().set_close_on_finish()

    def build_response_header(self) -> bytes:
        # While the server stops, every answer says the connection ends with it, so no client
        # sends another request on a connection about to close.
        if self.channel.server.draining:
            WSGITask.set_close_on_finish(self)
        return super().build_response_header()  # type: ignore[no-any-return]


class _Refusal(Error):  # type: ignore[misc]
    """An answer the listener gives itself, in the API's own form: ``{"detail", "code"}``."""

    def __init__(self, status: int, reason: str, code: str, language: str, **params: object) -> None:
        super().__init__(detail_text(code, language, **params))
        self.code, self.reason, self.api_code = status, reason, code
        self.headers: list[tuple[str, str]] = []

    def to_response(self, ident: str | None = None) -> tuple[str, list[tuple[str, str]], bytes]:
        body = json.dumps({"detail": self.body, "code": self.api_code}, ensure_ascii=False).encode()
        headers = [("Content-Type", "application/json"), ("X-Content-Type-Options", "nosniff")]
        return f"{self.code} {self.reason}", headers + self.headers, body


class _BodyLimit:
    """A listener's settings with another body limit, for one request."""

    def __init__(self, adj: Any, limit: int) -> None:
        self._adj = adj
        self.max_request_body_size = limit

    def __getattr__(self, name: str) -> Any:
        return getattr(self._adj, name)


class _Parser(HTTPRequestParser):  # type: ignore[misc]
    """Once a request's headers are in, and before its body is read: a node call is let send as
    much as its token allows, or refused (see node_gate); a body over the limit is refused in
    the API's words."""

    verdict: Verdict | None = None

    def __init__(self, adj: Any, channel: Any) -> None:
        super().__init__(adj)
        self.channel = channel

    def parse_header(self, header_plus: bytes) -> None:
        super().parse_header(header_plus)
        gate: NodeGate | None = self.channel.server.node_gate
        if gate is not None and self.path.startswith(NODE_PATHS):
            peer = self.channel.addr[0] if self.channel.addr else None
            forwarded = self.headers.get("X_FORWARDED_FOR", "")
            address = peer_address(peer, forwarded, self.channel.server.trusted_proxies)
            self.verdict = gate.verdict(self.headers.get("AUTHORIZATION", ""), address)
            self.adj: Any = _BodyLimit(self.adj, self.verdict.body_limit)

    def received(self, data: bytes) -> int:
        consumed: int = super().received(data)
        verdict = self.verdict
        if verdict is not None and verdict.status is not None and self.headers_finished:
            self.error = self._refusal(verdict)
            self.completed = True
        elif isinstance(self.error, RequestEntityTooLarge) and not isinstance(self.error, _Refusal):
            if verdict is not None and verdict.body_limit < HEARTBEAT_BODY_BYTES:
                # Only a token the hub knows sends this much: this one is not (yet) one.
                self.error = self._refusal(Verdict(status=401))
            else:
                limit = self.adj.max_request_body_size // 1024
                language = pick_language(self.headers.get("ACCEPT_LANGUAGE"))
                self.error = _Refusal(413, "Payload Too Large", "payload_too_large", language, limit=limit)
        return consumed

    def _refusal(self, verdict: Verdict) -> _Refusal:
        if verdict.status == 429:
            refusal = _Refusal(429, "Too Many Requests", "rate_limited", "en", seconds=verdict.retry_after)
            refusal.headers.append(("Retry-After", str(verdict.retry_after)))
            return refusal
        refusal = _Refusal(401, "Unauthorized", "node_unauthorized", "en")
        refusal.headers.append(("WWW-Authenticate", "Bearer"))
        return refusal


class _Channel(HTTPChannel):  # type: ignore[misc]
    task_class = _KeepAliveTask

    def parser_class(self, adj: Any) -> _Parser:
        return _Parser(adj, self)


def create_graceful_server(
    public_app: Any, settings: Settings, gate: NodeGate | None = None
) -> GracefulServer:
    """The public listener serving ``public_app``; ``gate`` guards the node API when it is
    served there too."""
    sockets: dict[int, Any] = {}
    servers = [create_server(public_app, settings, sockets, gate=gate)]
    return GracefulServer(servers, sockets, settings.shutdown_timeout)


def create_node_server(node_app: Any, settings: Settings, listener: Any, gate: NodeGate) -> GracefulServer:
    """The node API's own process serving ``node_app`` on ``listener``, a socket the hub bound."""
    watched: dict[int, Any] = {}
    server = create_server(
        node_app, settings, watched, gate=gate, sockets=[listener], threads=settings.node_threads
    )
    return GracefulServer([server], watched, settings.shutdown_timeout)


def create_server(
    app: Any,
    settings: Settings,
    listeners: dict[int, Any] | None = None,
    gate: NodeGate | None = None,
    **where: Any,
) -> Any:
    """``listeners``: the map of every socket the server watches (its own if not given);
    ``where``: threads and the sockets (bound already) other than the public listener's."""
    listeners = {} if listeners is None else listeners
    address = {} if "sockets" in where else {"host": settings.host, "port": settings.port}
    options: dict[str, Any] = {
        **address,
        "threads": settings.threads,
        # No Server header: what answers is nobody's business.
        "ident": "",
        **where,
    }
    known = set(listeners)
    server = waitress.create_server(
        app,
        map=listeners,
        # The app decides whose X-Forwarded-* to believe (VPNSITE_TRUSTED_PROXIES takes networks).
        clear_untrusted_proxy_headers=False,
        # Refused while reading, not after; a node call's limit is set by its token (_Parser).
        max_request_body_size=PUBLIC_BODY_BYTES,
        connection_limit=settings.connection_limit,
        channel_timeout=settings.channel_timeout,
        cleanup_interval=max(1, min(10, settings.channel_timeout // 2)),
        asyncore_use_poll=settings.connection_limit > SELECT_CONNECTIONS,
        **options,
    )
    for fileno, listener in listeners.items():
        if fileno not in known and isinstance(listener, BaseWSGIServer):
            listener.channel_class = _Channel
            listener.draining = False
            listener.node_gate = gate
            listener.trusted_proxies = settings.trusted_proxies
    return server
