"""Mail retries and the renewal window."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from vpnsite.licences import Licence
from vpnsite.mail import LONGEST_WAIT, MAX_ATTEMPTS, next_attempt
from vpnsite.renewals import CLOSES_AFTER_END, OPENS_BEFORE_END, can_renew, reminder_due, renewed_end

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
spans = st.timedeltas(min_value=timedelta(days=-400), max_value=timedelta(days=400))


@given(st.integers(min_value=1, max_value=40))
def test_mail_retries_back_off_then_give_up(failures: int) -> None:
    retry = next_attempt(failures, NOW)
    if failures >= MAX_ATTEMPTS:
        assert retry is None
    else:
        assert retry is not None and NOW < retry <= NOW + LONGEST_WAIT
        later = next_attempt(failures + 1, NOW)
        assert later is None or later >= retry


def licence(end: timedelta) -> Licence:
    ends = NOW + end
    return Licence("l", "a@example.org", "h", ends - timedelta(days=90), ends)


@given(spans)
def test_renewal_opens_seven_days_before_the_end_and_closes_thirty_after(end: timedelta) -> None:
    assert can_renew(licence(end), NOW) == (-CLOSES_AFTER_END < end <= OPENS_BEFORE_END)


@given(spans, st.integers(min_value=1, max_value=365))
def test_a_renewal_adds_a_whole_term(end: timedelta, days: int) -> None:
    renewed = renewed_end(licence(end), NOW, days)
    assert renewed == max(NOW + end, NOW) + timedelta(days=days)
    assert not can_renew(licence(renewed - NOW), NOW) or days <= 7, "the window closes once renewed"


@given(spans, st.booleans())
def test_one_reminder_per_end(end: timedelta, reminded: bool) -> None:
    subject = licence(end)
    due = reminder_due(subject, subject.ends_at if reminded else None, NOW)
    assert due == (not reminded and timedelta(0) < end <= OPENS_BEFORE_END)
