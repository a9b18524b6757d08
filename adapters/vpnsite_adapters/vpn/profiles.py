"""OpenVPN configurations: the client profiles of the personal archive and each server's own."""

from __future__ import annotations

import io
import ipaddress
import zipfile
from collections.abc import Sequence

from attrs import frozen

from vpnsite.fleet import VpnServer
from vpnsite_adapters.texts.catalogue import catalogue

CIPHERS = "AES-256-GCM:CHACHA20-POLY1305"
# Each instance's subnet is a /16: room for this many clients at once.
MAX_CLIENTS = 16_000
# Seconds between pings on a quiet tunnel, and of silence before a client starts again.
KEEPALIVE_PING, KEEPALIVE_RESTART = 2, 8
# Seconds between renewals of a client's session token (OpenVPN wants at least 120).
TOKEN_RENEWAL = 3600
# How a UDP client comes back after its server restarts (issue 40: at most 3 s after the new
# server is up). Within an attempt it resends its first packet after tls-timeout (2 s by default),
# doubling each time: 2, 4, 8 s... A client told to reconnect by a stopping server sends into the
# restart and then waited up to 4 s once the new server was up (3.9 s measured). With 1 s, and a
# fresh attempt after 4 s without an answer (server-poll-timeout; 120 s by default, 10 s in
# OpenVPN 3), its packets leave at 0, 1 and 3 s, and so again from 4 s: never more than 2 s apart.
# OpenVPN 2.6 and OpenVPN Connect (OpenVPN 3) both read these two. (A TCP client refused by a
# server that is down pauses 1 s between its first five attempts; connect-retry could keep it so,
# but its ceiling would also cut short the wait a server asks for after a burst of wrong codes.)
UDP_RECONNECT = "tls-timeout 1\nserver-poll-timeout 4"


@frozen
class Endpoint:
    server: VpnServer
    protocol: str  # "udp" or "tcp"
    port: int

    @property
    def file_name(self) -> str:
        return f"{self.server.location.id}-{self.protocol}.ovpn"


def endpoints(
    servers: Sequence[VpnServer], udp_ports: dict[str, int | None], tcp_ports: dict[str, int | None]
) -> list[Endpoint]:
    found = []
    for server in servers:
        if not server.host:
            continue
        udp, tcp = udp_ports.get(server.location.id), tcp_ports.get(server.location.id)
        if udp:
            found.append(Endpoint(server, "udp", udp))
        if tcp:
            found.append(Endpoint(server, "tcp", tcp))
    return found


def client_profile(endpoint: Endpoint, ca_pem: str, client_key_pem: str) -> str:
    """A profile with no login secret: the app asks for the e-mail and the activation code.
    OpenVPN 3 (OpenVPN Connect) takes a profile without `cert`/`key` for one whose certificate
    lives outside it and asks for one at import, unless told `setenv CLIENT_CERT 0`; every key
    is inline, so a profile imported from a link needs no other file."""
    server = endpoint.server
    protocol = "udp" if endpoint.protocol == "udp" else "tcp-client"
    udp_only = f"{UDP_RECONNECT}\nexplicit-exit-notify 1" if endpoint.protocol == "udp" else ""
    return f"""# vpnsite — {server.location.name}, {server.location.city} ({endpoint.protocol.upper()})
client
dev tun
proto {protocol}
remote {server.host} {endpoint.port}
nobind
persist-key
persist-tun
resolv-retry infinite
remote-cert-tls server
verify-x509-name {server.location.id} name
tls-version-min 1.2
data-ciphers {CIPHERS}
auth-user-pass
setenv CLIENT_CERT 0
setenv opt block-outside-dns
verb 3
{udp_only}
<ca>
{ca_pem.strip()}
</ca>
<tls-crypt-v2>
{client_key_pem.strip()}
</tls-crypt-v2>
"""


def archive(profiles: dict[str, str], language: str, rule: str | None) -> bytes:
    """The zip: the README (its steps in ``language``; ``rule``, the device limit in the website's
    words for the fleet, or None without a website, when the step that needs it is left out) and
    the profiles."""
    texts = catalogue(language)
    title = texts.archive_title
    steps = [
        step.replace("{rule}", rule or "") for step in texts.archive_steps if rule or "{rule}" not in step
    ]
    readme = (
        title
        + "\n"
        + "=" * len(title)
        + "\n\n"
        + "\n".join(f"{n}. {step}" for n, step in enumerate(steps, 1))
        + "\n"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("README.txt", readme)
        for name, text in sorted(profiles.items()):
            zipped.writestr(name, text)
    return buffer.getvalue()


# UDP has no connection to answer on: without multihome, a reply leaves from whichever address the
# kernel picks for the client's route, and a client that reached a secondary or floating address
# drops it ("Incoming packet rejected ... expected peer address"). explicit-exit-notify tells every
# client to reconnect at once when the server stops (SIGTERM) or restarts.
UDP_ONLY = "multihome\nexplicit-exit-notify 1"


def server_config(
    name: str,
    protocol: str,
    port: int,
    subnet: str,
    subnet6: str | None,
    management: str,
    key_check: str,
    dns: Sequence[str],
    token_key: str,
) -> str:
    """One OpenVPN 2.6 server instance. Logins are answered by the node through the management
    socket; no client certificates, no compression, no status file, nothing that logs addresses.
    Every path is relative to the directory, which the node makes the working directory."""
    proto = "udp" if protocol == "udp" else "tcp-server"
    network = ipaddress.ip_network(subnet)
    pushes = "\n".join(f'push "dhcp-option DNS {address}"' for address in dns)
    # One redirect-gateway line: IPv4 and IPv6 both go into the tunnel. Without IPv6 in the
    # tunnel, the client blocks it: nothing leaks beside the tunnel.
    ipv6 = f"server-ipv6 {subnet6}" if subnet6 else 'push "block-ipv6"'
    return f"""# vpnsite server {name} — {protocol.upper()}
port {port}
proto {proto}
dev tun-{protocol}
topology subnet
server {network.network_address} {network.netmask}
{ipv6}
max-clients {MAX_CLIENTS}
ca ca.crt
cert server.crt
key server.key
dh none
ecdh-curve prime256v1
tls-crypt-v2 tls-crypt-v2-server.key
tls-crypt-v2-verify ./{key_check}
script-security 2
tls-version-min 1.2
data-ciphers {CIPHERS}
verify-client-cert none
username-as-common-name
management {management} unix
management-client-user root
management-client-auth
# A renegotiation is checked by OpenVPN itself against the token it gave the client at login
# (renewed every {TOKEN_RENEWAL} s, valid twice that): deferred to the node, the new key would wait
# for OpenVPN's next look at the client (up to 15 s), while the client already sends on it and
# its packets are dropped.
auth-gen-token 0 {TOKEN_RENEWAL}
# The tokens' key is the directory's, not one made up per process: a token outlives a restart.
auth-gen-token-secret {token_key}
# Which connection of a licence stays is the node's decision (the newest login, never a
# connection that presents only a token): OpenVPN must not drop one by its name by itself.
duplicate-cn
# A client hears within {KEEPALIVE_RESTART} s that its server is gone (a restarted OpenVPN forgets
# its UDP clients without a word) and connects again.
keepalive {KEEPALIVE_PING} {KEEPALIVE_RESTART}
persist-key
persist-tun
push "redirect-gateway def1 ipv6 bypass-dhcp"
{pushes}
{UDP_ONLY if protocol == "udp" else ""}
verb 1
mute-replay-warnings
"""
