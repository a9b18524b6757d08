"""WireGuard (experimental, desktops): key pairs and the client's tunnel configuration."""

from __future__ import annotations

import base64
import hashlib
import hmac

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from vpnsite.fleet import VpnServer
from vpnsite.tunnel_addresses import NETWORK, SERVER_ADDRESS

_RAW = serialization.Encoding.Raw


def _encode(key: bytes) -> str:
    return base64.b64encode(key).decode()


def key_pair(private: X25519PrivateKey) -> tuple[str, str]:
    raw_private = private.private_bytes(_RAW, serialization.PrivateFormat.Raw, serialization.NoEncryption())
    raw_public = private.public_key().public_bytes(_RAW, serialization.PublicFormat.Raw)
    return _encode(raw_private), _encode(raw_public)


def new_server_key() -> tuple[str, str]:
    return key_pair(X25519PrivateKey.generate())


def client_key(secret: bytes, licence_id: str, server_id: str) -> tuple[str, str]:
    """The licence's key pair for one server, derived from a server secret: nothing to store, the
    same profile on every download."""
    seed = hmac.new(secret, f"wireguard/{licence_id}/{server_id}".encode(), hashlib.sha256).digest()
    return key_pair(X25519PrivateKey.from_private_bytes(seed))


def client_config(server: VpnServer, private_key: str, address: str) -> str:
    """Everything goes into the tunnel, IPv6 included: the server has no IPv6 for WireGuard
    clients and drops it, so none leaks beside the tunnel."""
    return f"""# vpnsite — {server.location.name}, {server.location.city} (WireGuard: experimental, desktop)
[Interface]
PrivateKey = {private_key}
Address = {address}/32
DNS = 1.1.1.1, 9.9.9.9

[Peer]
PublicKey = {server.wg_public_key}
Endpoint = {server.host}:{server.wg_port}
AllowedIPs = 0.0.0.0/0, ::/0
PersistentKeepalive = 25
"""


def server_config(private_key: str, port: int) -> str:
    """For `wg setconf`; the agent adds and removes the peers as licences come and go."""
    return f"""# vpnsite WireGuard: give the interface {SERVER_ADDRESS}/{NETWORK.prefixlen}
[Interface]
PrivateKey = {private_key}
ListenPort = {port}
"""
