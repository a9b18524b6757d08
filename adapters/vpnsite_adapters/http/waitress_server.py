"""The waitress server `vpnsite serve` runs, with how it is tuned and one correction."""

from __future__ import annotations

from typing import Any

import waitress
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer
from waitress.task import WSGITask

from vpnsite_adapters.http.graceful_stop import GracefulServer
from vpnsite_adapters.http.node_api import HEARTBEAT_BODY_BYTES as MAX_REQUEST_BYTES
from vpnsite_adapters.settings import Settings

# select() cannot watch a descriptor numbered 1,024 or above; poll() can, but waitress's poll loop
# now and then spins for seconds, cutting throughput to a quarter (the bare "hello" app too: six
# runs of eight, against none with select()). Up to this many connections select() is used, with room
# left for the process's own descriptors: database connections, files, pipes.
SELECT_CONNECTIONS = 800


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


class _Channel(HTTPChannel):  # type: ignore[misc]
    task_class = _KeepAliveTask


def create_graceful_server(app: Any, settings: Settings) -> GracefulServer:
    sockets: dict[int, Any] = {}
    return GracefulServer(create_server(app, settings, sockets), sockets, settings.shutdown_timeout)


def create_server(app: Any, settings: Settings, listeners: dict[int, Any] | None = None) -> Any:
    """``listeners``: the map of every socket the server watches (its own if not given)."""
    listeners = {} if listeners is None else listeners
    server = waitress.create_server(
        app,
        map=listeners,
        host=settings.host,
        port=settings.port,
        threads=settings.threads,
        ident="vpnsite",
        # The app decides whose X-Forwarded-* to believe (VPNSITE_TRUSTED_PROXIES takes networks).
        clear_untrusted_proxy_headers=False,
        # Refused while reading, not after: nothing the API accepts is larger.
        max_request_body_size=MAX_REQUEST_BYTES,
        connection_limit=settings.connection_limit,
        channel_timeout=settings.channel_timeout,
        cleanup_interval=max(1, min(10, settings.channel_timeout // 2)),
        asyncore_use_poll=settings.connection_limit > SELECT_CONNECTIONS,
    )
    for listener in listeners.values():
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = _Channel
            listener.draining = False
    return server
