"""``vpnsite``: serve the site and run the service from the command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from vpnsite_adapters.cli import (
    data_commands,
    mail_commands,
    node_commands,
    operator_commands,
    service_commands,
    vpn_commands,
)
from vpnsite_adapters.log_lines import configure_logging
from vpnsite_adapters.settings import SettingsError, load_settings

COMMAND_GROUPS = (
    service_commands,
    data_commands,
    mail_commands,
    operator_commands,
    node_commands,
    vpn_commands,
)


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="vpnsite", description=__doc__)
    root.add_argument("--data-dir", help="where the SQLite database and the secret key live")
    commands = root.add_subparsers(dest="command", required=True)
    for group in COMMAND_GROUPS:
        group.register(commands)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    configure_logging()
    args = parser().parse_args(argv)
    if not getattr(args, "hub_settings", True):
        return int(args.handler(None, args))
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
    return int(args.handler(settings, args))


if __name__ == "__main__":
    sys.exit(main())
