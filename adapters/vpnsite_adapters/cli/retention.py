"""``vpnsite retention run``: erase what the retention policy says is due now, in the database and
in the files the inventory names (the outbox, the erasure journal)."""

from __future__ import annotations

import argparse
import json

import attrs

from vpnsite_adapters.bootstrap import Console


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    retention = commands.add_parser("retention", help="data retention")
    retention_commands = retention.add_subparsers(dest="retention_command", required=True)
    run = retention_commands.add_parser("run", help="erase what the retention policy says is due now")
    run.set_defaults(handler=run_now, store="write")


def run_now(console: Console, _args: argparse.Namespace) -> int:
    report = console.run_retention()
    print(json.dumps(attrs.asdict(report)))
    return 0
