"""``vpnsite serve --demo``: simulated servers for the eight locations of the specification, each
with a real agent posting through the real heartbeat API and a real port for the hub to ping, so a
newcomer sees a live status page. Everything about it says demo: the logs and the API."""

from __future__ import annotations

import logging
import random
import socket
from collections.abc import Callable, Iterable
from typing import Protocol

from vpnsite.fleet import SPEC_LOCATIONS, Heartbeat, Location
from vpnsite.keyed_hashes import KeyedHash, Keyring
from vpnsite.ports import RandomSource, UnitOfWork
from vpnsite.server_tokens import issue_server_token
from vpnsite_node.agent import NodeAgent
from vpnsite_node.hub import HubClient

log = logging.getLogger("vpnsite.demo")

# A reserved top-level domain: the demo's profiles look real and can reach nobody.
DEMO_DOMAIN = "demo.invalid"
# The demo's servers listen on this machine, where a connection takes no time: the hub measures
# each as this far away (typical round trips from London, in milliseconds), give or take a few.
DEMO_ROUND_TRIPS_MS = {"nl": 9, "de": 13, "ch": 18, "it": 25, "pl": 28, "lv": 37, "ro": 45, "us": 76}


class SimulatedServer:
    """Load and sessions that wander like a real server's over a day."""

    def __init__(self, rng: random.Random, popularity: float) -> None:
        self.rng = rng
        self.popularity = popularity
        self.load = rng.uniform(10, 60)
        self.sessions = int(popularity * rng.uniform(20, 120))

    def __call__(self) -> Heartbeat:
        self.load = min(97.0, max(3.0, self.load + self.rng.gauss(0, 6)))
        target = self.popularity * self.load * 3
        self.sessions = max(0, int(self.sessions + (target - self.sessions) * 0.3 + self.rng.gauss(0, 4)))
        return Heartbeat(
            cpu_load=self.load,
            bandwidth_mbps=self.sessions * self.rng.uniform(1.5, 4.0),
            sessions=self.sessions,
            service_up=True,
        )


def _round_trip(rng: random.Random, typical: float) -> Callable[[], float]:
    """A round trip that varies as a real one does: a few per cent around the typical one, now and
    then a few milliseconds more."""
    return lambda: typical * rng.uniform(0.94, 1.08) + (rng.uniform(2, 9) if rng.random() < 0.1 else 0)


class DemoServers(Protocol):
    def add_locations(self, locations: Iterable[Location]) -> None: ...

    def set_token(self, server_id: str, token: KeyedHash) -> bool: ...

    def set_address(self, server_id: str, host: str | None, port: int | None) -> None: ...

    def set_openvpn_ports(self, server_id: str, udp_port: int | None, tcp_port: int | None) -> None: ...


class DemoFleet:
    def __init__(
        self,
        fleet: DemoServers,
        unit_of_work: UnitOfWork,
        keys: Keyring,
        random_source: RandomSource,
        hub: str,
        interval: float = 10.0,
    ) -> None:
        self.fleet = fleet
        self.unit_of_work = unit_of_work
        self.keys = keys
        self.random_source = random_source
        self.hub = hub
        self.interval = interval
        self.agents: dict[str, NodeAgent] = {}
        self.listeners: list[socket.socket] = []
        # The names in the demo's profiles, the local listeners the hub pings instead, and the
        # distance the hub adds to what it measures there.
        self.reach_at: dict[str, str] = {}
        self.distance: dict[str, Callable[[], float]] = {}

    def start(self) -> None:
        rng = random.Random()
        with self.unit_of_work.atomic():
            self.fleet.add_locations(SPEC_LOCATIONS)
        for location in SPEC_LOCATIONS:
            listener = socket.create_server(("127.0.0.1", 0))
            self.listeners.append(listener)
            host = f"{location.id}.{DEMO_DOMAIN}"
            with self.unit_of_work.atomic():
                token = issue_server_token(self.fleet, location.id, self.keys, self.random_source)
                assert token is not None, "the demo's locations were added just above"
                self.fleet.set_address(location.id, host, listener.getsockname()[1])
                self.fleet.set_openvpn_ports(location.id, 1194, 443)
            self.reach_at[host] = "127.0.0.1"
            self.distance[host] = _round_trip(rng, DEMO_ROUND_TRIPS_MS.get(location.country, 30))
            agent = NodeAgent(
                HubClient(self.hub, token),
                SimulatedServer(rng, popularity=rng.uniform(0.3, 1.8)),
                self.interval,
                name=f"demo-agent-{location.id}",
            )
            self.agents[location.id] = agent
            agent.start()
        log.warning("DEMO: %d simulated VPN servers report to %s", len(self.agents), self.hub)

    def stop_agent(self, server_id: str) -> None:
        self.agents.pop(server_id).stop()

    def stop(self) -> None:
        for agent in self.agents.values():
            agent.stop()
        self.agents.clear()
        for listener in self.listeners:
            listener.close()
