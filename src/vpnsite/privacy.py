"""Data requests under the privacy policy: everything held about an address, its erasure, and
erasures re-applied to a restored backup."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

import attrs
from attrs import frozen

from vpnsite.emails import mailbox_key, normalise_email
from vpnsite.erasure_journal import ErasureRecord, Journal, JournalKey
from vpnsite.keyed_hashes import Keyring, RingKeys


@frozen
class HeldLicence:
    id: str
    email: str
    ip_address: str | None
    language: str
    starts_at: datetime
    ends_at: datetime
    reminded_for_end: datetime | None
    """The end a renewal reminder was sent for, if one was."""


@frozen
class HeldTicket:
    number: str
    email: str
    message: str
    created_at: datetime
    closed_at: datetime | None
    language: str
    code_given: bool
    """Whether the ticket came with an activation code (kept only as a keyed hash)."""


@frozen
class HeldSession:
    licence_id: str
    server: str
    started_at: datetime
    protocol: str | None


@frozen
class HeldTunnelAddress:
    licence_id: str
    server: str
    address: str
    # Its owner disconnected it: the hub keeps it off the server until they connect it again.
    held_out: bool = False


@frozen
class HeldMail:
    kind: str
    created_at: datetime
    sent_at: datetime | None
    waiting: bool


@frozen
class HeldRenewalLink:
    licence_id: str
    created_at: datetime
    used_at: datetime | None


@frozen
class Held:
    """Everything the store holds about one address, each kind under its inventory id."""

    licences: tuple[HeldLicence, ...]
    tickets: tuple[HeldTicket, ...]
    vpn_sessions: tuple[HeldSession, ...]
    wireguard_peers: tuple[HeldTunnelAddress, ...]
    mail_queue: tuple[HeldMail, ...]
    renewal_links: tuple[HeldRenewalLink, ...]


@frozen
class Erased:
    """What one erasure changed. ``tickets`` are the numbers whose copies in the support inbox the
    operator deletes by hand: the service cannot reach into that mailbox."""

    licences_ended: int
    licences_erased: int
    tickets: tuple[str, ...]
    sessions_dropped: int
    tunnel_addresses_deleted: int
    renewal_links_deleted: int
    mail_deleted: int
    record: ErasureRecord

    def found_anything(self) -> bool:
        return any(
            (
                self.licences_erased,
                self.tickets,
                self.sessions_dropped,
                self.tunnel_addresses_deleted,
                self.renewal_links_deleted,
                self.mail_deleted,
            )
        )


class PrivacyStore(Protocol):
    def held(self, key: str, hashes: Sequence[str]) -> Held:
        """Everything stored about the mailbox whose :func:`~vpnsite.emails.mailbox_key` is ``key``;
        ``hashes`` are its keyed hashes under every ring key (mail is found by them)."""
        ...

    def erase_address(self, key: str, hashes: Sequence[str], record: ErasureRecord) -> Erased:
        """End its licences and erase what the inventory says erasure removes, of what was there
        at ``record.erased_at`` (licences started, tickets opened, mail written by then: what came
        later belongs to someone who came back), and journal the record: all in one transaction."""
        ...

    def addresses(self) -> set[str]:
        """Every address (as its :func:`~vpnsite.emails.mailbox_key`) anything is still held about."""
        ...

    def erasures(self) -> list[ErasureRecord]:
        """The journal, oldest first."""
        ...


def _address_key(email: str) -> str:
    return mailbox_key(normalise_email(email))


def export_address(store: PrivacyStore, keys: Keyring, email: str) -> Held:
    key = _address_key(email)
    return store.held(key, keys.read().addresses(key).values)


def erase_address(
    store: PrivacyStore, keys: Keyring, journal_key: JournalKey, email: str, now: datetime
) -> Erased:
    key = _address_key(email)
    return _erase(store, keys.read(), key, ErasureRecord(journal_key.id, journal_key.hash(key), now))


def _erase(store: PrivacyStore, ring: RingKeys, key: str, record: ErasureRecord) -> Erased:
    # Mail is found by the address's hashes under the master ring, as the queue made them.
    return store.erase_address(key, ring.addresses(key).values, record)


def reapply_erasures(store: PrivacyStore, keys: Keyring, journal: Journal) -> list[Erased]:
    """Erase again, in a restored database, every address an erasure in ``journal`` names, as of
    its own time: what the address held then goes (the backup must not bring it back), what it
    holds from later stays (the person came back after the erasure). Records under a key the
    journal lacks match no one (:meth:`Journal.unmatched` says which); what was erased returns."""
    ring = keys.read()
    latest: dict[tuple[str, str], ErasureRecord] = {}
    for record in journal.records:
        pair = (record.key_id, record.address_hash)
        if pair not in latest or latest[pair].erased_at < record.erased_at:
            latest[pair] = record
    used = [key for key in journal.keys if any(key_id == key.id for key_id, _ in latest)]
    done = []
    for address in sorted(store.addresses()):
        found = [latest[pair] for pair in ((key.id, key.hash(address)) for key in used) if pair in latest]
        if found:
            erased = _erase(store, ring, address, max(found, key=lambda record: record.erased_at))
            if erased.found_anything():
                done.append(erased)
    return done


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat(timespec="seconds")


def _record(value: Any) -> dict[str, Any]:
    return {
        name: _when(field) if isinstance(field, datetime) else field
        for name, field in attrs.asdict(value, recurse=False).items()
    }


def held_document(held: Held) -> dict[str, Any]:
    """The export as the person receives it (JSON-ready): each kind under its inventory id."""
    document = {
        name: [_record(item) for item in items] for name, items in attrs.asdict(held, recurse=False).items()
    }
    for licence in document["licences"]:
        licence["activation_code"] = "kept only as a keyed hash; it cannot be shown"
    for mail in document["mail_queue"]:
        mail["content"] = "sealed while it waits; deleted once sent"
    return document


def erased_document(erased: Erased) -> dict[str, Any]:
    document = attrs.asdict(erased, recurse=False) | {"tickets": list(erased.tickets)}
    del document["record"]
    return document
