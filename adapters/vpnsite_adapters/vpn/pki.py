"""The OpenVPN PKI on `cryptography`: an ECDSA P-256 CA, server certificates, the tls-crypt-v2
server key, and per-licence tls-crypt-v2 client keys wrapped as OpenVPN's doc/tls-crypt-v2.txt
describes (an SIV construction of HMAC-SHA256 and AES-256-CTR)."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import os
import struct
import textwrap
from pathlib import Path

from attrs import frozen
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

SERVER_KEY_PEM = "OpenVPN tls-crypt-v2 server key"
CLIENT_KEY_PEM = "OpenVPN tls-crypt-v2 client key"
METADATA_USER = b"\x00"
CLIENT_KEY_BYTES = 256  # 2048 bits: the four 512-bit keys of a tls-crypt key
CA_YEARS = 20
SERVER_CERT_YEARS = 5


def pem_block(label: str, data: bytes) -> str:
    body = "\n".join(textwrap.wrap(base64.b64encode(data).decode(), 64))
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----\n"


def read_pem_block(label: str, text: str) -> bytes:
    start, end = f"-----BEGIN {label}-----", f"-----END {label}-----"
    inside = text.split(start, 1)[1].split(end, 1)[0]
    return base64.b64decode("".join(inside.split()))


def write_secret(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as file:
        file.write(content)


@frozen
class TlsCryptV2ServerKey:
    encryption: bytes  # Ke: the first 256 bits of the first 512-bit key
    authentication: bytes  # Ka: the first 256 bits of the second

    @classmethod
    def generate(cls) -> tuple[TlsCryptV2ServerKey, str]:
        raw = os.urandom(128)
        return cls.parse(pem_block(SERVER_KEY_PEM, raw)), pem_block(SERVER_KEY_PEM, raw)

    @classmethod
    def parse(cls, pem: str) -> TlsCryptV2ServerKey:
        raw = read_pem_block(SERVER_KEY_PEM, pem)
        if len(raw) != 128:
            raise ValueError("a tls-crypt-v2 server key holds two 512-bit keys")
        return cls(raw[:32], raw[64:96])

    def wrap_client_key(self, client_key: bytes, metadata: bytes) -> str:
        """The client key file: Kc followed by WKc = T || AES-256-CTR(Ke, T[:16], Kc || metadata) || len."""
        if len(client_key) != CLIENT_KEY_BYTES:
            raise ValueError("a tls-crypt-v2 client key is 2048 bits")
        plain = client_key + metadata
        length = struct.pack("!H", 32 + len(plain) + 2)
        tag = hmac.new(self.authentication, length + plain, hashlib.sha256).digest()
        encryptor = Cipher(algorithms.AES(self.encryption), modes.CTR(tag[:16])).encryptor()
        wrapped = tag + encryptor.update(plain) + encryptor.finalize() + length
        return pem_block(CLIENT_KEY_PEM, client_key + wrapped)

    def unwrap_client_key(self, pem: str) -> tuple[bytes, bytes]:
        """(Kc, metadata) of a client key file; ValueError if it was not wrapped with this key."""
        raw = read_pem_block(CLIENT_KEY_PEM, pem)
        client_key, wrapped = raw[:CLIENT_KEY_BYTES], raw[CLIENT_KEY_BYTES:]
        (length,) = struct.unpack("!H", wrapped[-2:])
        if length != len(wrapped):
            raise ValueError("wrapped key length does not match")
        tag, encrypted = wrapped[:32], wrapped[32:-2]
        decryptor = Cipher(algorithms.AES(self.encryption), modes.CTR(tag[:16])).decryptor()
        plain = decryptor.update(encrypted) + decryptor.finalize()
        expected = hmac.new(self.authentication, wrapped[-2:] + plain, hashlib.sha256).digest()
        if not hmac.compare_digest(expected, tag) or plain[:CLIENT_KEY_BYTES] != client_key:
            raise ValueError("the client key was not wrapped with this server key")
        return client_key, plain[CLIENT_KEY_BYTES:]


def licence_client_key(secret: bytes, licence_id: str) -> bytes:
    """The licence's tls-crypt-v2 client key, derived from a server secret: the same archive every
    time, and nothing to store."""
    blocks = [
        hmac.new(secret, f"tls-crypt-v2-client/{licence_id}/{i}".encode(), hashlib.sha512).digest()
        for i in range(4)
    ]
    return b"".join(blocks)


def licence_metadata(licence_id: str) -> bytes:
    return METADATA_USER + f"licence:{licence_id}".encode()


def licence_of_metadata(metadata: bytes) -> str | None:
    if not metadata.startswith(METADATA_USER + b"licence:"):
        return None
    return metadata[len(METADATA_USER + b"licence:") :].decode("ascii", "replace")


@frozen
class CertificateAuthority:
    key: ec.EllipticCurvePrivateKey
    certificate: x509.Certificate

    @classmethod
    def create(cls, name: str = "vpnsite CA") -> CertificateAuthority:
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        now = dt.datetime.now(dt.UTC)
        certificate = (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=365 * CA_YEARS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
            )
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256())
        )
        return cls(key, certificate)

    @classmethod
    def load(cls, key_pem: bytes, certificate_pem: bytes) -> CertificateAuthority:
        key = serialization.load_pem_private_key(key_pem, password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ValueError("the CA key must be an EC key")
        return cls(key, x509.load_pem_x509_certificate(certificate_pem))

    def key_pem(self) -> bytes:
        return self.key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )

    def certificate_pem(self) -> bytes:
        return self.certificate.public_bytes(serialization.Encoding.PEM)

    def issue_server(self, name: str) -> tuple[bytes, bytes]:
        """A key and a certificate for the server ``name`` (CN = name, serverAuth)."""
        key = ec.generate_private_key(ec.SECP256R1())
        now = dt.datetime.now(dt.UTC)
        certificate = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
            .issuer_name(self.certificate.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=365 * SERVER_CERT_YEARS))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(
                x509.KeyUsage(True, False, True, False, True, False, False, False, False), critical=True
            )
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()), critical=False
            )
            .sign(self.key, hashes.SHA256())
        )
        key_pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        return key_pem, certificate.public_bytes(serialization.Encoding.PEM)
