"""What the hub measures itself: the ping of each VPN server (TCP connect time to its port) and
the health of the billing service, every ten seconds."""

from __future__ import annotations

import socket
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from vpnsite.fleet import VpnServer
from vpnsite.ports import UnitOfWork
from vpnsite_contract.website import Status, SystemServer

CONNECT_TIMEOUT = 2.0
PROBE_SECONDS = 10.0


def tcp_ping_ms(host: str, port: int, timeout: float = CONNECT_TIMEOUT) -> int | None:
    started = time.perf_counter()
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return round((time.perf_counter() - started) * 1000)
    except OSError:
        return None


class ProbedFleet(Protocol):
    def list_servers(self) -> list[VpnServer]: ...

    def set_ping(self, server_id: str, ping_ms: int | None) -> None: ...


class FleetProbe:
    def __init__(self, fleet: ProbedFleet, unit_of_work: UnitOfWork, billing_url: str | None) -> None:
        self.fleet = fleet
        self.unit_of_work = unit_of_work
        self.billing_url = billing_url
        # None when there is no billing service to check: the status page does not list it.
        self.billing: SystemServer | None = _billing_entry("offline", None) if billing_url else None
        # Where a name clients use is not where the hub reaches the server (the demo's servers),
        # and how far away such a server is simulated to be: milliseconds added to what is measured.
        self.reach_at: dict[str, str] = {}
        self.distance: dict[str, Callable[[], float]] = {}
        self._pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="probe")

    def probe(self) -> None:
        with self.unit_of_work.scope():
            targets = [
                (s.location.id, s.host, s.port) for s in self.fleet.list_servers() if s.host and s.port
            ]
        # The connection goes back to the pool while the probes wait on the network.
        pings = list(self._pool.map(lambda t: self._ping(t[1], t[2]), targets))
        with self.unit_of_work.scope():
            for (server_id, _, _), ping in zip(targets, pings, strict=True):
                self.fleet.set_ping(server_id, ping)
        if self.billing_url:
            self.billing = self._check_billing(self.billing_url)

    def _ping(self, host: str, port: int) -> int | None:
        measured = tcp_ping_ms(self.reach_at.get(host, host), port)
        away = self.distance.get(host)
        return measured if measured is None or away is None else measured + round(away())

    @staticmethod
    def _check_billing(url: str) -> SystemServer:
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(url, timeout=CONNECT_TIMEOUT) as response:  # noqa: S310
                healthy = 200 <= response.status < 300
        except OSError:
            healthy = False
        elapsed = round((time.perf_counter() - started) * 1000)
        return _billing_entry("online" if healthy else "offline", elapsed if healthy else None)


def _billing_entry(status: Status, ping: int | None) -> SystemServer:
    return SystemServer(id="billing", location="Hub", status=status, ping=ping, load=None)
