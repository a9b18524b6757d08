"""``vpnsite vpn init|add-server|server-config``: put a VPN server into service."""

from __future__ import annotations

import argparse
import json
import secrets
import shutil
from pathlib import Path

from vpnsite.fleet import Location
from vpnsite.keyed_hashes import Keyring
from vpnsite_adapters.settings import Settings
from vpnsite_adapters.vpn import wireguard
from vpnsite_adapters.vpn.keystore import VpnNotInitialised, initialise, load_keys, vpn_dir
from vpnsite_adapters.vpn.pki import write_secret
from vpnsite_adapters.vpn.profiles import server_config

UDP_SUBNET, TCP_SUBNET = "10.8.0.0", "10.9.0.0"


def register(vpn_commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    init = vpn_commands.add_parser("init", help="create the CA and the tls-crypt-v2 server key (once)")
    init.set_defaults(handler=run_init)

    add = vpn_commands.add_parser("add-server", help="register a server, issue its certificate and token")
    add.add_argument("name", help="e.g. nl-amsterdam")
    add.add_argument("--country", required=True, help="two-letter country code")
    add.add_argument("--city", required=True)
    add.add_argument("--host", required=True, help="the address clients connect to")
    add.add_argument("--udp-port", type=int, default=1194)
    add.add_argument("--tcp-port", type=int, default=443)
    add.add_argument("--wg-port", type=int, default=51820, help="WireGuard (experimental); 0 for none")
    add.add_argument("--display-name", help="the country as the status page shows it")
    add.set_defaults(handler=run_add_server)

    config = vpn_commands.add_parser("server-config", help="write everything a server needs into a folder")
    config.add_argument("name")
    config.add_argument("--out", required=True, type=Path)
    config.add_argument("--token", required=True, help="the server's token, as add-server showed it")
    config.add_argument("--hub", help="the hub's URL the hooks call (default: VPNSITE_PUBLIC_URL)")
    config.add_argument("--hook", default="vpnsite-openvpn-hook", help="the hook command on the server")
    config.set_defaults(handler=run_server_config)


def run_init(settings: Settings, _args: argparse.Namespace) -> int:
    created = initialise(settings.data_dir)
    print(f"{'created' if created else 'kept'} the VPN keys in {vpn_dir(settings.data_dir)}")
    return 0


def run_add_server(settings: Settings, args: argparse.Namespace) -> int:
    from vpnsite_adapters.sql.store import SqlStore

    try:
        keys = load_keys(settings.data_dir, settings.secret_key)
    except VpnNotInitialised as error:
        print(f"vpnsite: {error}")
        return 2
    location = Location(args.name, args.display_name or args.country.upper(), args.country.lower(), args.city)
    token = secrets.token_urlsafe(32)
    store = SqlStore.open(settings.database_url)
    try:
        if not store.fleet.add_server(location, args.host, args.udp_port or None, args.tcp_port or None):
            print(f"vpnsite: a server named {args.name} exists")
            return 1
        store.fleet.set_token(args.name, Keyring.from_master(settings.secret_key).nodes.hash(token))
        folder = vpn_dir(settings.data_dir) / "servers"
        if args.wg_port:
            private, public = wireguard.new_server_key()
            write_secret(folder / f"{args.name}.wg", private.encode())
            store.fleet.set_wireguard(args.name, args.wg_port, public)
    finally:
        store.close()
    key_pem, cert_pem = keys.ca.issue_server(args.name)
    write_secret(folder / f"{args.name}.key", key_pem)
    write_secret(folder / f"{args.name}.crt", cert_pem)
    print(f"server {args.name} registered. Its token (shown once; the agent and the hooks use it):\n{token}")
    return 0


def run_server_config(settings: Settings, args: argparse.Namespace) -> int:
    from vpnsite_adapters.sql.store import SqlStore

    hub = args.hub or settings.public_url
    if not hub:
        print("vpnsite: give the hub's URL with --hub (or set VPNSITE_PUBLIC_URL)")
        return 2
    store = SqlStore.open(settings.database_url)
    try:
        server = store.fleet.find_server(args.name)
        owner = store.sessions.server_for_token(
            Keyring.from_master(settings.secret_key).nodes.hash(args.token)
        )
    finally:
        store.close()
    if server is None or owner != args.name:
        print(f"vpnsite: no server {args.name} with that token")
        return 1
    source = vpn_dir(settings.data_dir)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source / "ca.crt", out / "ca.crt")
    write_secret(out / "server.crt", (source / "servers" / f"{args.name}.crt").read_bytes())
    write_secret(out / "server.key", (source / "servers" / f"{args.name}.key").read_bytes())
    write_secret(out / "tls-crypt-v2-server.key", (source / "tls-crypt-v2-server.key").read_bytes())
    write_secret(out / "hook.json", json.dumps({"hub": hub, "token": args.token}).encode())
    hook = f"{args.hook} {(out / 'hook.json').resolve()}"
    written = []
    for protocol, port, subnet in (
        ("udp", server.udp_port, UDP_SUBNET),
        ("tcp", server.tcp_port, TCP_SUBNET),
    ):
        if port:
            (out / f"server-{protocol}.conf").write_text(
                server_config(args.name, protocol, port, subnet, hook)
            )
            written.append(f"server-{protocol}.conf")
    wg_key = source / "servers" / f"{args.name}.wg"
    if server.wg_port and wg_key.exists():
        write_secret(
            out / "wg0.conf", wireguard.server_config(wg_key.read_text().strip(), server.wg_port).encode()
        )
        written.append("wg0.conf")
    print(
        f"wrote {', '.join(written)} and the keys into {out}; start with `openvpn --cd {out} --config FILE`"
    )
    return 0
