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
    serve.add_argument(
        "--demo",
        action="store_true",
        default=None,
        help="run simulated VPN servers so the status page is live",
    )
    serve.set_defaults(handler=run_serve)

    migrate = commands.add_parser("migrate", help="apply the database migrations this database lacks")
    migrate.set_defaults(handler=run_migrate)


def run_serve(settings: Settings, _args: argparse.Namespace) -> int:
    import waitress

    from vpnsite_adapters.bootstrap import build_services
    from vpnsite_adapters.demo_fleet import DemoFleet
    from vpnsite_adapters.http.app import create_app
    from vpnsite_adapters.vpn.keystore import initialise

    initialise(settings.data_dir)
    services = build_services(settings)
    services.start_background_work()
    server = waitress.create_server(
        create_app(services),
        host=settings.host,
        port=settings.port,
        threads=settings.threads,
        ident="vpnsite",
    )
    log.info(
        "vpnsite on http://%s:%d (data in %s, database %s)%s",
        settings.host,
        settings.port,
        settings.data_dir,
        settings.database_url.split("://")[0],
        " — DEMO: the VPN servers on the status page are simulated" if settings.demo else "",
    )
    demo = None
    if settings.demo:
        local = "127.0.0.1" if settings.host in ("0.0.0.0", "::", "") else settings.host
        demo = DemoFleet(services.store, services.fleet.hasher, f"http://{local}:{settings.port}")
        demo.start()
        services.probe.reach_at.update(demo.reach_at)
    try:
        server.run()
    finally:
        if demo is not None:
            demo.stop()
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
