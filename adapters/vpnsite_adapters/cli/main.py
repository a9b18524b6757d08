"""``vpnsite``: serve the site and run the service from the command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from vpnsite.errors import StoreUnavailable
from vpnsite_adapters.cli import (
    backup,
    keys,
    licences,
    mail,
    migrate,
    node,
    privacy,
    retention,
    serve,
    stats,
    systemd_unit,
    tickets,
    vpn,
)
from vpnsite_adapters.http.pages.slot_manifest import SlotMismatch
from vpnsite_adapters.protection.keyring_file import KeyRingFileError
from vpnsite_adapters.runtime.log_lines import configure_logging, use_log_format
from vpnsite_adapters.settings import Settings, SettingsError, database_sought, load_settings
from vpnsite_adapters.texts.catalogue import MissingCatalogue

COMMANDS = (
    serve,
    migrate,
    retention,
    privacy,
    mail,
    tickets,
    licences,
    stats,
    node,
    vpn,
    keys,
    backup,
    systemd_unit,
)


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="vpnsite", description=__doc__)
    root.add_argument(
        "--data-dir", help="where the SQLite database and the secret key live (before the command)"
    )
    commands = root.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.register(commands)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    """Each subcommand says what it needs: nothing of the hub (``node run``, on a VPN server),
    the settings (``store="none"``), or the database to read (never migrated) or to write."""
    configure_logging()
    args = parser().parse_args(argv)
    if not getattr(args, "hub_settings", True):
        return int(args.handler(args))
    data_dir = getattr(args, "command_data_dir", None) or args.data_dir
    if args.store in ("read", "write") or getattr(args, "needs_database", False):
        # Run in the wrong directory, a command would otherwise start a new, empty database and
        # report on it (say, "0 licences erased") as if it were the hub's.
        sought = database_sought(data_dir)
        from vpnsite_adapters.bootstrap import sqlite_file

        path = sqlite_file(sought[1])
        if path is not None and not path.exists():
            print(_no_database(sought[0], sought[1]), file=sys.stderr)
            return 2
    overrides = {
        "data_dir": data_dir,
        "host": getattr(args, "host", None),
        "port": getattr(args, "port", None),
        "threads": getattr(args, "threads", None),
        "demo": getattr(args, "demo", None),
    }
    try:
        settings = load_settings(**overrides)
    except SettingsError as error:
        print(f"vpnsite: {error}", file=sys.stderr)
        return 2
    use_log_format(settings.log_format)
    try:
        if args.store == "none":
            return int(args.handler(settings, args))
        return _with_console(settings, args)
    except StoreUnavailable:
        print("vpnsite: the database cannot be reached", file=sys.stderr)
        return 2
    except (KeyRingFileError, SlotMismatch, MissingCatalogue) as error:
        print(f"vpnsite: {error}", file=sys.stderr)
        return 2


def _no_database(data_dir: Path, url: str) -> str:
    return (
        f"vpnsite: no database in the data directory {data_dir} (looked for {database_name(url)}): "
        "give the hub's directory with `vpnsite --data-dir DIR ...` (or VPNSITE_DATA_DIR), "
        "or set up a new one with `vpnsite migrate`"
    )


def database_name(url: str) -> str:
    """The database as an operator recognises it: the SQLite file, or the URL without its password."""
    from vpnsite_adapters.bootstrap import sqlite_file

    path = sqlite_file(url)
    if path is not None:
        return str(path.resolve())
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")))


def _with_console(settings: Settings, args: argparse.Namespace) -> int:
    from vpnsite_adapters.bootstrap import open_console

    console = open_console(settings, migrate=False)
    try:
        with console.unit_of_work.scope():
            if console.schema_version() == 0:
                # A database server's empty database: not the hub's either.
                print(_no_database(settings.data_dir, settings.database_url), file=sys.stderr)
                return 2
            if args.store == "write":
                console.migrate()
            if not console.schema_is_current():
                print("vpnsite: the database is not set up for this version: run `vpnsite migrate`")
                return 2
            code = int(args.handler(console, args))
        if args.store == "write" and code == 0:
            print(f"vpnsite: written to the database {database_name(settings.database_url)}", file=sys.stderr)
        return code
    finally:
        console.close()


if __name__ == "__main__":
    sys.exit(main())
