"""``vpnsite privacy export|erase``: data requests under the privacy policy."""

from __future__ import annotations

import argparse
import json
import logging

from vpnsite.errors import InvalidField
from vpnsite.privacy import erase_address, export_address
from vpnsite_adapters.bootstrap import Console

log = logging.getLogger("vpnsite.privacy")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    privacy = commands.add_parser("privacy", help="data requests: what is held about an address, erasure")
    privacy_commands = privacy.add_subparsers(dest="privacy_command", required=True)
    export = privacy_commands.add_parser("export", help="everything held about an address, as JSON")
    export.add_argument("email")
    export.set_defaults(handler=run_export, store="read")
    erase = privacy_commands.add_parser(
        "erase", help="end the address's licences and erase its personal data"
    )
    erase.add_argument("email")
    erase.set_defaults(handler=run_erase, store="write")


def run_export(console: Console, args: argparse.Namespace) -> int:
    try:
        held = export_address(console.store.privacy, args.email)
    except InvalidField:
        print("vpnsite: that is not an e-mail address")
        return 2
    log.info("privacy export: %d licence(s), %d ticket(s)", len(held["licences"]), len(held["tickets"]))
    print(json.dumps(held, ensure_ascii=False, indent=2))
    return 0


def run_erase(console: Console, args: argparse.Namespace) -> int:
    try:
        counts = erase_address(console.store.privacy, args.email, console.clock.now())
    except InvalidField:
        print("vpnsite: that is not an e-mail address")
        return 2
    log.info("privacy erase: %s", ", ".join(f"{name} {count}" for name, count in counts.items()))
    print(json.dumps(counts))
    return 0
