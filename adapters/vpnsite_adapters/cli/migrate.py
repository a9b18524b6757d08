"""``vpnsite migrate``: bring the database schema up to date."""

from __future__ import annotations

import argparse

from vpnsite_adapters.settings import Settings


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    migrate = commands.add_parser("migrate", help="apply the database migrations this database lacks")
    migrate.set_defaults(handler=run_migrate, store="none")


def run_migrate(settings: Settings, _args: argparse.Namespace) -> int:
    from vpnsite_adapters.bootstrap import open_store

    store = open_store(settings, migrate=False)
    try:
        applied = store.migrate()
        print(f"applied {applied}" if applied else f"up to date (version {store.schema_version()})")
    finally:
        store.close()
    return 0
