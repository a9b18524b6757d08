"""``vpnsite licences find``: the licences of an address."""

from __future__ import annotations

import argparse

from vpnsite.emails import mailbox_key, normalise_email
from vpnsite.errors import InvalidField
from vpnsite_adapters.bootstrap import Console
from vpnsite_adapters.cli.tables import print_table


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    licences = commands.add_parser("licences", help="licences")
    licence_commands = licences.add_subparsers(dest="licences_command", required=True)
    find = licence_commands.add_parser("find", help="the licences of an address")
    find.add_argument("email")
    find.add_argument("--json", action="store_true")
    find.set_defaults(handler=run_find, store="read")


def run_find(console: Console, args: argparse.Namespace) -> int:
    try:
        key = mailbox_key(normalise_email(args.email))
    except InvalidField:
        print("vpnsite: that is not an e-mail address")
        return 2
    licences = console.licences_of(key)
    now = console.clock.now()
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
