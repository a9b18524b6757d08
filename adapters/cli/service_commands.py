"""``vpnsite serve`` and ``vpnsite migrate``."""

from __future__ import annotations

import argparse
import logging

from vpnsite_adapters.settings import Settings

log = logging.getLogger("vpnsite")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser("serve", help="serve the website and the API")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default 8000)")
    serve.add_argument("--threads", type=int, help="worker threads (default 8)")
    serve.add_argument("--data-dir", dest="command_data_dir", help=argparse.SUPPRESS)
    serve.set_defaults(handler=run_serve)

    migrate = commands.add_parser("migrate", help="apply the database migrations this database lacks")
    migrate.set_defaults(handler=run_migrate)


def run_serve(settings: Settings, _args: argparse.Namespace) -> int:
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
        waitress.serve(app, host=settings.host, port=settings.port, threads=settings.threads, ident="vpnsite")
    finally:
        services.close()
    return 0


def run_migrate(settings: Settings, _args: argparse.Namespace) -> int:
    from vpnsite_adapters.sql.database import open_database
    from vpnsite_adapters.sql.migrations import LATEST, migrate

    db = open_database(settings.database_url)
    applied = migrate(db)
    db.close()
    print(f"applied {applied}" if applied else f"up to date (version {LATEST})")
    return 0
