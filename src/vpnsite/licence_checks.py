"""Checking a licence with an e-mail and an activation code."""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

import attrs
from attrs import frozen

from vpnsite.archives import ArchiveLinks
from vpnsite.codes import clean_typed_code, code_problem
from vpnsite.device_cookies import DeviceCookies
from vpnsite.emails import mailbox_key, normalise_email
from vpnsite.errors import InvalidField, LicenceNotFound
from vpnsite.keyed_hashes import Candidates, KeyedHash, Keyring
from vpnsite.licences import Licence
from vpnsite.ports import Clock, RandomSource
from vpnsite.rate_limits import CHECK_LICENSE, Counter, Limiter, Subject

# Compared against when no licence has the code, so a wrong code costs the same as a wrong e-mail.
_NOBODY = "\x00nobody"


class LicenceStore(Protocol):
    def find_by_code_hashes(self, code_hashes: Sequence[str]) -> Licence | None:
        """The licence whose code hash is any of these (a code's hash under each ring key)."""
        ...

    def rekey_code(self, licence_id: str, old_hash: str, new: KeyedHash) -> None:
        """Store the code's hash under another key, unless someone already did."""
        ...


class CheckedLicenceStore(LicenceStore, Protocol):
    def find_by_code_hashes_with_waits(
        self, code_hashes: Sequence[str], counters: Sequence[Counter], now: datetime
    ) -> tuple[Licence | None, list[timedelta | None]]:
        """``find_by_code_hashes`` and the rate-limit store's ``waits`` of ``counters``, in one
        look at the store: a licence check needs both, every time."""
        ...


def find_by_code(store: LicenceStore, keys: Keyring, code: str) -> tuple[Licence | None, Candidates]:
    """The licence of a code hashed under any key of the ring, in one look-up."""
    candidates = keys.read().codes(code)
    return store.find_by_code_hashes(candidates.values), candidates


def rekey_if_stale(store: LicenceStore, licence: Licence, candidates: Candidates) -> Licence:
    """Once a code has been used successfully, a hash of it made by an older key is stored again
    under the current one, so the older key is needed by fewer codes each day."""
    if not candidates.is_stale(licence.code_hash):
        return licence
    store.rekey_code(licence.id, licence.code_hash, candidates.current)
    return attrs.evolve(licence, code_hash=candidates.current.value, code_key=candidates.current.key_id)


@frozen
class CheckedLicence:
    licence: Licence
    code: str
    archive_token: str | None


@frozen
class LicenceChecks:
    store: CheckedLicenceStore
    limiter: Limiter
    keys: Keyring
    links: ArchiveLinks
    clock: Clock
    random: RandomSource
    devices: DeviceCookies

    def check(
        self,
        email: str,
        typed_code: str,
        ip: str | None,
        visitor_id: str | None = None,
        device_cookie: str | None = None,
    ) -> CheckedLicence:
        licence, code = self.authenticate(email, typed_code, ip, visitor_id, device_cookie)
        return self.opened(licence, code)

    def opened(self, licence: Licence, code: str) -> CheckedLicence:
        """What its owner sees of a licence already proven theirs (``authenticate``): a live one
        comes with a fresh archive link."""
        if not licence.is_live(self.clock.now()):
            return CheckedLicence(licence, code, None)
        return CheckedLicence(licence, code, self.new_archive_link(licence.id))

    def authenticate(
        self,
        email: str,
        typed_code: str,
        ip: str | None,
        visitor_id: str | None = None,
        device_cookie: str | None = None,
    ) -> tuple[Licence, str]:
        """The licence an e-mail and activation code open, and the code as typed cleanly; rate
        limited per address and e-mail, failures counted. Every call that proves ownership of a
        licence by its code goes through here. ``visitor_id`` (the ``hz_id`` cookie) tells people
        apart who come through one of our servers; ``device_cookie``, the browser's device cookie
        (``device_cookies``), is judged by its own failures alone when it vouches for the
        address."""
        address = normalise_email(email)
        code = clean_typed_code(typed_code)
        if not code:
            raise InvalidField("activation_code", "missing")
        problem = code_problem(code)
        if problem is not None:
            raise InvalidField("activation_code", problem)
        now = self.clock.now()
        mailbox = mailbox_key(address)
        subjects: dict[Subject, str | None] = {"ip": ip, "visitor": visitor_id, "email": mailbox}
        device = self.devices.recognised(device_cookie, address)
        # The failure counts and the licence in one look (Limiter.refuse_if_failing's, beside
        # find_by_code's): the licence decides nothing until the counts have let the call through,
        # and a call they refuse is not counted, as ever.
        failing = self.limiter.failure_check(CHECK_LICENSE, subjects, device)
        candidates = self.keys.read().codes(code)
        licence, waits = self.store.find_by_code_hashes_with_waits(candidates.values, failing.counters, now)
        failing.refuse(waits)
        self.limiter.admit(CHECK_LICENSE, subjects, now)
        held_by = mailbox_key(licence.email) if licence is not None and licence.email else _NOBODY
        if not hmac.compare_digest(held_by.encode(), mailbox.encode()) or licence is None:
            self.limiter.count_failure(CHECK_LICENSE, subjects, now, device)
            raise LicenceNotFound()
        return rekey_if_stale(self.store, licence, candidates), code

    def new_archive_link(self, licence_id: str) -> str:
        """A fresh personal link to the archive, good for a week from now."""
        return self.links.mint(licence_id, self.clock.now())
