"""``vpnsite retention run`` and ``vpnsite privacy export|erase``: the privacy policy's promises."""

from __future__ import annotations

import argparse
import json
import logging

import attrs

from vpnsite.errors import InvalidField
from vpnsite.privacy import erase_address, export_address
from vpnsite_adapters.settings import Settings

log = logging.getLogger("vpnsite.privacy")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    retention = commands.add_parser("retention", help="data retention")
    retention_commands = retention.add_subparsers(dest="retention_command", required=True)
    run = retention_commands.add_parser("run", help="erase what the retention policy says is due now")
    run.set_defaults(handler=run_retention)

    privacy = commands.add_parser("privacy", help="data requests: what is held about an address, erasure")
    privacy_commands = privacy.add_subparsers(dest="privacy_command", required=True)
    export = privacy_commands.add_parser("export", help="everything held about an address, as JSON")
    export.add_argument("email")
    export.set_defaults(handler=run_export)
    erase = privacy_commands.add_parser(
        "erase", help="end the address's licences and erase its personal data"
    )
    erase.add_argument("email")
    erase.set_defaults(handler=run_erase)


def run_retention(settings: Settings, _args: argparse.Namespace) -> int:
    from vpnsite_adapters.bootstrap import build_services

    services = build_services(settings)
    try:
        report = services.run_retention()
    finally:
        services.close()
    print(json.dumps(attrs.asdict(report)))
    return 0


def run_export(settings: Settings, args: argparse.Namespace) -> int:
    from vpnsite_adapters.sql.store import SqlStore

    store = SqlStore.open(settings.database_url)
    try:
        held = export_address(store.privacy, args.email)
    except InvalidField:
        print("vpnsite: that is not an e-mail address")
        return 2
    finally:
        store.close()
    log.info("privacy export: %d licence(s), %d ticket(s)", len(held["licences"]), len(held["tickets"]))
    print(json.dumps(held, ensure_ascii=False, indent=2))
    return 0


def run_erase(settings: Settings, args: argparse.Namespace) -> int:
    from vpnsite_adapters.clock_and_random import SystemClock
    from vpnsite_adapters.sql.store import SqlStore

    store = SqlStore.open(settings.database_url)
    try:
        counts = erase_address(store.privacy, args.email, SystemClock().now())
    except InvalidField:
        print("vpnsite: that is not an e-mail address")
        return 2
    finally:
        store.close()
    log.info("privacy erase: %s", ", ".join(f"{name} {count}" for name, count in counts.items()))
    print(json.dumps(counts))
    return 0
