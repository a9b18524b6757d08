"""The metrics on a listener of their own (``VPNSITE_METRICS_ADDRESS``), apart from the public site:
prometheus_client's threaded server, started and stopped with `vpnsite serve`."""

from __future__ import annotations

from threading import Thread
from wsgiref.simple_server import WSGIServer

from attrs import frozen
from prometheus_client import start_http_server

from vpnsite_adapters.metrics.registry import Metrics


@frozen
class MetricsListener:
    server: WSGIServer
    thread: Thread

    @classmethod
    def start(cls, metrics: Metrics, host: str, port: int) -> MetricsListener:
        """Raises OSError when the address cannot be bound."""
        server, thread = start_http_server(port, addr=host, registry=metrics.exposed)
        return cls(server, thread)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
