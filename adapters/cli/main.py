"""``vpnsite``: serve the site, migrate the database, apply retention."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence

import attrs

from vpnsite_adapters.settings import Settings, SettingsError, load_settings

log = logging.getLogger("vpnsite")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="vpnsite", description=__doc__)
    parser.add_argument("--data-dir", help="where the SQLite database and the secret key live")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="serve the website and the API")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default 8000)")
    serve.add_argument("--threads", type=int, help="worker threads (default 8)")
    serve.add_argument("--data-dir", dest="serve_data_dir", help=argparse.SUPPRESS)

    commands.add_parser("migrate", help="apply the database migrations this database lacks")

    retention = commands.add_parser("retention", help="data retention")
    retention_commands = retention.add_subparsers(dest="retention_command", required=True)
    retention_commands.add_parser("run", help="erase what the retention policy says is due now")

    mail = commands.add_parser("mail", help="the outgoing mail queue")
    mail_commands = mail.add_subparsers(dest="mail_command", required=True)
    status = mail_commands.add_parser("status", help="what is queued, sent and given up")
    status.add_argument("--json", action="store_true", help="machine-readable output")
    mail_commands.add_parser("retry", help="queue the messages that were given up once more")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    args = _parser().parse_args(argv)
    overrides = {
        "data_dir": getattr(args, "serve_data_dir", None) or args.data_dir,
        "host": getattr(args, "host", None),
        "port": getattr(args, "port", None),
        "threads": getattr(args, "threads", None),
    }
    try:
        settings = load_settings(**overrides)
    except SettingsError as error:
        print(f"vpnsite: {error}", file=sys.stderr)
        return 2
    if args.command == "serve":
        return serve(settings)
    if args.command == "migrate":
        return migrate(settings)
    if args.command == "mail":
        return mail_command(settings, args.mail_command, getattr(args, "json", False))
    return retention_run(settings)


def serve(settings: Settings) -> int:
    import waitress

    from vpnsite_adapters.bootstrap import build_services
    from vpnsite_adapters.http.app import create_app

    services = build_services(settings)
    services.start_background_work()
    app = create_app(services)
    log.info(
        "vpnsite on http://%s:%d (data in %s, database %s)",
        settings.host,
        settings.port,
        settings.data_dir,
        settings.database_url.split("://")[0],
    )
    try:
        waitress.serve(
            app,
            host=settings.host,
            port=settings.port,
            threads=settings.threads,
            ident="vpnsite",
            clear_untrusted_proxy_headers=False,
        )
    finally:
        services.close()
    return 0


def migrate(settings: Settings) -> int:
    from vpnsite_adapters.sql.database import open_database
    from vpnsite_adapters.sql.migrations import LATEST, migrate

    db = open_database(settings.database_url)
    applied = migrate(db)
    db.close()
    print(f"applied {applied}" if applied else f"up to date (version {LATEST})")
    return 0


def retention_run(settings: Settings) -> int:
    from vpnsite_adapters.bootstrap import build_services

    services = build_services(settings)
    try:
        report = services.run_retention()
    finally:
        services.close()
    print(json.dumps(attrs.asdict(report)))
    return 0


def mail_command(settings: Settings, command: str, as_json: bool) -> int:
    from vpnsite_adapters.sql.store import SqlStore
    from vpnsite_adapters.system import SystemClock

    store = SqlStore.open(settings.database_url)
    try:
        if command == "retry":
            print(f"queued again: {store.mail_queue.retry_failed(SystemClock().now())}")
            return 0
        status = store.mail_queue.status()
    finally:
        store.close()
    if as_json:
        print(json.dumps(attrs.asdict(status), default=str))
        return 0
    oldest = status.oldest_queued.isoformat(timespec="seconds") if status.oldest_queued else "-"
    print(f"queued  {status.queued:>6}   (oldest {oldest})")
    print(f"sent    {status.sent:>6}")
    print(f"failed  {status.failed:>6}   (given up; `vpnsite mail retry` queues them again)")
    for kind, attempts, error in status.last_errors:
        print(f"  {kind:<24} after {attempts} attempt(s): {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
