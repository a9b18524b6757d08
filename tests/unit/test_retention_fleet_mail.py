"""Retention, fleet and mail-retry rules."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from vpnsite.fleet import (
    HEARTBEAT_PERIOD,
    SPEC_LOCATIONS,
    Rank,
    VpnServer,
    is_online,
    rank_popularity,
    view_fleet,
)
from vpnsite.licences import Licence
from vpnsite.mail import LONGEST_WAIT, MAX_ATTEMPTS, next_attempt
from vpnsite.renewals import CLOSES_AFTER_END, OPENS_BEFORE_END, can_renew, reminder_due, renewed_end
from vpnsite.retention import (
    anonymises_licence,
    deletes_rate_event,
    deletes_request,
    deletes_ticket,
    plan_retention,
)

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
spans = st.timedeltas(min_value=timedelta(days=-400), max_value=timedelta(days=400))
windows = st.timedeltas(min_value=timedelta(seconds=1), max_value=timedelta(days=2))


@given(spans, st.booleans())
def test_retention_never_touches_a_live_licence_or_an_address_that_still_has_one(
    end: timedelta, live_elsewhere: bool
) -> None:
    plan = plan_retention(NOW, timedelta(days=1))
    erased = anonymises_licence(plan, NOW + end, live_elsewhere)
    if NOW + end > NOW or live_elsewhere:
        assert not erased
    assert erased == (end < -timedelta(days=30) and not live_elsewhere)


@given(spans)
def test_sign_up_requests_go_a_day_after_they_expire(expiry: timedelta) -> None:
    plan = plan_retention(NOW, timedelta(days=1))
    assert deletes_request(plan, NOW + expiry) == (expiry < -timedelta(days=1))


@given(
    st.lists(windows, min_size=1, max_size=8),
    st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=3)),
)
def test_no_rate_event_inside_any_rules_window_is_deleted(
    rule_windows: list[timedelta], age: timedelta
) -> None:
    plan = plan_retention(NOW, max(rule_windows))
    if any(age < window for window in rule_windows):
        assert not deletes_rate_event(plan, NOW - age)


@given(st.one_of(st.none(), spans))
def test_open_tickets_are_kept_and_closed_ones_go_after_thirty_days(closed: timedelta | None) -> None:
    plan = plan_retention(NOW, timedelta(days=1))
    if closed is None:
        assert not deletes_ticket(plan, None)
    else:
        assert deletes_ticket(plan, NOW + closed) == (closed < -timedelta(days=30))


def server(seen: timedelta | None, up: bool = True, sessions: int = 0) -> VpnServer:
    return VpnServer(
        SPEC_LOCATIONS[0], last_seen=None if seen is None else NOW - seen, service_up=up, sessions=sessions
    )


@given(st.timedeltas(min_value=timedelta(0), max_value=timedelta(minutes=5)), st.booleans())
def test_a_server_is_online_until_it_misses_three_heartbeats(silence: timedelta, up: bool) -> None:
    assert is_online(server(silence, up), NOW) == (up and silence < HEARTBEAT_PERIOD * 3)
    assert not is_online(server(None), NOW)


@given(
    st.integers(min_value=0, max_value=10_000),
    st.integers(min_value=0, max_value=10_000),
    st.integers(min_value=1, max_value=50),
)
def test_popularity_grows_with_the_share_of_sessions(a: int, b: int, servers: int) -> None:
    total = a + b
    order = [Rank.LOW, Rank.MEDIUM, Rank.HIGH, Rank.VERY_HIGH]
    low, high = sorted((a, b))
    assert order.index(rank_popularity(low, total, servers)) <= order.index(
        rank_popularity(high, total, servers)
    )
    assert rank_popularity(0, total, servers) == Rank.LOW


def test_offline_servers_rank_low_and_do_not_count() -> None:
    views = view_fleet(
        [server(timedelta(seconds=1), sessions=10), server(timedelta(minutes=2), sessions=500)], NOW
    )
    assert [view.online for view in views] == [True, False]
    assert views[1].rank == Rank.LOW
    assert views[0].rank == Rank.HIGH


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
