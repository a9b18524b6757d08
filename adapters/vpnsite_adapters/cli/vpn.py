"""``vpnsite vpn …``: the fleet as the hub sees it (``list-servers``), and putting servers into
service (``init``, ``add-server``, ``server-config``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlsplit

from vpnsite.errors import InvalidField, NodeUnauthorized
from vpnsite.fleet import MAX_EXIT_ADDRESSES, Location, is_online
from vpnsite.server_registration import NewServer
from vpnsite_adapters.bootstrap import Console, open_store
from vpnsite_adapters.cli.tables import print_table
from vpnsite_adapters.operations.service_units import UnitError
from vpnsite_adapters.settings import Settings
from vpnsite_adapters.vpn.keystore import VpnNotInitialised, initialise, vpn_dir
from vpnsite_adapters.vpn.server_directory import DEFAULT_DNS, INSTALL_DIR, UNIT, write_server_directory
from vpnsite_node.config import IPV6_MODES


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    vpn = commands.add_parser("vpn", help="VPN servers")
    vpn_commands = vpn.add_subparsers(dest="vpn_command", required=True)
    listing = vpn_commands.add_parser("list-servers", help="every server, its state and its last report")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=run_list_servers, store="read")

    init = vpn_commands.add_parser("init", help="create the CA and the tls-crypt-v2 server key (once)")
    init.set_defaults(handler=run_init, store="none")

    add = vpn_commands.add_parser("add-server", help="register a server, issue its certificate and token")
    add.add_argument("name", help="e.g. nl-amsterdam")
    add.add_argument("--country", required=True, help="two-letter country code")
    add.add_argument("--city", required=True)
    add.add_argument("--host", required=True, help="the address clients connect to")
    add.add_argument("--udp-port", type=int, default=1194)
    add.add_argument("--tcp-port", type=int, default=443)
    add.add_argument("--wg-port", type=int, default=51820, help="WireGuard (experimental); 0 for none")
    add.add_argument("--display-name", help="the country as the status page shows it")
    add.add_argument(
        "--exit-address",
        action="append",
        default=[],
        help="a public address (or network) clients' traffic leaves from, for the connection check "
        "(default: where the server's heartbeats come from, learnt by the hub); give it when clients "
        "leave from another address; repeat for IPv4 and IPv6",
    )
    add.set_defaults(handler=run_add_server, store="write")

    config = vpn_commands.add_parser(
        "server-config", help="write the directory a server runs from (`vpnsite node run --dir`)"
    )
    config.add_argument("name")
    config.add_argument("--out", required=True, type=Path)
    config.add_argument(
        "--token", help="the server's token as add-server showed it (default: issue a new one)"
    )
    config.add_argument("--hub", help="the hub's URL the server calls (default: VPNSITE_PUBLIC_URL)")
    config.add_argument(
        "--insecure",
        action="store_true",
        help="take an http:// hub: the server then sends every login's e-mail and activation code"
        " in clear (only over a network you trust)",
    )
    config.add_argument(
        "--dns",
        action="append",
        help=f"a resolver pushed to clients, reached through the tunnel (default: {' '.join(DEFAULT_DNS)})",
    )
    config.add_argument(
        "--ipv6",
        choices=IPV6_MODES,
        default="block",
        help="clients' IPv6: blocked (no leak; the default) or routed through the tunnel with NAT",
    )
    config.add_argument(
        "--install-dir",
        default=INSTALL_DIR,
        help="where the directory will live on the server (for the unit)",
    )
    config.add_argument("--executable", help="the `vpnsite` script on the server (default: this one's path)")
    config.set_defaults(handler=run_server_config, store="write")


def run_list_servers(console: Console, args: argparse.Namespace) -> int:
    servers = console.servers()
    now = console.clock.now()
    rows = [
        {
            "id": s.location.id,
            "country": s.location.country.upper(),
            "city": s.location.city,
            "state": "online" if is_online(s, now) else "offline",
            "last_report": s.last_seen.isoformat(timespec="seconds") if s.last_seen else None,
            "load": None if s.load_percent is None else f"{s.load_percent:.0f}%",
            "sessions": s.sessions,
            "ping_ms": s.ping_ms,
            "address": f"{s.host}:{s.port}" if s.host else None,
        }
        for s in servers
    ]
    columns = ["id", "country", "city", "state", "last_report", "load", "sessions", "ping_ms", "address"]
    print_table(rows, columns, args.json)
    return 0


def run_init(settings: Settings, _args: argparse.Namespace) -> int:
    """The first command of a hub's VPN service: its keys, and the database the servers are
    registered in (set up here, as `migrate` would, so the commands after it find it)."""

    created = initialise(settings.data_dir)
    print(f"{'created' if created else 'kept'} the VPN keys in {vpn_dir(settings.data_dir)}")
    store = open_store(settings, migrate=True)
    store.close()
    return 0


def run_add_server(console: Console, args: argparse.Namespace) -> int:
    location = Location(args.name, args.display_name or args.country.upper(), args.country.lower(), args.city)
    try:
        server = NewServer(location, args.host, args.udp_port, args.tcp_port, args.wg_port, args.exit_address)
    except InvalidField as error:
        why = (
            "no network wider than a /24 (IPv4) or a /48 (IPv6)"
            if error.kind == "network_too_wide"
            else f"IP addresses or networks (at most {MAX_EXIT_ADDRESSES})"
        )
        print(f"vpnsite: --exit-address takes {why}", file=sys.stderr)
        return 2
    try:
        registration = console.server_registration()
    except VpnNotInitialised as error:
        print(f"vpnsite: {error}")
        return 2
    token = registration.register(server)
    if token is None:
        print(f"vpnsite: a server named {args.name} exists")
        return 1
    print(f"server {args.name} registered. Its token (shown once; the agent and the hooks use it):\n{token}")
    return 0


def _is_token_of(console: Console, token: str, server: str) -> bool:
    try:
        return console.server_authentication.server(token) == server
    except NodeUnauthorized:
        return False


def run_server_config(console: Console, args: argparse.Namespace) -> int:
    settings = console.settings
    hub = args.hub or settings.public_url
    if not hub:
        print("vpnsite: give the hub's URL with --hub (or set VPNSITE_PUBLIC_URL)")
        return 2
    refusal = _hub_refusal(hub, args.insecure)
    if refusal:
        print(f"vpnsite: {refusal}", file=sys.stderr)
        return 2
    if urlsplit(hub).scheme == "http":
        print(f"vpnsite: warning: {_in_clear(hub)} (--insecure)", file=sys.stderr)
    with console.unit_of_work.atomic():
        server = console.server(args.name)
        if server is None:
            print(f"vpnsite: no server {args.name}")
            return 1
        token = args.token
        if token is None:
            token = console.issue_server_token(args.name)
        elif not _is_token_of(console, token, args.name):
            print(f"vpnsite: that is not the token of {args.name}")
            return 1
    try:
        written = write_server_directory(
            args.out,
            server,
            vpn_dir(settings.data_dir),
            hub,
            token,
            dns=args.dns or DEFAULT_DNS,
            ipv6=args.ipv6,
            install_dir=args.install_dir,
            executable=args.executable,
            site=settings.public_url or "",
            new_token_key=args.token is None,
        )
    except UnitError as error:
        print(f"vpnsite: {error}", file=sys.stderr)
        return 2
    except FileNotFoundError as error:
        print(
            f"vpnsite: {error.filename} is missing: run `vpnsite vpn init` and `vpnsite vpn add-server` first"
        )
        return 1
    fresh = "" if args.token else " (with a new token: the server's earlier one no longer works)"
    print(
        f"wrote {', '.join(written)} into {args.out}{fresh}.\n"
        f"Copy it to the server as {args.install_dir} and run `vpnsite node run --dir {args.install_dir}`"
        f" there (or install {UNIT})."
    )
    return 0


def _hub_refusal(hub: str, insecure: bool) -> str | None:
    """Why a server may not be told to call ``hub``; None when it may."""
    try:
        parts = urlsplit(hub)
        host = parts.hostname
    except ValueError:
        host = None
    if parts.scheme not in ("http", "https") or not host:
        return f"--hub must be the hub's https:// address (e.g. https://hub.example), not {hub!r}"
    if parts.scheme == "http" and not insecure:
        return (
            f"{_in_clear(hub)}. Give the hub's https:// address (a TLS proxy in front of the node"
            " listener), or add --insecure if the server reaches it only over a network you trust"
        )
    return None


def _in_clear(hub: str) -> str:
    return (
        f"{hub} is http://: the server would send the hub every login's e-mail and activation code,"
        " and its own token, in clear"
    )
