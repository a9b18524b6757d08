"""``vpnsite mail status|retry``: the outgoing mail queue."""

from __future__ import annotations

import argparse
import json

import attrs

from vpnsite_adapters.bootstrap import Console


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mail = commands.add_parser("mail", help="the outgoing mail queue")
    mail_commands = mail.add_subparsers(dest="mail_command", required=True)
    status = mail_commands.add_parser("status", help="what is queued, sent and given up")
    status.add_argument("--json", action="store_true", help="machine-readable output")
    status.set_defaults(handler=run_status, store="read")
    retry = mail_commands.add_parser("retry", help="queue the messages that were given up once more")
    retry.set_defaults(handler=run_retry, store="write")


def run_status(console: Console, args: argparse.Namespace) -> int:
    status = console.mail_status()
    if args.json:
        print(json.dumps(attrs.asdict(status), default=str))
        return 0
    oldest = status.oldest_queued.isoformat(timespec="seconds") if status.oldest_queued else "-"
    print(f"queued  {status.queued:>6}   (oldest {oldest})")
    print(f"sent    {status.sent:>6}")
    print(f"failed  {status.failed:>6}   (given up; `vpnsite mail retry` queues them again)")
    for kind, attempts, error in status.last_errors:
        print(f"  {kind:<24} after {attempts} attempt(s): {error}")
    return 0


def run_retry(console: Console, _args: argparse.Namespace) -> int:
    print(f"queued again: {console.retry_failed_mail()}")
    return 0
