"""Retention: what personal data to erase, and when. A pure policy; the store applies it, and the
data inventory (:mod:`vpnsite.personal_data`) names each rule beside the data it applies to."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Protocol

import attrs
from attrs import field, frozen

from vpnsite.renewals import CLOSES_AFTER_END, OPENS_BEFORE_END

PERSONAL_DATA_KEPT_AFTER_END = timedelta(days=30)
TICKETS_KEPT_AFTER_CLOSING = timedelta(days=30)
MAIL_KEPT_AFTER_LAST_ATTEMPT = timedelta(days=30)
# Kept by the operator, not by the store: the README says how. An erasure is remembered as long as
# a backup taken before it may be restored.
BACKUPS_KEPT = timedelta(days=30)
ERASURES_KEPT = BACKUPS_KEPT
LOGS_KEPT = timedelta(days=14)
# A VPN server reports its connections every few seconds: one silent this long reports none, and
# the sessions the hub holds for it have ended with its silence.
SESSIONS_KEPT_AFTER_SILENCE = timedelta(hours=1)


@frozen
class RetentionPlan:
    """Cut-offs computed from one moment, so one run is consistent with itself. Each rule is one
    of the predicates below."""

    now: datetime
    licences_ended_before: datetime
    rate_events_before: datetime
    tickets_closed_before: datetime
    mail_created_before: datetime
    renewal_links_created_before: datetime
    renewals_closed_for_ends_before: datetime
    erasures_before: datetime
    servers_silent_before: datetime


def plan_retention(now: datetime, longest_rate_window: timedelta) -> RetentionPlan:
    return RetentionPlan(
        now=now,
        licences_ended_before=now - PERSONAL_DATA_KEPT_AFTER_END,
        rate_events_before=now - longest_rate_window,
        tickets_closed_before=now - TICKETS_KEPT_AFTER_CLOSING,
        mail_created_before=now - MAIL_KEPT_AFTER_LAST_ATTEMPT,
        renewal_links_created_before=now - (OPENS_BEFORE_END + CLOSES_AFTER_END),
        renewals_closed_for_ends_before=now - CLOSES_AFTER_END,
        erasures_before=now - ERASURES_KEPT,
        servers_silent_before=now - SESSIONS_KEPT_AFTER_SILENCE,
    )


def anonymises_licence(plan: RetentionPlan, ends_at: datetime, address_has_live_licence: bool) -> bool:
    """A licence loses its e-mail 30 days after it ended, unless the same address still holds a
    live licence: the address is one account, and its live licence needs it."""
    return ends_at < plan.licences_ended_before and not address_has_live_licence


def erases_signup_ip(plan: RetentionPlan, ends_at: datetime) -> bool:
    """The address a licence was asked for from goes 30 days after that licence ended, whatever
    else the e-mail holds."""
    return ends_at < plan.licences_ended_before


def deletes_rate_event(plan: RetentionPlan, at: datetime) -> bool:
    return at < plan.rate_events_before


def deletes_ticket(plan: RetentionPlan, closed_at: datetime | None) -> bool:
    """Open tickets are kept however old: someone is still waiting for an answer."""
    return closed_at is not None and closed_at < plan.tickets_closed_before


def deletes_mail(plan: RetentionPlan, created_at: datetime, waiting: bool) -> bool:
    """A message still waiting for a retry is kept; one sent or given up goes 30 days after it
    was written (a given-up one can be retried by the operator until then)."""
    return not waiting and created_at < plan.mail_created_before


def deletes_renewal_link(plan: RetentionPlan, created_at: datetime, used_at: datetime | None) -> bool:
    """A link is spent once used; an unused one lapses when the window it was sent for closes."""
    return used_at is not None or created_at < plan.renewal_links_created_before


def deletes_tunnel_address(plan: RetentionPlan, licence_ends_at: datetime, anonymised: bool) -> bool:
    """A WireGuard address is kept while its licence can still be renewed (a renewed licence keeps
    its devices' configuration), and goes with the licence's e-mail."""
    return anonymised or licence_ends_at < plan.renewals_closed_for_ends_before


def deletes_erasure_record(plan: RetentionPlan, erased_at: datetime) -> bool:
    """No backup older than ``BACKUPS_KEPT`` is restored, so no older erasure needs re-applying."""
    return erased_at < plan.erasures_before


def ends_session(plan: RetentionPlan, server_last_seen: datetime | None) -> bool:
    """A session ends when its server says so, or with its server's silence: a server that comes
    back reports its connections again, and the hub counts again those it issued."""
    return server_last_seen is None or server_last_seen < plan.servers_silent_before


@frozen
class RetentionReport:
    licences_anonymised: int
    rate_events_deleted: int
    tickets_deleted: int
    mail_deleted: int
    signup_ips_erased: int
    tunnel_addresses_deleted: int
    renewal_links_deleted: int
    erasure_records_deleted: int
    sessions_ended: int
    files_deleted: Mapping[str, int] = field(factory=dict)
    """What went from the files the inventory names (``Elsewhere.retained_as``), by their name."""


class RetentionStore(Protocol):
    def apply_retention(self, plan: RetentionPlan) -> RetentionReport: ...


class RetainedFiles(Protocol):
    def apply_retention(self, plan: RetentionPlan) -> int:
        """Delete from these files what the plan says is due, by the rule of the data they hold
        (the same predicate as its rows); how many went."""
        ...


def run_retention(
    store: RetentionStore,
    now: datetime,
    longest_rate_window: timedelta,
    files: Mapping[str, RetainedFiles] | None = None,
) -> RetentionReport:
    """Apply the policy as of ``now`` to the store and to every file kind the inventory names."""
    plan = plan_retention(now, longest_rate_window)
    report = store.apply_retention(plan)
    return attrs.evolve(
        report, files_deleted={name: kind.apply_retention(plan) for name, kind in (files or {}).items()}
    )
