"""Restarts: how long each client goes without its tunnel when its server restarts.

In the namespace world of tests/vpn (a real `vpnsite serve`, real `vpnsite node run`, real
OpenVPN 2.6 clients), a UDP and a TCP client of server B ping through their tunnels five times a
second while

1. planned: the node is stopped (SIGTERM) and started again, as `systemctl restart` does;
2. crash: both of the node's OpenVPN processes are killed (SIGKILL), and the node starts them again.

Per client it prints the hole (the longest time without an answer) and when the client was back,
counted from the moment the new node (planned) or the new OpenVPN (crash) was up: the medians and
the worst of ``--rounds`` rounds, for the profiles as the hub hands them out ("shipped") and, as
the baseline in the same run, for the same profiles without their reconnect options ("bare":
OpenVPN's defaults, the profiles before issue 40). The targets: back within 3 s of the new node
after a planned restart, within 12 s of the kill after a crash.

Usage (root, openvpn; other users of the namespaces wait on the lock):
``flock /tmp/vpn-suite.lock python bench/restart_gap.py [--rounds 3]``
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.vpn.pings import TimedPings, hole_after  # noqa: E402
from tests.vpn.world import World, missing, poll  # noqa: E402

from vpnsite_adapters.vpn.profiles import UDP_RECONNECT  # noqa: E402

SERVER = "vpn-b"
GATEWAY = {"udp": "10.8.0.1", "tcp": "10.9.0.1"}
# Seconds of pings per round: before the restart, through it and well after the slowest return.
PING_SECONDS = 30
SETTLE_SECONDS = 3


def bare(profile: str) -> str:
    """The profile without the options that bring a client back soon after a restart."""
    dropped = set(UDP_RECONNECT.splitlines())
    return "".join(line for line in profile.splitlines(keepends=True) if line.strip() not in dropped)


def node_log(world: World) -> Path:
    return world.tmp / f"{SERVER}-node.log"


def planned_restart(world: World) -> float:
    """SIGTERM to the node, a new one started at once; when it is up (time.time())."""
    world.stop_node(SERVER)
    node_log(world).rename(world.tmp / f"{SERVER}-node-{time.monotonic_ns()}.log")
    world.start_node(SERVER, world.b, world.node_dirs[SERVER])
    world.wait_until_serving()
    return time.time()


def openvpn_crash(world: World) -> float:
    """SIGKILL to both OpenVPN processes (the pids the node reports); when both are up again."""

    def starts() -> int:
        return node_log(world).read_text(errors="replace").count(" is up and hands its logins")

    before = starts()
    for protocol in ("udp", "tcp"):
        os.kill(world.openvpn_pid(SERVER, protocol), signal.SIGKILL)
    assert poll(lambda: starts() >= before + 2, 40), node_log(world).read_text()[-3000:]
    return time.time()


def one_round(
    world: World, logins: dict[str, tuple[str, str, str]], variant: str, restart: Callable[[World], float]
) -> dict[str, tuple[float, float]]:
    """Per protocol: (the hole, back how long after the new server was up)."""
    clients, pings = {}, {}
    for protocol, (email, code, profile) in logins.items():
        clients[protocol] = world.connect(profile if variant == "shipped" else bare(profile), email, code)
    for protocol, client in clients.items():
        assert client.wait_connected(), client.text()
        pings[protocol] = TimedPings(world.client_b, GATEWAY[protocol], PING_SECONDS)
    time.sleep(SETTLE_SECONDS)
    began = time.time()
    up = restart(world)
    measured = {}
    for protocol, client in clients.items():
        hole = hole_after(pings[protocol].answered(), began - 1)
        if hole is None or hole.back < up:
            raise RuntimeError(f"{variant} {protocol}: never back\n{client.text()[-3000:]}")
        measured[protocol] = (hole.seconds, hole.back - up)
        client.stop()
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    reason = missing()
    if reason is not None:
        sys.exit(f"restart_gap: {reason}")
    world = World(Path(tempfile.mkdtemp(prefix="vpnsite-restart-gap-")), wireguard=False)
    try:
        world.build()
        logins = {}
        for protocol in ("udp", "tcp"):
            email = f"gap-{protocol}@example.org"
            code, profiles = world.sign_up(email)
            logins[protocol] = (email, code, profiles[f"{SERVER}-{protocol}.ovpn"])
        results: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
        for kind, restart in (("planned", planned_restart), ("crash", openvpn_crash)):
            for variant in ("bare", "shipped"):
                for n in range(1, args.rounds + 1):
                    if kind == "crash":
                        # A new node: its OpenVPN restarts after a crash with no backoff left
                        # over from the previous round's.
                        planned_restart(world)
                    for protocol, pair in one_round(world, logins, variant, restart).items():
                        results.setdefault((kind, variant, protocol), []).append(pair)
                        print(
                            f"{kind:8} {variant:8} {protocol} round {n}: hole {pair[0]:4.1f} s, "
                            f"back {pair[1]:+.1f} s after the new server was up",
                            flush=True,
                        )
    finally:
        world.close()
    print(f"\nmedian (worst) of {args.rounds} rounds; 'back' counts from the new node/OpenVPN being up")
    print(f"{'restart':8} {'profile':8} {'client':6} {'hole s':>14} {'back s':>14}")
    for (kind, variant, protocol), figures in results.items():
        holes, backs = [f[0] for f in figures], [f[1] for f in figures]
        print(
            f"{kind:8} {variant:8} {protocol:6} {statistics.median(holes):7.1f} ({max(holes):4.1f})"
            f" {statistics.median(backs):+7.1f} ({max(backs):+4.1f})"
        )


if __name__ == "__main__":
    main()
