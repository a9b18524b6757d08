"""``vpnsite node run`` on each VPN server, ``vpnsite node token`` on the hub."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vpnsite_adapters.bootstrap import Console


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    node = commands.add_parser("node", help="VPN servers: run one, and issue their tokens")
    node_commands = node.add_subparsers(dest="node_command", required=True)

    run = node_commands.add_parser(
        "run", help="on a VPN server: OpenVPN, WireGuard and the hub agent from one directory"
    )
    run.add_argument(
        "--dir", required=True, type=Path, help="the directory `vpnsite vpn server-config` wrote"
    )
    run.add_argument(
        "--no-nat", action="store_true", help="leave forwarding and NAT to the host's own firewall"
    )
    run.add_argument("--openvpn-user", default="nobody", help="the user OpenVPN runs as after start")
    run.add_argument("--interval", type=float, default=10.0, help=argparse.SUPPRESS)
    # A VPN server holds no hub settings and must not create a hub secret.
    run.set_defaults(handler=run_node, store=None, hub_settings=False)

    token = node_commands.add_parser("token", help="issue a new token for a server (shown once)")
    token.add_argument("server_id")
    token.add_argument("--host", help="address the hub pings")
    token.add_argument("--port", type=int, help="TCP port the hub pings (e.g. OpenVPN over TCP)")
    token.set_defaults(handler=run_token, store="write")


def run_node(args: argparse.Namespace) -> int:
    from vpnsite_node.containment import contained

    return contained(lambda: _serve(args))


def _serve(args: argparse.Namespace) -> int:
    from vpnsite_node.config import NodeConfigError
    from vpnsite_node.networking import NetworkingError
    from vpnsite_node.run import run_node as run

    try:
        return run(args.dir.resolve(), nat=not args.no_nat, user=args.openvpn_user, interval=args.interval)
    except (NodeConfigError, NetworkingError, OSError) as error:
        print(f"vpnsite: {error}", file=sys.stderr)
        return 2


def run_token(console: Console, args: argparse.Namespace) -> int:
    token = console.issue_server_token(args.server_id, args.host, args.port)
    if token is None:
        print(f"vpnsite: no server {args.server_id}")
        return 1
    print(token)
    return 0
