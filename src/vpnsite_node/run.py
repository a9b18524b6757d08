"""`vpnsite node run --dir DIR`: the whole VPN server in one supervised process — forwarding and
NAT, an OpenVPN process per protocol answered through its management socket, WireGuard when the
directory has it, and the agent that reports to the hub. SIGTERM stops everything cleanly."""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Iterable
from pathlib import Path

from vpnsite_node.agent import HostMeasure, NodeAgent
from vpnsite_node.config import DENY_LIST, KEY_CHECK, RUN_DIR, NodeConfig
from vpnsite_node.gatekeeper import Gatekeeper
from vpnsite_node.hub import HubClient
from vpnsite_node.networking import Nat
from vpnsite_node.openvpn import OpenVpnInstance
from vpnsite_node.wireguard_interface import WireguardInterface, WireguardMissing
from vpnsite_node.wireguard_sessions import WireguardSessions

log = logging.getLogger("vpnsite.node")

STOP_SECONDS = 10.0


def run_node(directory: Path, nat: bool = True, user: str = "nobody", interval: float = 10.0) -> int:
    config = NodeConfig.load(directory)
    # Every path in the directory is relative to it, so it works wherever it was copied.
    os.chdir(directory)
    # OpenVPN runs the key check as its unprivileged user: it must reach the script and the deny
    # list, whatever modes a copy left (the keys and node.json stay readable by root only).
    directory.chmod(0o755)
    if Path(KEY_CHECK).exists():
        Path(KEY_CHECK).chmod(0o755)
    deny_list = Path(DENY_LIST)
    if not deny_list.exists():
        deny_list.write_text("")
    deny_list.chmod(0o644)
    # The management sockets: whoever connects first answers the logins, so only root may reach them.
    Path(RUN_DIR).mkdir(mode=0o700, exist_ok=True)
    os.chown(RUN_DIR, 0, 0)
    Path(RUN_DIR).chmod(0o700)

    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())

    hub = HubClient(config.hub, config.token, config.exit_addresses)
    gatekeeper = Gatekeeper(hub, config.site)
    instances = [OpenVpnInstance(instance, gatekeeper, user, stopping) for instance in config.instances]
    network = Nat(config.subnets, config.subnets6) if nat else None
    wireguard = WireguardInterface(config.wireguard) if config.wireguard else None
    peers = WireguardSessions(config.wireguard.interface) if config.wireguard else None
    wireguard_runs: bool | None = None if wireguard is None else True

    def held() -> list[tuple[str, str, str]]:
        return gatekeeper.held() + (peers.held() if peers is not None else [])

    def connected() -> int:
        # A heartbeat lists the connections (``held``) before it counts them: no second look.
        return gatekeeper.established() + (peers.connected if peers is not None else 0)

    def end(sessions: Iterable[str]) -> None:
        ending = list(sessions)
        gatekeeper.end(ending)
        if peers is not None:
            peers.end(ending)

    started: list[OpenVpnInstance] = []
    agent: NodeAgent | None = None
    try:
        if network is not None:
            network.up()
        if wireguard is not None:
            try:
                wireguard.up()
            except WireguardMissing as lacking:
                # WireGuard is an option: OpenVPN serves all the same, and the hub, told by the
                # heartbeats, offers no WireGuard profile for this server.
                log.warning(
                    "WireGuard is off: this machine lacks %s (apt-get install %s), OpenVPN serves alone",
                    lacking,
                    lacking,
                )
                wireguard, peers, wireguard_runs = None, None, False
        agent = NodeAgent(
            hub,
            HostMeasure(connected, lambda: all(instance.up for instance in instances), wireguard_runs),
            interval,
            name="node-agent",
            connections=held,
            end=end,
            deny_list=deny_list,
            wireguard=peers,
        )
        # The key check reads the deny list before the first client arrives.
        agent.sync_deny_list()
        for instance in instances:
            instance.start()
            started.append(instance)
        agent.start()
        log.info("node %s serving %d OpenVPN instance(s); hub %s", config.server, len(instances), config.hub)
        stopping.wait()
    finally:
        stopping.set()
        log.info("stopping")
        if agent is not None:
            agent.stop()
        # UDP first: its OpenVPN tells its clients to reconnect and takes 2 s to let them hear
        # it, while TCP clients keep their tunnel. Closed last, TCP clients begin their attempts
        # (1 s apart for the first five, then ever slower) as late as can be, near the new node.
        for instance in sorted(started, key=lambda instance: instance.instance.protocol == "tcp"):
            instance.stop()
            instance.join(STOP_SECONDS)
        if peers is not None:
            peers.stop()
        if started and agent is not None:
            # Tell the hub at once that nothing is held here any more.
            agent.beat()
        gatekeeper.close()
        if wireguard is not None:
            wireguard.down()
        if network is not None:
            network.down()
    return 0
