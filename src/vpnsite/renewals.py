"""Renewal: the same licence and the same activation code for another term, so no app needs
reconfiguring. It opens seven days before the licence ends and stays open thirty days after
(until retention erases the licence); each renewal moves the end, which closes the window."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Protocol

import attrs
from attrs import frozen

from vpnsite.errors import (
    FreeTierFull,
    InvalidField,
    LicenceNotFound,
    NotRenewableYet,
    RenewalClosed,
    RequestAlreadyUsed,
)
from vpnsite.identifiers import new_token
from vpnsite.keyed_hashes import KeyedHash, Keyring
from vpnsite.licence_checks import CheckedLicence, LicenceChecks
from vpnsite.licences import DAY, Licence
from vpnsite.notifications import Notifications, Reminder
from vpnsite.plans import Plan
from vpnsite.ports import Clock, RandomSource, UnitOfWork

OPENS_BEFORE_END = timedelta(days=7)
CLOSES_AFTER_END = timedelta(days=30)


def renewal_opens(ends_at: datetime) -> datetime:
    return ends_at - OPENS_BEFORE_END


def can_renew(licence: Licence, now: datetime) -> bool:
    return renewal_opens(licence.ends_at) <= now < licence.ends_at + CLOSES_AFTER_END


def renewed_end(licence: Licence, now: datetime, term_days: int) -> datetime:
    """A live licence gains a whole term on top of what is left; an ended one runs a term from now."""
    return max(licence.ends_at, now) + term_days * DAY


@frozen
class Standing:
    """A licence as its holder is told about it at a moment: the days left, whether it is live,
    whether it may be renewed now, and from which day it may."""

    days: int
    active: bool
    renewable: bool
    renewable_from: date


def standing(licence: Licence, now: datetime) -> Standing:
    return Standing(
        days=licence.days_remaining(now),
        active=licence.is_live(now),
        renewable=can_renew(licence, now),
        renewable_from=renewal_opens(licence.ends_at).date(),
    )


def reminder_due(licence: Licence, reminded_for_end: datetime | None, now: datetime) -> bool:
    return renewal_opens(licence.ends_at) <= now < licence.ends_at and reminded_for_end != licence.ends_at


class RenewalStore(Protocol):
    def extend(self, licence_id: str, ends_at: datetime, new_end: datetime) -> bool:
        """Move the end if it is still ``ends_at``; False if another renewal came first."""
        ...

    def add_renewal_link(self, link: KeyedHash, licence_id: str, now: datetime) -> None: ...

    def take_renewal_link(self, link_hashes: Sequence[str], now: datetime) -> Licence | None:
        """The licence of an unused link whose hash is any of these (one per ring key), marking
        the link used (so a link made under an older key needs no re-keying: it is spent); None
        for unknown links.
        Raises :class:`RequestAlreadyUsed` for a used one."""
        ...

    def licences_ending(self, before: datetime, now: datetime) -> list[tuple[Licence, datetime | None]]:
        """Live licences ending before ``before``, with the end they were last reminded of."""
        ...

    def mark_reminded(self, licence_id: str, ends_at: datetime) -> bool:
        """Record that the licence was reminded of its end ``ends_at``; False if it already was
        (another hub's round came first)."""
        ...


@frozen
class Renewed:
    """A renewed licence; with the code and a fresh archive link when the code renewed it (a
    reminder's link tells neither)."""

    licence: Licence
    code: str | None = None
    archive_token: str | None = None


@frozen
class Renewals:
    store: RenewalStore
    checks: LicenceChecks
    keys: Keyring
    clock: Clock
    random: RandomSource
    plan: Plan
    notifications: Notifications
    unit_of_work: UnitOfWork

    def renew(
        self,
        token: str | None,
        email: str | None,
        typed_code: str | None,
        ip: str | None,
        visitor_id: str | None = None,
        device_cookie: str | None = None,
    ) -> Renewed:
        """Renew with a reminder's link when one is given, else with the e-mail and the code, which
        are then both needed: InvalidField names every one missing."""
        if token:
            return Renewed(self.renew_with_link(token))
        missing = [name for name, value in (("email", email), ("activation_code", typed_code)) if not value]
        if missing:
            raise InvalidField(missing[0], "missing", also=missing[1:])
        checked = self.renew_with_code(str(email), str(typed_code), ip, visitor_id, device_cookie)
        return Renewed(checked.licence, checked.code, checked.archive_token)

    def renew_with_code(
        self,
        email: str,
        typed_code: str,
        ip: str | None,
        visitor_id: str | None = None,
        device_cookie: str | None = None,
    ) -> CheckedLicence:
        checked = self.checks.check(email, typed_code, ip, visitor_id, device_cookie)
        renewed = self._renew(checked.licence)
        link = checked.archive_token or self.checks.new_archive_link(renewed.id)
        return CheckedLicence(renewed, checked.code, link)

    def renew_with_link(self, token: str) -> Licence:
        """The link is used up only by a renewal that happens: one refused (not yet, too late, the
        free tier full) leaves it for another try."""
        with self.unit_of_work.atomic():
            licence = self.store.take_renewal_link(self.keys.read().tokens(token).values, self.clock.now())
            if licence is None or not licence.email:
                raise LicenceNotFound()
            return self._renew(licence)

    def send_reminders(self) -> int:
        """Remind every licence entering its renewal window that has not been reminded yet, with
        a fresh one-time renewal link; each is marked reminded with its e-mail queued."""
        now = self.clock.now()
        sent = 0
        for licence, reminded_for in self.store.licences_ending(now + OPENS_BEFORE_END, now):
            if not reminder_due(licence, reminded_for, now):
                continue
            token = new_token(self.random)
            with self.unit_of_work.atomic():
                # Marked first: of two hubs reminding at the same moment, one mails.
                if not self.store.mark_reminded(licence.id, licence.ends_at):
                    continue
                keys = self.keys.current
                self.store.add_renewal_link(KeyedHash(keys.id, keys.tokens.hash(token)), licence.id, now)
                self.notifications.renewal_due(Reminder(licence, token))
            sent += 1
        return sent

    def _renew(self, licence: Licence) -> Licence:
        now = self.clock.now()
        if now < renewal_opens(licence.ends_at):
            raise NotRenewableYet(opens=renewal_opens(licence.ends_at).date())
        if not can_renew(licence, now):
            raise RenewalClosed()
        if not licence.is_live(now) and not self.plan.admits(self.plan.count_users()):
            raise FreeTierFull(cap=self.plan.cap)
        new_end = renewed_end(licence, now, self.plan.term_days)
        if not self.store.extend(licence.id, licence.ends_at, new_end):
            raise RequestAlreadyUsed()
        return attrs.evolve(licence, ends_at=new_end)
