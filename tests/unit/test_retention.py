"""Retention: the pure policy that says what personal data goes, and when."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from tests.unit.strategies import rules as rate_rules
from vpnsite.rate_limits import DEFAULT_RULES, RateLimit, longest_window
from vpnsite.retention import (
    MAIL_KEPT_AFTER_LAST_ATTEMPT,
    PERSONAL_DATA_KEPT_AFTER_END,
    SESSIONS_KEPT_AFTER_SILENCE,
    anonymises_licence,
    deletes_mail,
    deletes_rate_event,
    deletes_ticket,
    ends_session,
    plan_retention,
)

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC))
spans = st.timedeltas(min_value=timedelta(days=-400), max_value=timedelta(days=400))
windows = st.timedeltas(min_value=timedelta(seconds=1), max_value=timedelta(days=2))


def test_the_periods_are_the_policys() -> None:
    assert timedelta(days=30) == PERSONAL_DATA_KEPT_AFTER_END


@given(moments, spans, st.booleans())
def test_a_licence_is_anonymised_only_thirty_days_after_its_end_and_only_if_no_live_one_remains(
    now: datetime, end: timedelta, address_has_live_licence: bool
) -> None:
    erased = anonymises_licence(plan_retention(now, timedelta(days=1)), now + end, address_has_live_licence)
    if address_has_live_licence or end > -timedelta(days=30):
        assert not erased, "a live licence, its address's other licences, or the first 30 days after the end"
    assert erased is (end < -timedelta(days=30) and not address_has_live_licence)


@given(moments, st.lists(spans, min_size=1, max_size=6))
def test_no_licence_of_an_address_with_a_live_licence_is_touched(
    now: datetime, ends: list[timedelta]
) -> None:
    # The store answers "has a live licence" for the address; simulate it from the address's licences.
    plan = plan_retention(now, timedelta(days=1))
    live = any(now + end > now for end in ends)
    anonymised = [anonymises_licence(plan, now + end, live) for end in ends]
    if live:
        assert not any(anonymised)
    else:
        assert anonymised == [end < -timedelta(days=30) for end in ends]


@given(
    moments,
    st.lists(rate_rules, min_size=1, max_size=8),
    st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=3)),
)
def test_no_rate_event_inside_any_rules_window_is_deleted(
    now: datetime, rules: list[RateLimit], age: timedelta
) -> None:
    plan = plan_retention(now, longest_window(rules))
    deleted = deletes_rate_event(plan, now - age)
    if any(age < rule.window for rule in rules):
        assert not deleted
    assert deleted is (age > longest_window(rules))


@given(
    st.lists(rate_rules, min_size=1, max_size=5),
    st.lists(st.integers(min_value=0, max_value=3 * 600), max_size=30),
    st.integers(min_value=0, max_value=600),
)
def test_deleting_old_rate_events_never_changes_an_answer(
    rules: list[RateLimit], ages: list[int], later: int
) -> None:
    # Whatever retention keeps, every rule gives the same answer now and at any later time.
    events = [NOW - timedelta(seconds=age) for age in ages]
    plan = plan_retention(NOW, longest_window(rules))
    kept = [at for at in events if not deletes_rate_event(plan, at)]
    for rule in rules:
        for moment in (NOW, NOW + timedelta(seconds=later)):
            assert rule.retry_after(kept, moment) == rule.retry_after(events, moment)


def test_with_the_default_rules_rate_events_are_kept_a_day() -> None:
    plan = plan_retention(NOW, longest_window(DEFAULT_RULES))
    assert not deletes_rate_event(plan, NOW - timedelta(days=1))
    assert deletes_rate_event(plan, NOW - timedelta(days=1, microseconds=1))


@given(moments, st.one_of(st.none(), spans))
def test_open_tickets_are_kept_and_closed_ones_go_after_thirty_days(
    now: datetime, closed: timedelta | None
) -> None:
    plan = plan_retention(now, timedelta(days=1))
    if closed is None:
        assert not deletes_ticket(plan, None)
    else:
        assert deletes_ticket(plan, now + closed) is (closed < -timedelta(days=30))


@given(moments, windows, st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=10)))
def test_a_later_run_deletes_at_least_what_an_earlier_one_did(
    now: datetime, window: timedelta, elapsed: timedelta
) -> None:
    early, late = plan_retention(now, window), plan_retention(now + elapsed, window)
    for field in ("licences_ended_before", "rate_events_before", "tickets_closed_before"):
        assert getattr(early, field) <= getattr(late, field)
    assert early.now == now


@given(moments, st.one_of(st.none(), spans))
def test_a_session_ends_with_an_hour_of_its_servers_silence_and_not_before(
    now: datetime, heard: timedelta | None
) -> None:
    plan = plan_retention(now, timedelta(days=1))
    ended = ends_session(plan, None if heard is None else now + heard)
    assert ended is (heard is None or heard < -SESSIONS_KEPT_AFTER_SILENCE)
    assert timedelta(hours=1) == SESSIONS_KEPT_AFTER_SILENCE


@given(moments, spans, st.booleans())
def test_an_outbox_file_goes_exactly_when_its_queued_row_would(
    now: datetime, age: timedelta, sent: bool
) -> None:
    """The outbox is mail that was sent: its files are kept by the queue's own rule."""
    plan = plan_retention(now, timedelta(days=1))
    assert deletes_mail(plan, now + age, waiting=False) is (age < -MAIL_KEPT_AFTER_LAST_ATTEMPT)
    assert not deletes_mail(plan, now + age, waiting=True)
