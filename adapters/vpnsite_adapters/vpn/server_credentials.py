"""A server's credentials as files (mode 0600) beside the VPN keys, where ``vpn server-config``
copies them from: its WireGuard private key and its certificate with its key."""

from __future__ import annotations

from pathlib import Path

from attrs import frozen

from vpnsite_adapters.vpn import wireguard
from vpnsite_adapters.vpn.keystore import VpnKeys, vpn_dir
from vpnsite_adapters.vpn.pki import write_secret


@frozen
class ServerCredentialFiles:
    keys: VpnKeys
    folder: Path

    @classmethod
    def in_data_dir(cls, keys: VpnKeys, data_dir: Path) -> ServerCredentialFiles:
        return cls(keys, vpn_dir(data_dir) / "servers")

    def new_wireguard_key(self, server_id: str) -> str:
        private, public = wireguard.new_server_key()
        write_secret(self.folder / f"{server_id}.wg", private.encode())
        return public

    def issue_certificate(self, server_id: str) -> None:
        key_pem, cert_pem = self.keys.ca.issue_server(server_id)
        write_secret(self.folder / f"{server_id}.key", key_pem)
        write_secret(self.folder / f"{server_id}.crt", cert_pem)
