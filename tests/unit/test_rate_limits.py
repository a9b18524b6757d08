"""Sliding-window rate limits: the rule, its written form, and the limiter that applies the rules."""

from __future__ import annotations

import ipaddress
import math
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.memory import MemoryRateLimitStore
from tests.unit.strategies import rules
from vpnsite.errors import RateLimited
from vpnsite.keyed_hashes import KeyedHasher
from vpnsite.rate_limits import (
    ACTIONS,
    CHECK_LICENSE,
    DEFAULT_RULES,
    SUBMIT_EMAIL,
    Limiter,
    RateLimit,
    Subject,
    client_network,
    longest_window,
    parse_rules,
)

START = datetime(2026, 5, 1, tzinfo=UTC)
arrivals = st.lists(st.integers(min_value=0, max_value=2000), min_size=1, max_size=60).map(
    lambda gaps: [START + timedelta(milliseconds=sum(gaps[: i + 1]) * 97) for i in range(len(gaps))]
)


def admitted_times(rule: RateLimit, times: list[datetime]) -> list[datetime]:
    admitted: list[datetime] = []
    for moment in times:
        if rule.retry_after(admitted, moment) is None:
            admitted.append(moment)
    return admitted


def most_in_any_window(times: list[datetime], window: timedelta) -> int:
    # The busiest window (t - window, t] ends at one of the events.
    return max((sum(1 for s in times if t - window < s <= t) for t in times), default=0)


@given(rules, arrivals)
def test_no_window_ever_admits_more_than_its_limit(rule: RateLimit, times: list[datetime]) -> None:
    assert most_in_any_window(admitted_times(rule, times), rule.window) <= rule.limit


@given(rules, arrivals.flatmap(st.permutations))
def test_calls_judged_in_another_order_than_they_read_the_clock_never_exceed_the_limit(
    rule: RateLimit, times: list[datetime]
) -> None:
    """A burst on several threads or hubs: each call reads the clock, then waits its turn, so one
    that read it later may be judged first. The earlier one still counts it."""
    assert most_in_any_window(admitted_times(rule, times), rule.window) <= rule.limit


@given(rules, arrivals)
def test_a_refused_call_is_admitted_after_exactly_the_wait_it_was_told(
    rule: RateLimit, times: list[datetime]
) -> None:
    admitted: list[datetime] = []
    for moment in times:
        wait = rule.retry_after(admitted, moment)
        if wait is None:
            admitted.append(moment)
            continue
        assert timedelta(0) < wait <= rule.window
        assert rule.retry_after(admitted, moment + wait) is None
        assert rule.retry_after(admitted, moment + wait - timedelta(microseconds=1)) is not None


@given(rules, arrivals)
def test_a_call_is_refused_only_when_the_window_is_full(rule: RateLimit, times: list[datetime]) -> None:
    admitted: list[datetime] = []
    for moment in times:
        in_window = sum(1 for t in admitted if moment - rule.window < t <= moment)
        wait = rule.retry_after(admitted, moment)
        assert (wait is None) is (in_window < rule.limit)
        if wait is None:
            admitted.append(moment)


@given(rules, st.integers(min_value=0, max_value=20))
def test_calls_up_to_the_limit_are_never_refused(rule: RateLimit, count: int) -> None:
    times = [START + timedelta(microseconds=i) for i in range(min(count, rule.limit))]
    assert admitted_times(rule, times) == times


@given(rules, st.lists(st.integers(min_value=0, max_value=3000), max_size=30), st.integers(0, 3000))
def test_the_order_of_past_events_does_not_matter(rule: RateLimit, seconds: list[int], at: int) -> None:
    hits = [START + timedelta(seconds=s) for s in seconds]
    now = START + timedelta(seconds=at)
    assert rule.retry_after(hits, now) == rule.retry_after(sorted(hits, reverse=True), now)


def test_the_defaults_are_the_products_limits() -> None:
    assert {
        (r.action, r.subject, r.limit, int(r.window.total_seconds()), r.failures_only) for r in DEFAULT_RULES
    } == {
        ("submit-email", "ip", 5, 600, False),
        ("submit-email", "visitor", 5, 600, False),
        ("submit-email", "ip", 30, 86400, False),
        ("create-user", "ip", 10, 600, False),
        ("check-license", "ip", 10, 60, False),
        ("check-license", "email_ip", 20, 3600, True),
        ("check-license", "email", 200, 3600, True),
        ("support", "ip", 5, 3600, False),
        ("archive", "ip", 20, 600, False),
        ("qr-code", "ip", 100, 600, False),
    }
    assert longest_window(DEFAULT_RULES) == timedelta(days=1)
    assert longest_window(()) == timedelta(0)


UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def written(rule: RateLimit, unit: str) -> str:
    count = int(rule.window.total_seconds()) // UNITS[unit]
    return f"{rule.action}:{rule.subject}={rule.limit}/{count}{unit}{'!' if rule.failures_only else ''}"


whole_rules = st.builds(
    lambda rule, unit, count: (
        RateLimit(
            rule.action, rule.subject, rule.limit, timedelta(seconds=UNITS[unit] * count), rule.failures_only
        ),
        unit,
    ),
    rules,
    st.sampled_from(list(UNITS)),
    st.integers(min_value=1, max_value=90),
)


@given(st.lists(whole_rules, min_size=1, max_size=6), st.sampled_from([",", ", ", " ", "\n", " ,\t"]))
def test_rules_written_out_parse_back_the_same(items: list[tuple[RateLimit, str]], separator: str) -> None:
    text = separator.join(written(rule, unit) for rule, unit in items)
    assert parse_rules(f" {text} ") == tuple(rule for rule, _ in items)


def test_a_window_without_a_count_is_one_unit() -> None:
    assert parse_rules("support:ip=5/h") == (RateLimit("support", "ip", 5, timedelta(hours=1)),)
    assert parse_rules("") == ()


@pytest.mark.parametrize(
    "text",
    [
        "nonsense",
        "submit-email:ip=5",
        "submit-email:ip=5/10",
        "submit-email:ip=5/10w",
        "submit-email:ip=/10m",
        "submit-email:ip=-5/10m",
        "submit-email:ip=5/0m",
        "submit-email:ip=5/10m!!",
        "submit-email=5/10m",
        "fly:ip=5/1m",
        "support:ip=0/1m",
        "support:mac=5/1m",
        "Support:ip=5/1m",
        "support:ip=5/1m;create-user:ip=1/1m",
        "support:ip=5/1m, nonsense",
    ],
)
def test_garbage_rules_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_rules(text)


@pytest.mark.parametrize("text", ["support:email=5/1h", "support:email=500/1d", "support:email=5/1h!"])
def test_no_rule_may_refuse_a_ticket_for_its_e_mail_alone(text: str) -> None:
    """Strangers could fill such a count from their own addresses and lock the owner out."""
    with pytest.raises(ValueError, match="never refused for its e-mail"):
        parse_rules(text)
    assert parse_rules("support:email_ip=5/1h support:visitor=5/1h")


@given(st.text(max_size=60))
def test_any_text_parses_into_sound_rules_or_is_refused(text: str) -> None:
    try:
        parsed = parse_rules(text)
    except ValueError:
        return
    for rule in parsed:
        assert rule.action in ACTIONS and rule.limit >= 1 and rule.window > timedelta(0)


@given(st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=2)))
def test_retry_after_is_whole_seconds_rounded_up_and_at_least_one(wait: timedelta) -> None:
    refusal = RateLimited(wait, "check-license")
    seconds = refusal.retry_after_seconds
    assert seconds == max(1, math.ceil(wait.total_seconds()))
    assert timedelta(seconds=seconds) >= wait and refusal.params == {"seconds": seconds}


# The limiter: rules of one action and subject, applied per subject value.

hasher = KeyedHasher(b"k" * 32)
SUBMIT_RULES = tuple(r for r in DEFAULT_RULES if r.action == SUBMIT_EMAIL)
calls = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=400),  # seconds since the previous call
        st.sampled_from(["10.0.0.1", "10.0.0.2", None]),
        st.sampled_from(["visitor-a", "visitor-b", "", None]),
    ),
    max_size=80,
)


@settings(max_examples=150)
@given(calls)
def test_the_limiter_keeps_every_rule_for_every_subject(
    sequence: list[tuple[int, str | None, str | None]],
) -> None:
    limiter = Limiter(SUBMIT_RULES, hasher, MemoryRateLimitStore())
    now = START
    admitted: list[tuple[datetime, str | None, str | None]] = []
    for gap, ip, visitor in sequence:
        now += timedelta(seconds=gap)
        try:
            limiter.admit(SUBMIT_EMAIL, {"ip": ip, "visitor": visitor}, now)
        except RateLimited as refused:
            assert refused.retry_after_seconds >= 1
            continue
        admitted.append((now, ip, visitor))
    for rule in SUBMIT_RULES:
        position = 1 if rule.subject == "ip" else 2
        for value in {call[position] for call in admitted if call[position]}:
            times = [call[0] for call in admitted if call[position] == value]
            assert most_in_any_window(times, rule.window) <= rule.limit, rule.name


def test_a_refused_call_counts_against_no_subject() -> None:
    store = MemoryRateLimitStore()
    limiter = Limiter(SUBMIT_RULES, hasher, store)
    for n in range(5):
        limiter.admit(SUBMIT_EMAIL, {"ip": "10.0.0.1", "visitor": f"v{n}"}, START)
    with pytest.raises(RateLimited) as refused:
        limiter.admit(SUBMIT_EMAIL, {"ip": "10.0.0.1", "visitor": "fresh"}, START)
    assert refused.value.retry_after_seconds == 600
    # "fresh" was not charged for the refused call: from another IP it still has all five.
    for _ in range(5):
        limiter.admit(SUBMIT_EMAIL, {"ip": "10.0.0.2", "visitor": "fresh"}, START + timedelta(seconds=1))


def test_failures_are_counted_apart_from_calls_and_only_when_reported() -> None:
    limiter = Limiter(DEFAULT_RULES, hasher, MemoryRateLimitStore())
    who: dict[Subject, str | None] = {"ip": "192.0.2.1", "email": "anna@example.org"}
    for n in range(100):  # calls alone never reach a failure rule
        limiter.refuse_if_failing(CHECK_LICENSE, who, START + timedelta(hours=n))
        limiter.admit(CHECK_LICENSE, who, START + timedelta(hours=n))
    later = START + timedelta(days=10)
    for _ in range(20):
        limiter.count_failure(CHECK_LICENSE, who, later)
    with pytest.raises(RateLimited) as refused:
        limiter.refuse_if_failing(CHECK_LICENSE, who, later + timedelta(seconds=1))
    assert refused.value.retry_after_seconds == 3600 - 1
    limiter.refuse_if_failing(CHECK_LICENSE, {**who, "email": "bob@example.org"}, later)
    limiter.refuse_if_failing(CHECK_LICENSE, who, later + timedelta(hours=1))


def test_subjects_are_stored_only_as_keyed_hashes() -> None:
    store = MemoryRateLimitStore()
    Limiter(DEFAULT_RULES, hasher, store).admit(SUBMIT_EMAIL, {"ip": "192.0.2.7", "visitor": "hz-1"}, START)
    assert len(store.events) == 3, "the address, its network, the visitor"
    assert not any("192.0.2" in key or "hz-1" in key for key in store.events)


@given(st.ip_addresses(v=6), st.integers(min_value=0, max_value=2**64 - 1))
def test_an_ipv6_client_is_counted_by_its_slash_64(address: ipaddress.IPv6Address, host: int) -> None:
    sibling = ipaddress.IPv6Address((int(address) >> 64 << 64) | host)
    if address.ipv4_mapped is None and sibling.ipv4_mapped is None:
        assert client_network(str(address)) == client_network(str(sibling))
        neighbour = ipaddress.IPv6Address(int(address) ^ (1 << 64))
        if neighbour.ipv4_mapped is None:
            assert client_network(str(neighbour)) != client_network(str(address))


@given(st.ip_addresses(v=4))
def test_an_ipv4_client_is_its_address_however_written(address: ipaddress.IPv4Address) -> None:
    assert client_network(str(address)) == str(address)
    assert client_network(f"::ffff:{address}") == str(address)


def test_rotating_through_one_slash_64_does_not_escape_the_limit() -> None:
    limiter = Limiter(parse_rules("submit-email:ip=2/10m"), hasher, MemoryRateLimitStore())
    now = datetime(2026, 1, 1, tzinfo=UTC)
    limiter.admit("submit-email", {"ip": "2001:db8:1:2::1"}, now)
    limiter.admit("submit-email", {"ip": "2001:db8:1:2::2"}, now)
    with pytest.raises(RateLimited):
        limiter.admit("submit-email", {"ip": "2001:db8:1:2:ffff::3"}, now)
    limiter.admit("submit-email", {"ip": "2001:db8:1:3::1"}, now)


def test_the_readme_states_the_default_rules() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    stated = re.search(r"Default rate limits: `([^`]+)`", readme)
    assert stated is not None
    assert set(parse_rules(stated[1])) == set(DEFAULT_RULES)
