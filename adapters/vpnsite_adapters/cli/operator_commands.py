"""What an operator runs day to day: ``tickets``, ``licences find``, ``stats``."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from datetime import timedelta

from vpnsite.emails import email_key, normalise_email
from vpnsite.errors import InvalidField
from vpnsite.fleet import is_online
from vpnsite_adapters.cli.tables import print_table
from vpnsite_adapters.clock_and_random import SystemClock
from vpnsite_adapters.settings import Settings
from vpnsite_adapters.sql.store import SqlStore

STATS_DAYS = 14


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tickets = commands.add_parser("tickets", help="support tickets")
    ticket_commands = tickets.add_subparsers(dest="tickets_command", required=True)
    listing = ticket_commands.add_parser("list", help="newest tickets first")
    listing.add_argument("--all", action="store_true", help="closed tickets too")
    listing.add_argument("--limit", type=int, default=50)
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=run_tickets_list)
    show = ticket_commands.add_parser("show", help="one ticket, whole")
    show.add_argument("number")
    show.add_argument("--json", action="store_true")
    show.set_defaults(handler=run_ticket_show)
    close = ticket_commands.add_parser("close", help="close a ticket (erased 30 days later)")
    close.add_argument("number")
    close.set_defaults(handler=run_ticket_close)

    licences = commands.add_parser("licences", help="licences")
    licence_commands = licences.add_subparsers(dest="licences_command", required=True)
    find = licence_commands.add_parser("find", help="the licences of an address")
    find.add_argument("email")
    find.add_argument("--json", action="store_true")
    find.set_defaults(handler=run_licences_find)

    stats = commands.add_parser("stats", help="users, sign-ups per day, servers, tickets, mail")
    stats.add_argument("--json", action="store_true")
    stats.set_defaults(handler=run_stats)


def _open(settings: Settings) -> SqlStore:
    return SqlStore.open(settings.database_url)


def run_tickets_list(settings: Settings, args: argparse.Namespace) -> int:
    store = _open(settings)
    try:
        tickets = store.tickets.list_tickets(open_only=not args.all, limit=args.limit)
    finally:
        store.close()
    rows = [
        {
            "number": t.number,
            "opened": t.created_at.isoformat(timespec="minutes"),
            "status": "closed" if t.closed_at else "open",
            "language": t.language,
            "email": t.email,
            "message": t.message,
        }
        for t in tickets
    ]
    print_table(rows, ["number", "opened", "status", "language", "email", "message"], args.json)
    return 0


def run_ticket_show(settings: Settings, args: argparse.Namespace) -> int:
    store = _open(settings)
    try:
        ticket = store.tickets.find_ticket(args.number)
        licence = store.licences.find_by_code_hash(ticket.code_hash) if ticket and ticket.code_hash else None
    finally:
        store.close()
    if ticket is None:
        print(f"vpnsite: no ticket {args.number}")
        return 1
    details = {
        "number": ticket.number,
        "email": ticket.email,
        "language": ticket.language,
        "opened": ticket.created_at.isoformat(timespec="seconds"),
        "closed": ticket.closed_at.isoformat(timespec="seconds") if ticket.closed_at else None,
        "activation_code": "none given"
        if ticket.code_hash is None
        else (
            f"matches licence {licence.id}, ends {licence.ends_at.date()}"
            if licence
            else "matches no licence"
        ),
        "message": ticket.message,
    }
    if args.json:
        print(json.dumps(details, ensure_ascii=False, indent=2))
    else:
        for name, value in details.items():
            if name != "message":
                print(f"{name + ':':<16}{value if value is not None else '-'}")
        print(f"\n{ticket.message}")
    return 0


def run_ticket_close(settings: Settings, args: argparse.Namespace) -> int:
    store = _open(settings)
    try:
        closed = store.tickets.close_ticket(args.number, SystemClock().now())
    finally:
        store.close()
    print(f"closed {args.number}" if closed else f"vpnsite: no open ticket {args.number}")
    return 0 if closed else 1


def run_licences_find(settings: Settings, args: argparse.Namespace) -> int:
    try:
        key = email_key(normalise_email(args.email))
    except InvalidField:
        print("vpnsite: that is not an e-mail address")
        return 2
    store = _open(settings)
    try:
        licences = store.licences.find_by_email_key(key)
    finally:
        store.close()
    now = SystemClock().now()
    rows = [
        {
            "id": licence.id,
            "starts": licence.starts_at.isoformat(timespec="seconds"),
            "ends": licence.ends_at.isoformat(timespec="seconds"),
            "state": "live" if licence.is_live(now) else "ended",
            "language": licence.language,
        }
        for licence in licences
    ]
    print_table(rows, ["id", "starts", "ends", "state", "language"], args.json)
    return 0


def run_stats(settings: Settings, args: argparse.Namespace) -> int:
    now = SystemClock().now()
    store = _open(settings)
    try:
        users = store.licences.count_users(now)
        starts = store.licences.started_since(now - timedelta(days=STATS_DAYS - 1))
        servers = store.fleet.list_servers()
        open_tickets = store.tickets.count_open()
        mail = store.mail_queue.status()
    finally:
        store.close()
    per_day = Counter(start.date() for start in starts)
    days = [(now - timedelta(days=back)).date() for back in range(STATS_DAYS - 1, -1, -1)]
    summary = {
        "users": users,
        "signups_per_day": {day.isoformat(): per_day.get(day, 0) for day in days},
        "servers": {"total": len(servers), "online": sum(1 for s in servers if is_online(s, now))},
        "open_tickets": open_tickets,
        "mail": {"queued": mail.queued, "sent": mail.sent, "failed": mail.failed},
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"users (live licences)  {users:,}")
    print(f"servers online         {summary['servers']['online']} of {summary['servers']['total']}")
    print(f"open tickets           {open_tickets}")
    print(f"mail                   {mail.queued} queued, {mail.sent} sent, {mail.failed} given up")
    print("\nsign-ups per day")
    peak = max(per_day.values(), default=0) or 1
    for day in days:
        count = per_day.get(day, 0)
        print(f"  {day.isoformat()}  {count:>7,}  {'#' * round(40 * count / peak)}")
    return 0
