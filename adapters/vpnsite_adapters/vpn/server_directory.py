"""The directory a VPN server runs from: keys, OpenVPN configs, the key check, `node.json` with the
hub's address and the server's token, and a systemd unit for `vpnsite node run`. Every path in
it is relative, so it works wherever it is copied."""

from __future__ import annotations

import base64
import secrets
import shutil
from collections.abc import Sequence
from pathlib import Path

from vpnsite.fleet import VpnServer
from vpnsite_adapters.operations.service_units import installed_executable, node_unit
from vpnsite_adapters.vpn import wireguard
from vpnsite_adapters.vpn.pki import write_secret
from vpnsite_adapters.vpn.profiles import server_config
from vpnsite_node.config import DENY_LIST, KEY_CHECK, Instance, Ipv6Mode, NodeConfig, WireguardSetup

SUBNETS = {"udp": ("10.8.0.0/16", "fd7e:5a1e:8::/64"), "tcp": ("10.9.0.0/16", "fd7e:5a1e:9::/64")}
WIREGUARD_ADDRESS, WIREGUARD_SUBNET = "10.66.0.1/16", "10.66.0.0/16"
DEFAULT_DNS = ("1.1.1.1", "9.9.9.9")
INSTALL_DIR = "/etc/vpnsite-node"
# Where `pip install` puts the script on a server without a virtualenv.
SYSTEM_EXECUTABLE = "/usr/local/bin/vpnsite"
UNIT = "vpnsite-node.service"
TOKEN_KEY = "auth-token.key"
AUTH_TOKEN_PEM = "OpenVPN auth-token server key"
AUTH_TOKEN_KEY_BYTES = 128

# Runs inside OpenVPN, as its unprivileged user, before any TLS work on a new connection: only
# keys this hub made (they carry "licence:ID") and none of a licence on the deny list. A shell
# script, because OpenVPN hands the key's metadata to this script and to nothing else.
KEY_CHECK_SCRIPT = f"""#!/bin/sh
PATH=/usr/bin:/bin
[ "$metadata_type" = 0 ] || exit 1
metadata=""
IFS= read -r metadata < "$metadata_file" || [ -n "$metadata" ] || exit 1
case "$metadata" in licence:*) ;; *) exit 1 ;; esac
licence=${{metadata#licence:}}
case "$licence" in "" | *[!0-9A-Za-z_-]*) exit 1 ;; esac
grep -qxF -- "$licence" {DENY_LIST}
[ $? -eq 1 ]
"""


def auth_token_key() -> bytes:
    """A key for OpenVPN's session tokens (`auth-gen-token-secret`), as `openvpn --genkey
    auth-token` writes one. Kept in the directory, so a token outlives a restart of OpenVPN or of
    the node and the app reconnects without its password; a new one comes with each new server
    token, so a directory taken from a server leaves nothing usable once the server is re-keyed."""
    body = base64.b64encode(secrets.token_bytes(AUTH_TOKEN_KEY_BYTES)).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    armoured = [f"-----BEGIN {AUTH_TOKEN_PEM}-----", *lines, f"-----END {AUTH_TOKEN_PEM}-----", ""]
    return "\n".join(armoured).encode()


def write_server_directory(
    out: Path,
    server: VpnServer,
    vpn_keys_dir: Path,
    hub: str,
    token: str,
    dns: Sequence[str] = DEFAULT_DNS,
    ipv6: Ipv6Mode = "block",
    install_dir: str = INSTALL_DIR,
    executable: str | None = None,
    site: str = "",
    new_token_key: bool = True,
) -> list[str]:
    """Write everything; the names of the files written. The unit runs ``executable`` (by default
    where this installation keeps `vpnsite`, as the server is expected to be installed alike);
    ``site`` is the website a refused app sends its user to."""
    name = server.location.id
    unit = node_unit(executable or installed_executable() or SYSTEM_EXECUTABLE, install_dir, name)
    out.mkdir(parents=True, exist_ok=True)
    out.chmod(0o755)
    shutil.copyfile(vpn_keys_dir / "ca.crt", out / "ca.crt")
    write_secret(out / "server.crt", (vpn_keys_dir / "servers" / f"{name}.crt").read_bytes())
    write_secret(out / "server.key", (vpn_keys_dir / "servers" / f"{name}.key").read_bytes())
    write_secret(out / "tls-crypt-v2-server.key", (vpn_keys_dir / "tls-crypt-v2-server.key").read_bytes())
    if new_token_key or not (out / TOKEN_KEY).exists():
        write_secret(out / TOKEN_KEY, auth_token_key())
    (out / KEY_CHECK).write_text(KEY_CHECK_SCRIPT)
    (out / KEY_CHECK).chmod(0o755)
    written = ["ca.crt", "server.crt", "server.key", "tls-crypt-v2-server.key", TOKEN_KEY, KEY_CHECK]
    instances = []
    for protocol, port in (("udp", server.udp_port), ("tcp", server.tcp_port)):
        if not port:
            continue
        subnet, subnet6 = SUBNETS[protocol]
        instance = Instance(protocol, f"server-{protocol}.conf", subnet, subnet6)
        (out / instance.config).write_text(
            server_config(
                name,
                protocol,
                port,
                subnet,
                subnet6 if ipv6 == "route" else None,
                instance.management,
                KEY_CHECK,
                dns,
                TOKEN_KEY,
            )
        )
        instances.append(instance)
        written.append(instance.config)
    setup = None
    wg_key = vpn_keys_dir / "servers" / f"{name}.wg"
    if server.wg_port and wg_key.exists():
        write_secret(
            out / "wg0.conf", wireguard.server_config(wg_key.read_text().strip(), server.wg_port).encode()
        )
        setup = WireguardSetup("wg0", "wg0.conf", WIREGUARD_ADDRESS, WIREGUARD_SUBNET)
        written.append("wg0.conf")
    # The operator's exit addresses only: one the hub learnt stays the hub's, followed as it changes.
    exits = server.configured_exit_addresses
    config = NodeConfig(name, hub, token, tuple(instances), setup, ipv6, exits, site)
    write_secret(out / "node.json", config.to_json().encode())
    (out / UNIT).write_text(unit)
    return [*written, "node.json", UNIT]
