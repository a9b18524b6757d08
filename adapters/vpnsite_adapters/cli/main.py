"""``vpnsite``: serve the site and run the service from the command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

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
from vpnsite_adapters.http.slot_manifest import SlotMismatch
from vpnsite_adapters.keyring_file import KeyRingFileError
from vpnsite_adapters.log_lines import configure_logging, use_log_format
from vpnsite_adapters.settings import Settings, SettingsError, load_settings

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
    root.add_argument("--data-dir", help="where the SQLite database and the secret key live")
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
    overrides = {
        "data_dir": getattr(args, "command_data_dir", None) or args.data_dir,
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
    except (KeyRingFileError, SlotMismatch) as error:
        print(f"vpnsite: {error}", file=sys.stderr)
        return 2


def _with_console(settings: Settings, args: argparse.Namespace) -> int:
    from vpnsite_adapters.bootstrap import open_console

    console = open_console(settings, migrate=args.store == "write")
    try:
        with console.store.unit_of_work.scope():
            if not console.store.schema_is_current():
                print("vpnsite: the database is not set up for this version: run `vpnsite migrate`")
                return 2
            return int(args.handler(console, args))
    finally:
        console.close()


if __name__ == "__main__":
    sys.exit(main())
