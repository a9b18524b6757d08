"""The VPN secrets in the data directory (mode 0600): the CA, the tls-crypt-v2 server key, and the
two secrets every licence's client keys are derived from."""

from __future__ import annotations

import os
from pathlib import Path

from attrs import frozen

from vpnsite.keyed_hashes import derive_key
from vpnsite_adapters.vpn.pki import (
    CertificateAuthority,
    TlsCryptV2ServerKey,
    licence_client_key,
    licence_metadata,
    write_secret,
)

_CLIENT_SECRETS = "client-secrets.hex"


class VpnNotInitialised(RuntimeError):
    pass


@frozen
class VpnKeys:
    ca: CertificateAuthority
    server_key: TlsCryptV2ServerKey
    client_secret: bytes
    wireguard_secret: bytes

    def client_key_pem(self, licence_id: str) -> str:
        """The licence's own tls-crypt-v2 key, its id in the metadata: personal, and the same on
        every download."""
        return self.server_key.wrap_client_key(
            licence_client_key(self.client_secret, licence_id), licence_metadata(licence_id)
        )


def vpn_dir(data_dir: Path) -> Path:
    return data_dir / "vpn"


def initialise(data_dir: Path) -> bool:
    """Create the CA and the tls-crypt-v2 server key unless they exist; True if it created them."""
    folder = vpn_dir(data_dir)
    if (folder / "ca.crt").exists() and (folder / "tls-crypt-v2-server.key").exists():
        return False
    ca = CertificateAuthority.create()
    write_secret(folder / "ca.key", ca.key_pem())
    write_secret(folder / "ca.crt", ca.certificate_pem())
    _, pem = TlsCryptV2ServerKey.generate()
    write_secret(folder / "tls-crypt-v2-server.key", pem.encode())
    return True


def load_keys(data_dir: Path, master_secret: bytes) -> VpnKeys:
    folder = vpn_dir(data_dir)
    try:
        ca = CertificateAuthority.load((folder / "ca.key").read_bytes(), (folder / "ca.crt").read_bytes())
        pem = (folder / "tls-crypt-v2-server.key").read_text()
    except FileNotFoundError:
        raise VpnNotInitialised("the VPN keys are missing: run `vpnsite vpn init`") from None
    client_secret, wireguard_secret = _pinned_client_secrets(folder, master_secret)
    return VpnKeys(ca, TlsCryptV2ServerKey.parse(pem), client_secret, wireguard_secret)


def _pinned_client_secrets(folder: Path, master_secret: bytes) -> tuple[bytes, bytes]:
    """Users hold keys derived from these in their profiles, and servers hold their WireGuard
    peers: they must outlive any rotation of the master key. So they are derived once, from the
    original master secret, and kept in ``vpn/`` from then on."""
    path = folder / _CLIENT_SECRETS
    if not path.exists():
        secrets = derive_key(master_secret, "tls-crypt-v2-clients") + derive_key(
            master_secret, "wireguard-clients"
        )
        # Written whole then moved into place: a process starting beside this one reads it whole.
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        write_secret(temporary, secrets.hex().encode())
        os.replace(temporary, path)
    raw = bytes.fromhex(path.read_text().strip())
    return raw[:32], raw[32:]
