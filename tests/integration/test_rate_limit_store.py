"""The rate-limit store decides as the core's rule does (`RateLimit.retry_after`), on both
databases. PostgreSQL's admission writes the rule in SQL too, to decide and record in one round
trip: these properties hold the two to each other."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vpnsite.licences import Licence
from vpnsite.rate_limits import Counter, RateLimit

NOW = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)

# Seconds from now: most inside the windows, some older than them, some ahead of this process's
# clock (another process's clock may run a little fast).
moments = st.lists(st.integers(min_value=-900, max_value=30), max_size=14)
rules = st.builds(
    lambda limit, minutes: RateLimit("submit-email", "ip", limit, timedelta(minutes=minutes)),
    st.integers(min_value=1, max_value=6),
    st.sampled_from([1, 5, 10]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=rules, second=rules, shared=st.booleans(), history=moments, other_history=moments)
def test_an_admission_decides_and_waits_as_the_rule_says(
    store: Any,
    first: RateLimit,
    second: RateLimit,
    shared: bool,
    history: list[int],
    other_history: list[int],
) -> None:
    # Two rules of one call, on one key (two windows of one subject) or on two.
    keys = [uuid.uuid4().hex, uuid.uuid4().hex]
    counters = [Counter(first, keys[0]), Counter(second, keys[0] if shared else keys[1])]
    recorded = {keys[0]: [NOW + timedelta(seconds=s) for s in history]}
    if not shared:
        recorded[keys[1]] = [NOW + timedelta(seconds=s) for s in other_history]
    with store.unit_of_work.scope():
        for key, times in recorded.items():
            for at in times:
                store.rate_limits.record([Counter(first, key)], at)
        waits = [counter.rule.retry_after(recorded[counter.key], NOW) for counter in counters]
        expected = max((wait for wait in waits if wait is not None), default=None)

        assert store.rate_limits.admit(counters, NOW) == expected
        for key, times in recorded.items():
            (events,) = store.db.execute_sql(
                f"SELECT COUNT(*) FROM rate_event WHERE key = {store.db.param}", (key,)
            ).fetchone()
            assert events == len(times) + (1 if expected is None else 0), "one event a key, if admitted"


def test_a_full_window_refuses_until_its_oldest_counted_event_slides_out(store: Any) -> None:
    rule = RateLimit("create-user", "ip", 2, timedelta(minutes=10))
    counters = [Counter(rule, uuid.uuid4().hex)]
    with store.unit_of_work.scope():
        assert store.rate_limits.admit(counters, NOW) is None
        assert store.rate_limits.admit(counters, NOW + timedelta(minutes=1)) is None
        assert store.rate_limits.admit(counters, NOW + timedelta(minutes=2)) == timedelta(minutes=8)
        assert store.rate_limits.admit(counters, NOW + timedelta(minutes=9)) == timedelta(minutes=1)
        assert store.rate_limits.admit(counters, NOW + timedelta(minutes=10)) is None, "the first is out"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    limits=st.lists(st.integers(min_value=1, max_value=4), max_size=4),
    histories=st.lists(moments, min_size=4, max_size=4),
    holds_code=st.booleans(),
)
def test_a_licence_check_reads_in_one_look_what_the_two_reads_would_say(
    store: Any, limits: list[int], histories: list[list[int]], holds_code: bool
) -> None:
    """The licence check's one round trip (the licence by its code's hashes, and the failure
    counts that may refuse it) answers exactly what the two separate reads answer."""
    keys = [uuid.uuid4().hex for _ in limits]
    counters = [
        Counter(RateLimit("check-license", "email", limit, timedelta(minutes=10), True), key)
        for limit, key in zip(limits, keys, strict=False)
    ]
    code_hash = uuid.uuid4().hex
    with store.unit_of_work.scope():
        if holds_code:
            licence = Licence(uuid.uuid4().hex, "owner@example.org", code_hash, NOW, NOW + timedelta(days=90))
            store.signups.redeem(uuid.uuid4().hex, licence, None)
        for counter, history in zip(counters, histories, strict=False):
            for second in history:
                store.rate_limits.record([counter], NOW + timedelta(seconds=second))
        hashes = [uuid.uuid4().hex, code_hash]

        found, waits = store.licences.find_by_code_hashes_with_waits(hashes, counters, NOW)

        assert found == store.licences.find_by_code_hashes(hashes)
        assert (found is not None) == holds_code
        assert waits == store.rate_limits.waits(counters, NOW)
