"""Retention: what personal data to erase, and when. A pure policy; the store applies it."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from attrs import frozen

from vpnsite.renewals import CLOSES_AFTER_END, OPENS_BEFORE_END

PERSONAL_DATA_KEPT_AFTER_END = timedelta(days=30)
TICKETS_KEPT_AFTER_CLOSING = timedelta(days=30)
MAIL_KEPT_AFTER_LAST_ATTEMPT = timedelta(days=30)


@frozen
class RetentionPlan:
    """Cut-offs computed from one moment, so one run is consistent with itself.

    - a licence that ended before ``licences_ended_before`` loses its e-mail and IP address,
      unless the same address still holds a live licence (one that ends after ``now``);
    - rate-limit events older than ``rate_events_before`` are deleted;
    - tickets closed before ``tickets_closed_before`` are deleted;
    - mail that was sent or given up, created before ``mail_created_before``, is deleted;
    - renewal links that were used, or created before ``renewal_links_created_before`` (when the
      renewal window they were sent for has closed), are deleted.
    """

    now: datetime
    licences_ended_before: datetime
    rate_events_before: datetime
    tickets_closed_before: datetime
    mail_created_before: datetime
    renewal_links_created_before: datetime


def plan_retention(now: datetime, longest_rate_window: timedelta) -> RetentionPlan:
    return RetentionPlan(
        now=now,
        licences_ended_before=now - PERSONAL_DATA_KEPT_AFTER_END,
        rate_events_before=now - longest_rate_window,
        tickets_closed_before=now - TICKETS_KEPT_AFTER_CLOSING,
        mail_created_before=now - MAIL_KEPT_AFTER_LAST_ATTEMPT,
        renewal_links_created_before=now - (OPENS_BEFORE_END + CLOSES_AFTER_END),
    )


def anonymises_licence(plan: RetentionPlan, ends_at: datetime, address_has_live_licence: bool) -> bool:
    return ends_at < plan.licences_ended_before and not address_has_live_licence


def deletes_rate_event(plan: RetentionPlan, at: datetime) -> bool:
    return at < plan.rate_events_before


def deletes_ticket(plan: RetentionPlan, closed_at: datetime | None) -> bool:
    """Open tickets are kept however old: someone is still waiting for an answer."""
    return closed_at is not None and closed_at < plan.tickets_closed_before


@frozen
class RetentionReport:
    licences_anonymised: int
    rate_events_deleted: int
    tickets_deleted: int
    mail_deleted: int


class RetentionStore(Protocol):
    def apply_retention(self, plan: RetentionPlan) -> RetentionReport: ...


def run_retention(store: RetentionStore, now: datetime, longest_rate_window: timedelta) -> RetentionReport:
    return store.apply_retention(plan_retention(now, longest_rate_window))
