"""Checking a licence with an e-mail and an activation code."""

from __future__ import annotations

import hmac
from typing import Protocol

from attrs import frozen

from vpnsite.archives import ArchiveLinks
from vpnsite.codes import clean_typed_code, code_problem
from vpnsite.emails import email_key, normalise_email
from vpnsite.errors import InvalidField, LicenceNotFound
from vpnsite.keyed_hashes import Keyring
from vpnsite.licences import Licence
from vpnsite.ports import Clock, RandomSource
from vpnsite.rate_limits import CHECK_LICENSE, Limiter, Subject

# Compared against when no licence has the code, so a wrong code costs the same as a wrong e-mail.
_NOBODY = "\x00nobody"


class LicenceStore(Protocol):
    def find_by_code_hash(self, code_hash: str) -> Licence | None: ...


@frozen
class CheckedLicence:
    licence: Licence
    code: str
    archive_token: str | None


@frozen
class LicenceChecks:
    store: LicenceStore
    limiter: Limiter
    keys: Keyring
    links: ArchiveLinks
    clock: Clock
    random: RandomSource

    def check(self, email: str, typed_code: str, ip: str | None) -> CheckedLicence:
        address = normalise_email(email)
        code = clean_typed_code(typed_code)
        if not code:
            raise InvalidField("activation_code", "missing")
        problem = code_problem(code)
        if problem is not None:
            raise InvalidField("activation_code", problem)
        now = self.clock.now()
        subjects: dict[Subject, str | None] = {"ip": ip, "email": email_key(address)}
        self.limiter.refuse_if_failing(CHECK_LICENSE, subjects, now)
        self.limiter.admit(CHECK_LICENSE, subjects, now)
        licence = self.store.find_by_code_hash(self.keys.codes.hash(code))
        held_by = email_key(licence.email) if licence is not None and licence.email else _NOBODY
        if not hmac.compare_digest(held_by.encode(), email_key(address).encode()) or licence is None:
            self.limiter.count_failure(CHECK_LICENSE, subjects, now)
            raise LicenceNotFound()
        if not licence.is_live(now):
            return CheckedLicence(licence, code, None)
        return CheckedLicence(licence, code, self.new_archive_link(licence.id))

    def new_archive_link(self, licence_id: str) -> str:
        """A fresh personal link to the archive, good for a week from now."""
        return self.links.mint(licence_id, self.clock.now())
