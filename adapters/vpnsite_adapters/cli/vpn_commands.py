"""``vpnsite vpn …``: the fleet as the hub sees it, and putting servers into service."""

from __future__ import annotations

import argparse

from vpnsite.fleet import is_online
from vpnsite_adapters.cli import vpn_setup_commands
from vpnsite_adapters.cli.tables import print_table
from vpnsite_adapters.settings import Settings


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    vpn = commands.add_parser("vpn", help="VPN servers")
    vpn_commands = vpn.add_subparsers(dest="vpn_command", required=True)
    listing = vpn_commands.add_parser("list-servers", help="every server, its state and its last report")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=run_list_servers)
    vpn_setup_commands.register(vpn_commands)


def run_list_servers(settings: Settings, args: argparse.Namespace) -> int:
    from vpnsite_adapters.clock_and_random import SystemClock
    from vpnsite_adapters.sql.store import SqlStore

    store = SqlStore.open(settings.database_url)
    try:
        servers = store.fleet.list_servers()
    finally:
        store.close()
    now = SystemClock().now()
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
