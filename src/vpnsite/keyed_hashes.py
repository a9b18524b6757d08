"""Keyed hashes (HMAC-SHA256) of the secrets we must recognise but never keep: activation codes,
renewal-link tokens and the subjects of rate limits. A stolen database reveals none of them."""

from __future__ import annotations

import hashlib
import hmac

from attrs import frozen


def derive_key(master: bytes, purpose: str) -> bytes:
    """A separate key per purpose, so one hash can never be replayed as another."""
    return hmac.new(master, b"vpnsite/" + purpose.encode(), hashlib.sha256).digest()


@frozen
class KeyedHasher:
    key: bytes

    def hash(self, value: str) -> str:
        return hmac.new(self.key, value.encode(), hashlib.sha256).hexdigest()


@frozen
class Keyring:
    """Every key the domain uses, derived from one server secret."""

    signup: bytes
    codes: KeyedHasher
    tokens: KeyedHasher
    subjects: KeyedHasher
    nodes: KeyedHasher
    archive_links: bytes

    @classmethod
    def from_master(cls, master: bytes) -> Keyring:
        return cls(
            signup=derive_key(master, "signup-requests"),
            codes=KeyedHasher(derive_key(master, "activation-codes")),
            tokens=KeyedHasher(derive_key(master, "archive-tokens")),
            subjects=KeyedHasher(derive_key(master, "rate-limit-subjects")),
            nodes=KeyedHasher(derive_key(master, "node-tokens")),
            archive_links=derive_key(master, "archive-links"),
        )
