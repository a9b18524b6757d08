"""Tunnel throughput: a vpnsite node's OpenVPN against a stock OpenVPN beside it.

In the namespace world of tests/vpn (a real `vpnsite serve` and `vpnsite node run`), server B's
namespace also runs a hand-configured stock OpenVPN 2.6 server, UDP and TCP, with the same data
cipher (AES-256-GCM), the same certificate and the same scheduling priority the node gives its
own OpenVPN, and nothing else of the node's: no management socket, no tls-crypt-v2, no session
tokens, logins accepted by /bin/true. One client namespace holds a client of each, the vpnsite
ones from the profiles the hub hands out. iperf3 sends one TCP stream through each tunnel to an
iperf3 server on server B, ``--seconds`` at a time, the four tunnels in turn (the order turned
round every round), ``--rounds`` rounds.

It prints the median Mbit/s of each tunnel and the ratio vpnsite/stock per transport, and what
the node said of data channel offload (both sides use it alike: the same OpenVPN, the same kernel).

Usage (root, openvpn, iperf3; other users of the namespaces wait on the lock):
``flock /tmp/vpn-suite.lock python bench/tunnel_throughput.py [--rounds 5] [--seconds 5]``
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.vpn.netns import wait_for  # noqa: E402
from tests.vpn.world import CONNECTED, World, missing  # noqa: E402

from vpnsite_node.openvpn import DATA_PLANE_PRIORITY  # noqa: E402

SERVER = "vpn-b"
SERVER_ADDRESS = "10.77.4.1"
IPERF_PORT = "5201"
# Where each tunnel's server end answers: the node's subnets, and the stock server's own.
GATEWAY = {
    "vpnsite-udp": "10.8.0.1",
    "vpnsite-tcp": "10.9.0.1",
    "stock-udp": "10.20.0.1",
    "stock-tcp": "10.21.0.1",
}
STOCK = {"udp": ("udp", 1195, "10.20.0.0"), "tcp": ("tcp-server", 1444, "10.21.0.0")}
CIPHER = "AES-256-GCM"


def stock_server(protocol: str) -> str:
    proto, port, network = STOCK[protocol]
    return f"""port {port}
proto {proto}
dev tun-stock{protocol[0]}
topology subnet
server {network} 255.255.255.0
ca ca.crt
cert server.crt
key server.key
dh none
data-ciphers {CIPHER}
verify-client-cert none
script-security 2
auth-user-pass-verify /bin/true via-env
keepalive 10 60
verb 3
"""


def stock_client(protocol: str) -> str:
    proto, port, _ = STOCK[protocol]
    return f"""client
dev tun
proto {"udp" if proto == "udp" else "tcp-client"}
remote {SERVER_ADDRESS} {port}
nobind
remote-cert-tls server
data-ciphers {CIPHER}
auth-user-pass
ca ca.crt
verb 3
"""


def start_stock(world: World, directory: Path) -> None:
    """The stock servers, in server B's namespace, at the priority the node gives OpenVPN."""
    directory.mkdir()
    for name in ("ca.crt", "server.crt", "server.key"):
        shutil.copy(world.node_dirs[SERVER] / name, directory / name)
    for protocol in ("udp", "tcp"):
        (directory / f"server-{protocol}.conf").write_text(stock_server(protocol))
        log = directory / f"server-{protocol}.log"
        world.net.start(
            world.b,
            [
                "nice",
                "-n",
                str(DATA_PLANE_PRIORITY),
                "openvpn",
                "--cd",
                str(directory),
                "--config",
                f"server-{protocol}.conf",
            ],
            log,
        )
        assert wait_for(log, CONNECTED, 20), log.read_text()


def connect_stock(world: World, directory: Path, protocol: str) -> None:
    folder = directory / f"client-{protocol}"
    folder.mkdir()
    (folder / "client.ovpn").write_text(stock_client(protocol))
    shutil.copy(directory / "ca.crt", folder / "ca.crt")
    (folder / "login.txt").write_text("bench\nbench\n")
    log = folder / "client.log"
    world.net.start(
        world.client_b,
        ["openvpn", "--cd", str(folder), "--config", "client.ovpn", "--auth-user-pass", "login.txt"],
        log,
    )
    assert wait_for(log, CONNECTED, 25), log.read_text()


def megabits(world: World, address: str, seconds: int) -> float:
    """One TCP stream from the client's namespace to the iperf3 server at ``address``; again
    while the server is still closing the previous test (it answers one at a time, and now and
    then resets the next one's control connection)."""
    for _ in range(10):
        result = world.net.run(
            world.client_b, "iperf3", "-c", address, "-p", IPERF_PORT, "-t", str(seconds), "-J"
        )
        answer = json.loads(result.stdout) if result.stdout.startswith("{") else {}
        if result.returncode == 0 and "error" not in answer:
            break
        time.sleep(1)
    if result.returncode != 0 or "error" in answer or "sum_received" not in answer.get("end", {}):
        raise RuntimeError(
            f"iperf3 to {address}: {answer.get('error')} {result.stdout[-2000:]}{result.stderr}"
        )
    return float(answer["end"]["sum_received"]["bits_per_second"]) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=5)
    args = parser.parse_args()
    reason = missing() or (None if shutil.which("iperf3") else "needs iperf3 (apt-get install iperf3)")
    if reason is not None:
        sys.exit(f"tunnel_throughput: {reason}")
    world = World(Path(tempfile.mkdtemp(prefix="vpnsite-throughput-")), wireguard=False)
    results: dict[str, list[float]] = {tunnel: [] for tunnel in GATEWAY}
    try:
        world.build()
        iperf_log = world.tmp / "iperf3.log"
        world.net.start(world.b, ["iperf3", "-s", "-p", IPERF_PORT, "--forceflush"], iperf_log)
        assert wait_for(iperf_log, "Server listening", 10), iperf_log.read_text()
        stock = world.tmp / "stock"
        start_stock(world, stock)
        code, profiles = world.sign_up("throughput@example.org")
        for protocol in ("udp", "tcp"):
            client = world.connect(profiles[f"{SERVER}-{protocol}.ovpn"], "throughput@example.org", code)
            assert client.wait_connected(), client.text()
            connect_stock(world, stock, protocol)
        node_log = (world.tmp / f"{SERVER}-node.log").read_text(errors="replace")
        offload = sorted(
            {line.split("vpnsite.node: ")[-1] for line in node_log.splitlines() if "(DCO)" in line}
        )
        order = list(GATEWAY)
        for n in range(1, args.rounds + 1):
            for tunnel in order if n % 2 else reversed(order):
                results[tunnel].append(megabits(world, GATEWAY[tunnel], args.seconds))
            print(
                f"round {n}: " + ", ".join(f"{t} {results[t][-1]:.0f}" for t in order) + " Mbit/s", flush=True
            )
    finally:
        world.close()
    print(
        f"\nmedian of {args.rounds} rounds of {args.seconds} s, one TCP stream through each tunnel ({CIPHER})"
    )
    for line in offload:
        print(f"node: {line}")
    for protocol in ("udp", "tcp"):
        ours, theirs = (statistics.median(results[f"{side}-{protocol}"]) for side in ("vpnsite", "stock"))
        print(
            f"OpenVPN over {protocol.upper()}: vpnsite {ours:7.0f} Mbit/s, stock {theirs:7.0f} Mbit/s, "
            f"ratio {ours / theirs:.2f}"
        )


if __name__ == "__main__":
    main()
