"""The agent on each VPN server: every ten seconds it tells the hub how the server is doing and
which connections it holds, cuts those the hub says must end, and keeps the deny list and the
WireGuard peers in sync."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from vpnsite.fleet import HEARTBEAT_PERIOD, Heartbeat
from vpnsite_node.hub import HubClient
from vpnsite_node.wireguard_sessions import WireguardSessions

log = logging.getLogger("vpnsite.node")


class NodeAgent:
    def __init__(
        self,
        hub: HubClient,
        measure: Callable[[], Heartbeat],
        interval: float = HEARTBEAT_PERIOD.total_seconds(),
        name: str = "node-agent",
        connections: Callable[[], Sequence[tuple[str, str, str]]] | None = None,
        end: Callable[[Iterable[str]], object] | None = None,
        deny_list: Path | None = None,
        wireguard: WireguardSessions | None = None,
    ) -> None:
        self.hub = hub
        self.measure = measure
        self.interval = interval
        self.name = name
        self.connections = connections
        self.end = end
        self.deny_list = deny_list
        self.wireguard = wireguard
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def beat(self, beat: Heartbeat | None = None) -> bool:
        held = self.connections() if self.connections is not None else None
        ending = self.hub.heartbeat(beat or self.measure(), held)
        if ending is None:
            return False
        if ending and self.end is not None:
            self.end(ending)
        return True

    def sync_deny_list(self) -> None:
        """Copy the hub's list of refused licences where the key check reads it (atomically)."""
        if self.deny_list is None:
            return
        body = self.hub.deny_list()
        if body is None:
            return
        partial = self.deny_list.with_suffix(".partial")
        partial.write_bytes(body)
        partial.chmod(0o644)
        partial.replace(self.deny_list)

    def sync_wireguard_peers(self) -> None:
        """Make the WireGuard interface's peers the hub's list."""
        if self.wireguard is None:
            return
        listed = self.hub.wireguard_peers()
        if listed is not None:
            self.wireguard.sync(listed)

    def run(self) -> None:
        """Beat until stopped; after a failure try again sooner, so a restarted hub hears at once."""
        while not self._stop.is_set():
            delivered = self.beat()
            if delivered:
                self.sync_deny_list()
                self.sync_wireguard_peers()
            self._stop.wait(self.interval if delivered else min(2.0, self.interval))

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)


class HostMeasure:
    """Load and traffic of this host from /proc; sessions and service health from the node."""

    def __init__(
        self, sessions: Callable[[], int], service_up: Callable[[], bool], wireguard: bool | None = None
    ) -> None:
        self.sessions = sessions
        self.service_up = service_up
        self.wireguard = wireguard
        self._cpu = _cpu_times()
        self._net = (_net_bytes(), time.monotonic())

    def __call__(self) -> Heartbeat:
        cpu = _cpu_times()
        busy, total = cpu[0] - self._cpu[0], cpu[1] - self._cpu[1]
        self._cpu = cpu
        moved, now = _net_bytes(), time.monotonic()
        seconds = max(now - self._net[1], 1e-6)
        mbps = max(0.0, (moved - self._net[0]) * 8 / seconds / 1e6)
        self._net = (moved, now)
        return Heartbeat(
            cpu_load=min(100.0, max(0.0, 100.0 * busy / total if total else 0.0)),
            bandwidth_mbps=min(mbps, 1e6),
            sessions=self.sessions(),
            service_up=self.service_up(),
            wireguard=self.wireguard,
        )


def _cpu_times() -> tuple[int, int]:
    try:
        fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


def _net_bytes() -> int:
    try:
        lines = Path("/proc/net/dev").read_text().splitlines()[2:]
    except OSError:
        return 0
    total = 0
    for line in lines:
        name, _, data = line.partition(":")
        if name.strip() != "lo":
            fields = data.split()
            total += int(fields[0]) + int(fields[8])
    return total
