"""``vpnsite node agent`` on each VPN server, ``vpnsite node token`` on the hub."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import secrets
import signal
from pathlib import Path

from vpnsite.keyed_hashes import Keyring
from vpnsite_adapters.settings import Settings

log = logging.getLogger("vpnsite.agent")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    node = commands.add_parser("node", help="VPN servers: the heartbeat agent and their tokens")
    node_commands = node.add_subparsers(dest="node_command", required=True)

    agent = node_commands.add_parser("agent", help="report this server's health to the hub every 10 s")
    agent.add_argument("--hub", required=True, help="the hub's URL, e.g. https://vpn.example.com")
    agent.add_argument("--token", help="this server's token (or VPNSITE_NODE_TOKEN, or --token-file)")
    agent.add_argument("--token-file", type=Path, help="a file holding the token")
    agent.add_argument(
        "--openvpn-status", type=Path, help="OpenVPN's status file: sessions and service health"
    )
    agent.add_argument(
        "--deny-list", type=Path, help="keep the hub's list of refused licences here (next to hook.json)"
    )
    agent.add_argument(
        "--wireguard-interface", help="keep this WireGuard interface's peers in sync with the hub"
    )
    agent.add_argument("--interval", type=float, default=10.0, help=argparse.SUPPRESS)
    agent.set_defaults(handler=run_agent)

    token = node_commands.add_parser("token", help="issue a new token for a server (shown once)")
    token.add_argument("server_id")
    token.add_argument("--host", help="address the hub pings")
    token.add_argument("--port", type=int, help="TCP port the hub pings (e.g. OpenVPN over TCP)")
    token.set_defaults(handler=run_token)


def run_agent(_settings: Settings, args: argparse.Namespace) -> int:
    from vpnsite_adapters.node_agent import HostMeasure, NodeAgent

    token = args.token or os.environ.get("VPNSITE_NODE_TOKEN")
    if args.token_file:
        token = args.token_file.read_text().strip()
    if not token:
        print("vpnsite: the agent needs the server's token (--token, --token-file or VPNSITE_NODE_TOKEN)")
        return 2
    agent = NodeAgent(
        args.hub,
        token,
        HostMeasure(args.openvpn_status),
        args.interval,
        deny_list=args.deny_list,
        wireguard_interface=args.wireguard_interface,
    )
    signal.signal(signal.SIGTERM, lambda *_: agent.stop())
    log.info("reporting to %s every %s s", args.hub, args.interval)
    with contextlib.suppress(KeyboardInterrupt):
        agent.run()
    return 0


def run_token(settings: Settings, args: argparse.Namespace) -> int:
    from vpnsite_adapters.sql.store import SqlStore

    store = SqlStore.open(settings.database_url)
    try:
        token = secrets.token_urlsafe(32)
        if not store.fleet.set_token(
            args.server_id, Keyring.from_master(settings.secret_key).nodes.hash(token)
        ):
            print(f"vpnsite: no server {args.server_id}")
            return 1
        if args.host or args.port:
            store.fleet.set_address(args.server_id, args.host, args.port)
    finally:
        store.close()
    print(token)
    return 0
