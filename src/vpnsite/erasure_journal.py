"""The erasure journal: a record of each erasure, kept beside the backups so that a restore
applies it again, and the journal's own keys. Each journalled erasure names its address as a keyed hash under
a journal key, never under the master key ring: rotating, retiring or restoring the ring changes
nothing an entry matches. The journal carries every key its entries use (see the README, Privacy:
the journal is kept beside the backups, which hold far more than the key), so a restore matches
each entry whatever keyring the backup brings back; a journal key is rotated on its own, when the
operator asks, and one no entry uses any more goes from the journal with its last entry."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from datetime import datetime
from typing import Protocol

from attrs import field, frozen

from vpnsite.keyed_hashes import RingKeys
from vpnsite.ports import RandomSource

JOURNAL_KEY_BYTES = 32
JOURNAL_KEY_PREFIX = "j"  # a journal key's id never reads as a master key's number


@frozen
class ErasureRecord:
    """The journal's entry for one erasure: the address only as a keyed hash under the journal
    key ``key_id`` names, so the journal holds no address, and the moment it was erased: a restore
    erases again only what was there by then."""

    key_id: str
    address_hash: str
    erased_at: datetime


@frozen
class JournalKey:
    id: str
    secret: bytes = field(repr=False)

    def hash(self, mailbox: str) -> str:
        """The address as the journal holds it: an HMAC of its :func:`~vpnsite.emails.mailbox_key`."""
        return hmac.new(self.secret, mailbox.encode(), hashlib.sha256).hexdigest()


def new_journal_key(random: RandomSource) -> JournalKey:
    """A random key with a random id: two keys made apart (a restored data directory's, say) never
    share an id."""
    return JournalKey(JOURNAL_KEY_PREFIX + random.token_bytes(8).hex(), random.token_bytes(JOURNAL_KEY_BYTES))


def ring_journal_keys(ring: RingKeys) -> tuple[JournalKey, ...]:
    """A journal written before journal keys existed named its addresses under the master key of
    its entry's ``key_id``, by the ring's address key: those entries are matched under the keys of
    the ring a backup brings back, where it still holds them."""
    return tuple(JournalKey(str(keys.id), keys.addresses.key) for keys in ring.sets)


class JournalKeyring(Protocol):
    def current(self) -> JournalKey:
        """The key new entries are made under (made on first use)."""
        ...

    def known(self) -> tuple[JournalKey, ...]:
        """Every journal key this service has made and keeps, the current one included."""
        ...


@frozen
class Journal:
    """Erasure records and the keys they are under, as read from one or more journals."""

    keys: tuple[JournalKey, ...]
    records: tuple[ErasureRecord, ...]

    @classmethod
    def of(cls, keys: Iterable[JournalKey], records: Iterable[ErasureRecord]) -> Journal:
        unique = {key.id: key for key in keys}
        return cls(tuple(unique.values()), tuple(records))

    def joined(self, other: Journal) -> Journal:
        return Journal.of((*self.keys, *other.keys), (*self.records, *other.records))

    def with_keys(self, keys: Iterable[JournalKey]) -> Journal:
        """The same records, with ``keys`` added where the journal lacks a key of that id."""
        return Journal.of((*keys, *self.keys), self.records)

    def unmatched(self) -> tuple[ErasureRecord, ...]:
        """The records under a key the journal does not hold: they cannot be matched to anyone."""
        held = {key.id for key in self.keys}
        return tuple(record for record in self.records if record.key_id not in held)
