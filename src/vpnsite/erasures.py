"""Erasing an address on request, through either door: the operator's (`vpnsite privacy erase`) and
its owner's, the link every licence e-mail carries ("Didn't sign up? Erase this address"). Both
run this one use case, so they cannot drift: the store's erasure (``privacy.erase_address``), the
copies of the address's mail kept outside the store (the development outbox) and the erasure
journal kept beside the backups.

The link names one licence and carries an HMAC of its id under the ring's current key; every key
of the ring verifies it, so a key rotation kills no link in flight. Nothing is stored for it: it
leads nowhere once its licence no longer holds an address, whoever erased it (the link itself, the
operator, or retention). Opening it changes nothing; only the confirmation's post erases."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from typing import Any, Protocol

from attrs import frozen

from vpnsite.archives import LicenceById
from vpnsite.erasure_journal import ErasureRecord, JournalKey, JournalKeyring
from vpnsite.keyed_hashes import Keyring
from vpnsite.ports import Clock
from vpnsite.privacy import Erased, PrivacyStore, erase_address, erased_document

_ID_BYTES = 16  # licence ids are 32 hex digits
_MAC_BYTES = 16


@frozen
class ErasureLinks:
    """Signed by the ring's current key; a link signed by any key of the ring is read."""

    keys: Keyring

    def mint(self, licence_id: str) -> str:
        body = bytes.fromhex(licence_id)
        return _encode(body + _mac(self.keys.current.erasure_links, body))

    def read(self, token: str) -> str | None:
        """The licence id a genuine token names; None for anything else, a token changed in any
        character included (one base64 spelling only: the bits padding its last character count)."""
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        except (binascii.Error, ValueError):
            return None
        if len(raw) != _ID_BYTES + _MAC_BYTES or _encode(raw) != token:
            return None
        body, mac = raw[:_ID_BYTES], raw[_ID_BYTES:]
        ring = self.keys.read()
        if not any(hmac.compare_digest(mac, _mac(keys.erasure_links, body)) for keys in ring.sets):
            return None
        return body.hex()


def _encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _mac(key: bytes, body: bytes) -> bytes:
    return hmac.new(key, body, hashlib.sha256).digest()[:_MAC_BYTES]


class OutboxCopies(Protocol):
    def erase(self, email: str) -> int:
        """Delete the copies of the mail to or about ``email`` kept outside the store (the files of
        the development outbox); how many were deleted."""
        ...


class JournalNotWritten(Exception):
    """The erasure journal could not be written (the message says why): the erasure stands, only
    its copy for restoring older backups is missing until the operator makes one."""


class ErasureJournal(Protocol):
    def append(self, record: ErasureRecord, key: JournalKey) -> None:
        """Add the erasure, and the journal key it is under where the journal lacks it, to the
        journal kept beside the backups, on disk before it returns. Raises
        :class:`JournalNotWritten`."""
        ...


class LinkLeadsNowhere(Exception):
    """An erasure link that names no address: ``genuine`` when it is one of ours whose licence no
    longer holds one (used, or its data gone anyway), else made up or changed."""

    def __init__(self, genuine: bool) -> None:
        super().__init__("used or no longer valid" if genuine else "not a link of ours")
        self.genuine = genuine


@frozen
class Erasure:
    """What one erasure did: to which address (as typed, or as its licence held it), in the store,
    in the outbox (None where mail goes out by SMTP, with no outbox), and why the journal could not
    be written, if it could not."""

    email: str
    erased: Erased
    outbox_files_deleted: int | None = None
    journal_problem: str | None = None


def erasure_document(erasure: Erasure) -> dict[str, Any]:
    """What an erasure did, JSON-ready, as `vpnsite privacy erase` prints it: the store's counts,
    the numbers of the tickets whose copies in the support inbox the team deletes by hand, and the
    outbox's files deleted, where mail goes to an outbox."""
    document = erased_document(erasure.erased)
    if erasure.outbox_files_deleted is not None:
        document["outbox_files_deleted"] = erasure.outbox_files_deleted
    return document


def erasure_summary(document: dict[str, Any]) -> str:
    """The document in one line for a log, with no address in it: each count, and how many tickets."""
    return ", ".join(
        f"{name} {len(value) if isinstance(value, list) else value}" for name, value in document.items()
    )


@frozen
class Erasures:
    store: PrivacyStore
    licences: LicenceById
    links: ErasureLinks
    keys: Keyring
    journal_keys: JournalKeyring
    clock: Clock
    outbox: OutboxCopies | None = None
    journal: ErasureJournal | None = None

    def erase(self, email: str) -> Erasure:
        """End the address's licences and erase everything held about it, now. Raises
        :class:`~vpnsite.errors.InvalidField` for what is not an address."""
        key = self.journal_keys.current()
        erased = erase_address(self.store, self.keys, key, email, self.clock.now())
        copies = None if self.outbox is None else self.outbox.erase(email)
        problem = None
        if self.journal is not None:
            try:
                self.journal.append(erased.record, key)
            except JournalNotWritten as error:
                problem = str(error)
        return Erasure(email, erased, copies, problem)

    def address_named(self, token: str) -> str:
        """The address an erasure link would erase; reading it changes nothing. Raises
        :class:`LinkLeadsNowhere`."""
        licence_id = self.links.read(token)
        if licence_id is None:
            raise LinkLeadsNowhere(genuine=False)
        licence = self.licences.find_by_id(licence_id)
        if licence is None or not licence.email:
            raise LinkLeadsNowhere(genuine=True)
        return licence.email

    def erase_named(self, token: str) -> Erasure:
        """Erase the address an erasure link names, as the operator's command would."""
        return self.erase(self.address_named(token))
