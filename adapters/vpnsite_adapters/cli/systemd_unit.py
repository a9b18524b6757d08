"""``vpnsite systemd-unit hub|node``: a hardened systemd unit for this installation, on stdout."""

from __future__ import annotations

import argparse
import sys

from vpnsite_adapters.operations.service_units import UnitError, hub_unit, installed_executable, node_unit
from vpnsite_adapters.vpn.server_directory import INSTALL_DIR


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    unit = commands.add_parser(
        "systemd-unit", help="print a hardened systemd unit for the hub or a VPN server"
    )
    kinds = unit.add_subparsers(dest="unit_kind", required=True)
    hub = kinds.add_parser("hub", help="`vpnsite serve` (install as /etc/systemd/system/vpnsite.service)")
    hub.add_argument(
        "--data-dir",
        dest="unit_data_dir",
        default="/var/lib/vpnsite",
        help="the data directory (default /var/lib/vpnsite, systemd's StateDirectory)",
    )
    hub.add_argument("--user", help="run as this existing user (default: a dynamic user of systemd's)")
    node = kinds.add_parser("node", help="`vpnsite node run` (install as vpnsite-node.service)")
    node.add_argument("--dir", default=INSTALL_DIR, help=f"the server's directory (default {INSTALL_DIR})")
    node.add_argument("--openvpn-user", default="nobody", help="the user OpenVPN runs as after start")
    for kind in (hub, node):
        kind.add_argument("--executable", help="the `vpnsite` script (default: this installation's)")
        # Printing a unit needs no hub settings and must not create a data directory or a secret.
        kind.set_defaults(handler=run_systemd_unit, store=None, hub_settings=False)


def run_systemd_unit(args: argparse.Namespace) -> int:
    executable = args.executable or installed_executable()
    if executable is None:
        print(
            "vpnsite: cannot find the installed `vpnsite` script: give it with --executable", file=sys.stderr
        )
        return 2
    try:
        if args.unit_kind == "hub":
            text = hub_unit(executable, args.unit_data_dir, args.user)
        else:
            text = node_unit(executable, args.dir, openvpn_user=args.openvpn_user)
    except UnitError as error:
        print(f"vpnsite: {error}", file=sys.stderr)
        return 2
    print(text, end="")
    return 0
