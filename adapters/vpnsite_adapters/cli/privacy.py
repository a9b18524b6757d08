"""``vpnsite privacy export|erase|journal|inventory``: data requests under the privacy policy, the
erasure journal, and the data inventory."""

from __future__ import annotations

import argparse
import json
import logging
import sys

from vpnsite.erasures import erasure_document, erasure_summary
from vpnsite.errors import InvalidField
from vpnsite.personal_data import table_of_rows
from vpnsite.privacy import held_document
from vpnsite_adapters.bootstrap import Console
from vpnsite_adapters.cli.tables import json_document
from vpnsite_adapters.protection import erasure_journal

log = logging.getLogger("vpnsite.privacy")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    privacy = commands.add_parser("privacy", help="data requests, the erasure journal, the data inventory")
    privacy_commands = privacy.add_subparsers(dest="privacy_command", required=True)
    export = privacy_commands.add_parser("export", help="everything held about an address, as JSON")
    export.add_argument("email")
    export.set_defaults(handler=run_export, store="read")
    erase = privacy_commands.add_parser(
        "erase", help="end the address's licences and erase its personal data"
    )
    erase.add_argument("email")
    erase.set_defaults(handler=run_erase, store="write")
    journal = privacy_commands.add_parser(
        "journal",
        help="the erasures to re-apply after restoring an older backup, with the journal keys they are"
        " under, one JSON object a line",
    )
    journal.set_defaults(handler=run_journal, store="read")
    rotate = privacy_commands.add_parser(
        "rotate-journal-key", help="a new key for the erasure journal's entries from now on"
    )
    rotate.set_defaults(handler=run_rotate_journal_key, store="read")
    inventory = privacy_commands.add_parser("inventory", help="every kind of personal data held, as a table")
    inventory.set_defaults(handler=run_inventory, store="none")


def _not_an_address() -> int:
    print("vpnsite: that is not an e-mail address", file=sys.stderr)
    return 2


def run_export(console: Console, args: argparse.Namespace) -> int:
    try:
        held = console.export(args.email)
    except InvalidField:
        return _not_an_address()
    log.info("privacy export: %d licence(s), %d ticket(s)", len(held.licences), len(held.tickets))
    print(json_document(held_document(held)))
    return 0


def run_erase(console: Console, args: argparse.Namespace) -> int:
    try:
        erasure = console.erasures.erase(args.email)
    except InvalidField:
        return _not_an_address()
    erased, settings = erasure.erased, console.settings
    document = erasure_document(erasure)
    log.info("privacy erase: %s", erasure_summary(document))
    print(json.dumps(document))
    if erasure.journal_problem is not None:
        # The erasure stands; only its copy for restores is missing: `privacy journal` has it.
        problem = erasure.journal_problem
        print(
            f"vpnsite: erased, but {settings.erasure_journal} could not be written ({problem}):"
            " copy `vpnsite privacy journal` beside the backups",
            file=sys.stderr,
        )
        return 1
    if erased.tickets:
        print(
            "vpnsite: delete the copies of ticket(s) "
            f"{', '.join(erased.tickets)} from the support inbox ({settings.support_email})",
            file=sys.stderr,
        )
    return 0


def run_journal(console: Console, args: argparse.Namespace) -> int:
    journal = console.erasure_journal()
    for line in erasure_journal.journal_lines(journal):
        print(line)
    return 0


def run_rotate_journal_key(console: Console, args: argparse.Namespace) -> int:
    key = console.journal_keys.rotate()
    print(f"journal key {key.id} is current: new erasures are journalled under it")
    return 0


def run_inventory(settings: object, args: argparse.Namespace) -> int:
    print(inventory_table())
    return 0


def inventory_table() -> str:
    """The inventory as a Markdown table: the README's "Privacy" section holds this very text."""
    rows = table_of_rows()
    heads = list(rows[0])
    lines = ["| " + " | ".join(heads) + " |", "|" + "|".join(" --- " for _ in heads) + "|"]
    lines += ["| " + " | ".join(str(row[head]).replace("|", "\\|") for head in heads) + " |" for row in rows]
    return "\n".join(lines)
