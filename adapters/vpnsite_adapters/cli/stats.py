"""``vpnsite stats``: users, sign-ups per day, servers, tickets and mail at a glance."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from datetime import timedelta

from vpnsite.fleet import is_online
from vpnsite_adapters.bootstrap import Console

STATS_DAYS = 14


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    stats = commands.add_parser("stats", help="users, sign-ups per day, servers, tickets, mail")
    stats.add_argument("--json", action="store_true")
    stats.set_defaults(handler=run_stats, store="read")


def run_stats(console: Console, args: argparse.Namespace) -> int:
    now = console.clock.now()
    store = console.store
    users = store.licences.count_users(now)
    starts = store.licences.started_since(now - timedelta(days=STATS_DAYS - 1))
    servers = store.fleet.list_servers()
    open_tickets = store.tickets.count_open()
    mail = store.mail_queue.status()
    online = sum(1 for s in servers if is_online(s, now))
    per_day = Counter(start.date() for start in starts)
    days = [(now - timedelta(days=back)).date() for back in range(STATS_DAYS - 1, -1, -1)]
    summary = {
        "users": users,
        "signups_per_day": {day.isoformat(): per_day.get(day, 0) for day in days},
        "servers": {"total": len(servers), "online": online},
        "open_tickets": open_tickets,
        "mail": {"queued": mail.queued, "sent": mail.sent, "failed": mail.failed},
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"users (live licences)  {users:,}")
    print(f"servers online         {online} of {len(servers)}")
    print(f"open tickets           {open_tickets}")
    print(f"mail                   {mail.queued} queued, {mail.sent} sent, {mail.failed} given up")
    print("\nsign-ups per day")
    peak = max(per_day.values(), default=0) or 1
    for day in days:
        count = per_day.get(day, 0)
        print(f"  {day.isoformat()}  {count:>7,}  {'#' * round(40 * count / peak)}")
    return 0
