"""``vpnsite tickets list|show|close``: the support tickets."""

from __future__ import annotations

import argparse

from vpnsite_adapters.bootstrap import Console
from vpnsite_adapters.cli.tables import json_document, print_table
from vpnsite_adapters.runtime.log_lines import escape_controls


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tickets = commands.add_parser("tickets", help="support tickets")
    ticket_commands = tickets.add_subparsers(dest="tickets_command", required=True)
    listing = ticket_commands.add_parser("list", help="newest tickets first")
    listing.add_argument("--all", action="store_true", help="closed tickets too")
    listing.add_argument("--limit", type=int, default=50)
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=run_tickets_list, store="read")
    show = ticket_commands.add_parser("show", help="one ticket, whole")
    show.add_argument("number")
    show.add_argument("--json", action="store_true")
    show.set_defaults(handler=run_ticket_show, store="read")
    close = ticket_commands.add_parser("close", help="close a ticket (erased 30 days later)")
    close.add_argument("number")
    close.set_defaults(handler=run_ticket_close, store="write")


def run_tickets_list(console: Console, args: argparse.Namespace) -> int:
    tickets = console.tickets(open_only=not args.all, limit=args.limit)
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


def run_ticket_show(console: Console, args: argparse.Namespace) -> int:
    found = console.support_desk.show(args.number)
    if found is None:
        print(f"vpnsite: no ticket {args.number}")
        return 1
    ticket, licence = found.ticket, found.licence
    details = {
        "number": ticket.number,
        "email": ticket.email,
        "language": ticket.language,
        "opened": ticket.created_at.isoformat(timespec="seconds"),
        "closed": ticket.closed_at.isoformat(timespec="seconds") if ticket.closed_at else None,
        "activation_code": "none given"
        if not found.code_given
        else (
            f"matches licence {licence.id}, ends {licence.ends_at.date()}"
            if licence
            else "matches no licence"
        ),
        "message": ticket.message,
    }
    if args.json:
        print(json_document(details))
    else:
        for name, value in details.items():
            if name != "message":
                print(f"{name + ':':<16}{value if value is not None else '-'}")
        # The visitor's message, whole: its lines as they wrote them, nothing the terminal acts on.
        print(f"\n{escape_controls(ticket.message, keep=chr(10))}")
    return 0


def run_ticket_close(console: Console, args: argparse.Namespace) -> int:
    closed = console.support_desk.close(args.number)
    print(f"closed {args.number}" if closed else f"vpnsite: no open ticket {args.number}")
    return 0 if closed else 1
