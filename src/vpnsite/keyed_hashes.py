"""Keyed hashes (HMAC-SHA256) of the secrets we must recognise but never keep: activation codes,
renewal-link tokens and the subjects of rate limits. A stolen database reveals none of them.

Every key is derived from a master key of the ring (``key_ring``). The current master key signs and
hashes everything new; every master key of the ring is tried when something is recognised, so a
rotation invalidates nothing that was issued before it."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping
from typing import Protocol

from attrs import field, frozen

ORIGINAL_KEY = 1
"""The id of the master key from ``VPNSITE_SECRET_KEY`` (or the generated ``secret.key``)."""


def derive_key(master: bytes, purpose: str) -> bytes:
    """A separate key per purpose, so one hash can never be replayed as another."""
    return hmac.new(master, b"vpnsite/" + purpose.encode(), hashlib.sha256).digest()


class Hasher(Protocol):
    def hash(self, value: str) -> str: ...


@frozen
class KeyedHasher:
    key: bytes = field(repr=False)

    def hash(self, value: str) -> str:
        return hmac.new(self.key, value.encode(), hashlib.sha256).hexdigest()


@frozen
class KeyedHash:
    """A stored hash and the id of the master key that made it."""

    key_id: int
    value: str


@frozen
class Candidates:
    """A secret's keyed hash under every key of the ring, the current key's first: a store finds
    whichever one it holds in one look-up."""

    hashes: tuple[KeyedHash, ...]

    @property
    def current(self) -> KeyedHash:
        return self.hashes[0]

    @property
    def values(self) -> list[str]:
        return [keyed.value for keyed in self.hashes]

    def is_stale(self, stored: str) -> bool:
        """Whether a stored hash that matched was made by a key other than the current one, and
        so should be rewritten under it."""
        return stored != self.current.value


@frozen
class KeySet:
    """Every key the domain uses, derived from one master key."""

    id: int
    signup: bytes = field(repr=False)
    codes: KeyedHasher
    tokens: KeyedHasher
    subjects: KeyedHasher
    nodes: KeyedHasher
    sessions: KeyedHasher
    addresses: KeyedHasher
    """E-mail addresses (their :func:`~vpnsite.emails.mailbox_key`) where only a match is needed:
    the mail an address is about, the erasures to re-apply after a restore."""
    archive_links: bytes = field(repr=False)
    mail: bytes = field(repr=False)
    erasure_links: bytes = field(repr=False)
    """The licence e-mail's "erase this address" links (``erasures.ErasureLinks``)."""
    devices: KeyedHasher
    """The device cookies of browsers that have opened a licence (``device_cookies``)."""
    challenges: bytes = field(repr=False)
    """Signs the proof-of-work challenges sign-ups are asked to solve under pressure."""
    shown_activations: bytes = field(repr=False)
    """Seals the no-script sign-up's answer in its browser's cookie, so a reload shows it again."""

    @classmethod
    def derive(cls, key_id: int, master: bytes) -> KeySet:
        return cls(
            id=key_id,
            signup=derive_key(master, "signup-requests"),
            codes=KeyedHasher(derive_key(master, "activation-codes")),
            tokens=KeyedHasher(derive_key(master, "archive-tokens")),
            subjects=KeyedHasher(derive_key(master, "rate-limit-subjects")),
            nodes=KeyedHasher(derive_key(master, "node-tokens")),
            sessions=KeyedHasher(derive_key(master, "vpn-sessions")),
            addresses=KeyedHasher(derive_key(master, "e-mail-addresses")),
            archive_links=derive_key(master, "archive-links"),
            mail=derive_key(master, "mail-queue"),
            erasure_links=derive_key(master, "erasure-links"),
            devices=KeyedHasher(derive_key(master, "device-cookies")),
            challenges=derive_key(master, "sign-up-challenges"),
            shown_activations=derive_key(master, "shown-activations"),
        )


@frozen
class RingKeys:
    """One reading of the ring: the current key set signs and hashes what is new, and every set
    (the current one first) is tried when something is recognised."""

    sets: tuple[KeySet, ...]

    @classmethod
    def of(cls, masters: Mapping[int, bytes], current: int) -> RingKeys:
        if current not in masters:
            raise ValueError(f"the current key {current} is not in the ring")
        order = [current, *sorted(key_id for key_id in masters if key_id != current)]
        return cls(tuple(KeySet.derive(key_id, masters[key_id]) for key_id in order))

    @property
    def current(self) -> KeySet:
        return self.sets[0]

    def codes(self, code: str) -> Candidates:
        return Candidates(tuple(KeyedHash(keys.id, keys.codes.hash(code)) for keys in self.sets))

    def tokens(self, token: str) -> Candidates:
        return Candidates(tuple(KeyedHash(keys.id, keys.tokens.hash(token)) for keys in self.sets))

    def nodes(self, token: str) -> Candidates:
        return Candidates(tuple(KeyedHash(keys.id, keys.nodes.hash(token)) for keys in self.sets))

    def addresses(self, key: str) -> Candidates:
        return Candidates(tuple(KeyedHash(keys.id, keys.addresses.hash(key)) for keys in self.sets))


@frozen
class Keyring:
    """What the use cases hold: ``read`` gives the ring as it is now (the adapter behind it re-reads
    the ring when an operator rotates a key, so a running process follows without a restart)."""

    read: Callable[[], RingKeys]

    @classmethod
    def of(cls, ring: RingKeys) -> Keyring:
        return cls(lambda: ring)

    @classmethod
    def from_master(cls, master: bytes) -> Keyring:
        """A ring of one key: the original master key, current."""
        return cls.of(RingKeys.of({ORIGINAL_KEY: master}, ORIGINAL_KEY))

    @property
    def current(self) -> KeySet:
        return self.read().current

    @property
    def subjects(self) -> Hasher:
        """Rate-limit subjects are hashed under the current key only: after a rotation they are
        counted afresh, which forgives at most one window."""
        return _CurrentSubjects(self)


@frozen
class _CurrentSubjects:
    ring: Keyring

    def hash(self, value: str) -> str:
        return self.ring.current.subjects.hash(value)
