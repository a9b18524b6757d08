"""``vpnsite stats``: users, sign-ups per day, servers, tickets and mail at a glance."""

from __future__ import annotations

import argparse
import json

from vpnsite_adapters.bootstrap import Console


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    stats = commands.add_parser("stats", help="users, sign-ups per day, servers, tickets, mail")
    stats.add_argument("--json", action="store_true")
    stats.set_defaults(handler=run_stats, store="read")


def run_stats(console: Console, args: argparse.Namespace) -> int:
    seen, mail = console.glance()
    summary = {
        "users": seen.users,
        "signups_per_day": {day.isoformat(): count for day, count in seen.signups_per_day},
        "servers": {"total": seen.servers, "online": seen.servers_online},
        "open_tickets": seen.open_tickets,
        "mail": {"queued": mail.queued, "sent": mail.sent, "failed": mail.failed},
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"users (live licences)  {seen.users:,}")
    print(f"servers online         {seen.servers_online} of {seen.servers}")
    print(f"open tickets           {seen.open_tickets}")
    print(f"mail                   {mail.queued} queued, {mail.sent} sent, {mail.failed} given up")
    print("\nsign-ups per day")
    peak = seen.busiest_day or 1
    for day, count in seen.signups_per_day:
        print(f"  {day.isoformat()}  {count:>7,}  {'#' * round(40 * count / peak)}")
    return 0
