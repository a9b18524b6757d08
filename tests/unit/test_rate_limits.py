"""Sliding-window rate limits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vpnsite.rate_limits import DEFAULT_RULES, RateLimit, parse_rules

START = datetime(2026, 5, 1, tzinfo=UTC)
rules = st.builds(
    RateLimit,
    action=st.just("check-license"),
    subject=st.sampled_from(["ip", "hz_id", "email"]),
    limit=st.integers(min_value=1, max_value=8),
    window=st.integers(min_value=1, max_value=600).map(lambda s: timedelta(seconds=s)),
)
arrivals = st.lists(st.integers(min_value=0, max_value=2000), min_size=1, max_size=60).map(
    lambda gaps: [START + timedelta(milliseconds=sum(gaps[: i + 1]) * 97) for i in range(len(gaps))]
)


def admitted_times(rule: RateLimit, times: list[datetime]) -> list[datetime]:
    admitted: list[datetime] = []
    for moment in times:
        if rule.retry_after(admitted, moment) is None:
            admitted.append(moment)
    return admitted


@given(rules, arrivals)
def test_no_window_ever_admits_more_than_its_limit(rule: RateLimit, times: list[datetime]) -> None:
    admitted = admitted_times(rule, times)
    for moment in admitted:
        inside = [t for t in admitted if moment - rule.window < t <= moment]
        assert len(inside) <= rule.limit


@given(rules, arrivals)
def test_a_refused_call_is_admitted_after_the_wait_it_was_told(
    rule: RateLimit, times: list[datetime]
) -> None:
    admitted: list[datetime] = []
    for moment in times:
        wait = rule.retry_after(admitted, moment)
        if wait is None:
            admitted.append(moment)
            continue
        assert wait > timedelta(0)
        assert rule.retry_after(admitted, moment + wait) is None
        assert rule.retry_after(admitted, moment + wait - timedelta(microseconds=1)) is not None


@given(rules, st.integers(min_value=0, max_value=20))
def test_calls_below_the_limit_are_never_refused(rule: RateLimit, count: int) -> None:
    times = [START + timedelta(seconds=i) for i in range(min(count, rule.limit))]
    assert admitted_times(rule, times) == times


def test_the_defaults_are_the_products_limits() -> None:
    assert {
        (r.action, r.subject, r.limit, int(r.window.total_seconds()), r.failures_only) for r in DEFAULT_RULES
    } == {
        ("submit-email", "ip", 5, 600, False),
        ("submit-email", "hz_id", 5, 600, False),
        ("submit-email", "ip", 30, 86400, False),
        ("create-user", "ip", 10, 600, False),
        ("check-license", "ip", 10, 60, False),
        ("check-license", "email", 20, 3600, True),
        ("support", "ip", 5, 3600, False),
        ("support", "email", 5, 3600, False),
        ("archive", "ip", 20, 600, False),
    }


@given(st.lists(rules, min_size=1, max_size=5))
def test_rules_written_out_parse_back_the_same(written: list[RateLimit]) -> None:
    text = ", ".join(
        f"{r.action}:{r.subject}={r.limit}/{int(r.window.total_seconds())}s{'!' if r.failures_only else ''}"
        for r in written
    )
    assert list(parse_rules(text)) == written


@pytest.mark.parametrize(
    "text", ["nonsense", "submit-email:ip=5", "fly:ip=5/1m", "support:ip=0/1m", "support:mac=5/1m"]
)
def test_garbage_rules_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_rules(text)
