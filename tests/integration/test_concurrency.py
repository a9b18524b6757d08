"""Races that must not break the rules, on both databases: one request, one licence; no window
admits more than its limit."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from vpnsite.errors import RateLimited, RequestAlreadyUsed
from vpnsite.rate_limits import Counter, RateLimit
from vpnsite.signup_requests import SignedForm

RACERS = 12


def race(action: Callable[[], object]) -> list[object]:
    """Run ``action`` in many threads released at the same moment; collect results or errors."""
    barrier = threading.Barrier(RACERS)
    results: list[object] = []
    lock = threading.Lock()

    def run() -> None:
        barrier.wait()
        try:
            outcome: object = action()
        except Exception as error:
            outcome = error
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=run) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_concurrent_redemptions_of_one_request_make_exactly_one_licence(make_hub: Any) -> None:
    hub = make_hub(rate_limits="off")
    services = hub.services
    signed: SignedForm = services.signups.submit_email("race@example.org", "10.0.0.1", None)

    def redeem() -> object:
        with services.unit_of_work.scope():
            return services.signups.create_user(signed, "10.0.0.1")

    results = race(redeem)
    winners = [r for r in results if not isinstance(r, Exception)]
    losers = [r for r in results if isinstance(r, Exception)]
    assert len(winners) == 1
    assert all(isinstance(error, RequestAlreadyUsed) for error in losers), losers
    count = hub.store.db.execute_sql("SELECT COUNT(*) FROM licence").fetchone()[0]
    assert count == 1


def test_concurrent_calls_never_exceed_a_limit(store: Any, clock: Any) -> None:
    rule = RateLimit("submit-email", "ip", 5, timedelta(minutes=10))
    counters = [Counter(rule, "same-subject")]

    def admit() -> object:
        with store.unit_of_work.scope():
            return store.rate_limits.admit(counters, clock.now())

    results = race(admit)
    assert sum(1 for r in results if r is None) == 5
    assert all(isinstance(r, timedelta) for r in results if r is not None)


def test_the_use_case_raises_rate_limited_once_the_window_is_full(make_hub: Any) -> None:
    hub = make_hub()
    services = hub.services

    def submit() -> object:
        with services.unit_of_work.scope():
            return services.signups.submit_email("many@example.org", "10.9.9.9", None)

    results = race(submit)
    assert sum(1 for r in results if isinstance(r, RateLimited)) == RACERS - 5
