"""The shared ceiling on wrong codes for one e-mail: it keeps strangers' guessing slow without
locking out an owner who has got the code wrong once, even while strangers keep it full
(Limiter.refuse_if_failing), and a browser that has opened the licence before is never held back
by it (a device cookie)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.memory import MemoryRateLimitStore
from vpnsite.errors import RateLimited
from vpnsite.keyed_hashes import KeyedHasher
from vpnsite.rate_limits import (
    CHECK_LICENSE,
    DEFAULT_RULES,
    DEVICE_FAILURES,
    GUESSER_FAILURES,
    NETWORK_FACTOR,
    Limiter,
    RateLimit,
    parse_rules,
)

START = datetime(2026, 5, 1, tzinfo=UTC)
HOUR = timedelta(hours=1)
hasher = KeyedHasher(b"k" * 32)
Call = dict[str, str | None]


def guesser(n: int) -> Call:
    """Client ``n``: 256 to a /24, so clients 0-255 share one network."""
    return {"ip": f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", "email": "owner@example.org"}


def networked(n: int) -> Call:
    """Client ``n`` in a /24 of its own."""
    return {"ip": f"10.{n // 256}.{n % 256}.1", "email": "owner@example.org"}


OWNER: Call = {"ip": "198.51.100.7", "email": "owner@example.org"}


def limiter(rules: tuple[RateLimit, ...] = DEFAULT_RULES) -> Limiter:
    return Limiter(rules, hasher, MemoryRateLimitStore())


def held_back(limits: Limiter, call: Call, now: datetime, device: str | None = None) -> bool:
    try:
        limits.refuse_if_failing(CHECK_LICENSE, call, now, device)  # type: ignore[arg-type]
    except RateLimited:
        return True
    return False


def guess(limits: Limiter, call: Call, now: datetime, device: str | None = None) -> bool:
    """One wrong code, as a licence check makes it: whether it was looked at (and counted)."""
    if held_back(limits, call, now, device):
        return False
    limits.count_failure(CHECK_LICENSE, call, now, device)  # type: ignore[arg-type]
    return True


class Model:
    """The rule as the docstring states it, kept apart from the store: a client is held back when
    its own failures in the window reach its limit, or when the failures of all reach the ceiling
    and the client has failed at least twice in the window, or the clients of its network six
    times."""

    def __init__(self, own_limit: int, ceiling: int, window: timedelta) -> None:
        self.own_limit, self.ceiling, self.window = own_limit, ceiling, window
        self.failures: list[tuple[tuple[int, int], datetime]] = []  # (network, client), when

    def guess(self, network: int, client: int, now: datetime) -> bool:
        recent = [who for who, when in self.failures if now - self.window < when <= now]
        own = recent.count((network, client))
        neighbours = sum(1 for who in recent if who[0] == network)
        full = len(recent) >= self.ceiling
        if own >= self.own_limit or (
            full and (own >= GUESSER_FAILURES or neighbours >= GUESSER_FAILURES * NETWORK_FACTOR)
        ):
            return False
        self.failures.append(((network, client), now))
        return True


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=1, max_value=5),
    st.integers(min_value=1, max_value=12),
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=900),
            st.integers(min_value=0, max_value=2),  # a /24
            st.integers(min_value=0, max_value=6),  # an address in it
        ),
        max_size=120,
    ),
)
def test_the_ceiling_holds_back_exactly_the_clients_that_failed_twice_or_whose_network_did(
    own_limit: int, ceiling: int, attempts: list[tuple[int, int, int]]
) -> None:
    limits = limiter(parse_rules(f"check-license:email_ip={own_limit}/1h! check-license:email={ceiling}/1h!"))
    model = Model(own_limit, ceiling, HOUR)
    now = START
    for gap, network, client in attempts:
        now += timedelta(seconds=gap)
        call: Call = {"ip": f"10.0.{network}.{client}", "email": "owner@example.org"}
        assert guess(limits, call, now) is model.guess(network, client, now), (network, client, now)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=400), max_size=150),
    st.integers(min_value=1, max_value=400),
    st.integers(min_value=0, max_value=1500),
    st.lists(st.integers(min_value=0, max_value=400), max_size=100),
    st.integers(min_value=0, max_value=7200),
)
def test_strangers_never_hold_back_an_owner_who_mistyped_once_before_the_ceiling_filled(
    before: list[int], addresses: int, flood: int, mixed: list[int], after: int
) -> None:
    """The owner got it wrong once while the ceiling was not full (fewer than 200 strangers'
    guesses before); then strangers guess from ``addresses`` addresses in turn, and from any
    others: the owner's next check is looked at, whenever it comes."""
    limits = limiter()
    for second, stranger in enumerate(before):
        guess(limits, guesser(stranger), START + timedelta(seconds=second))
    assert guess(limits, OWNER, START + timedelta(seconds=len(before)))
    then = [n % addresses for n in range(flood)] + mixed
    for second, stranger in enumerate(then, start=len(before) + 1):
        guess(limits, guesser(stranger), START + timedelta(seconds=second))
    assert not held_back(limits, OWNER, START + timedelta(seconds=len(before) + len(then) + 1 + after))


def held_back_by_ceiling_alone(limits: Limiter, now: datetime) -> bool:
    """Whether the ceiling is full now: a client with no address of its own is held by it alone."""
    return held_back(limits, {"ip": None, "email": "owner@example.org"}, now)


def test_an_owner_who_mistyped_once_gets_in_while_strangers_fill_the_ceiling() -> None:
    limits = limiter()
    assert guess(limits, OWNER, START)
    for n in range(199):
        assert guess(limits, guesser(n % 20), START + timedelta(seconds=1 + n))
    assert held_back_by_ceiling_alone(limits, START + timedelta(seconds=201)), "the ceiling is full"
    assert held_back(limits, guesser(0), START + timedelta(seconds=201)), "and holds back the strangers"
    assert not held_back(limits, OWNER, START + timedelta(seconds=202)), "one mistyping is forgiven"
    assert guess(limits, OWNER, START + timedelta(seconds=202)), "... and a second one is looked at"
    assert held_back(limits, OWNER, START + timedelta(seconds=203)), "two are not"
    assert not held_back(limits, OWNER, START + HOUR + timedelta(seconds=203)), "for the hour"


def test_an_owner_who_mistypes_while_strangers_keep_the_ceiling_full_gets_a_second_try() -> None:
    """The review's case: strangers keep the ceiling full, the owner types an old code, then the
    right one: the second try is looked at. A third is not."""
    limits = limiter()
    for n in range(200):
        assert guess(limits, guesser(n % 20), START)
    assert held_back_by_ceiling_alone(limits, START + timedelta(seconds=1)), "the ceiling is full"
    assert guess(limits, OWNER, START + timedelta(seconds=1)), "a first failure is looked at"
    assert not held_back(limits, OWNER, START + timedelta(seconds=2)), "and so is the next try"
    assert guess(limits, OWNER, START + timedelta(seconds=2))
    assert held_back(limits, OWNER, START + timedelta(seconds=3)), "two wrong: a guesser"
    assert not held_back(limits, {**OWNER, "email": "someone@example.org"}, START + timedelta(seconds=3))


def test_a_browser_with_a_device_cookie_is_judged_by_its_own_failures_alone() -> None:
    """OWASP's device cookie: the ceiling, the client's address and its network all full of
    strangers' failures, the owner's browser is still looked at, until it has itself failed
    DEVICE_FAILURES times in the hour."""
    limits = limiter()
    for n in range(200):
        assert guess(limits, {**OWNER, "ip": f"198.51.100.{n % 10}"}, START)
    assert held_back(limits, OWNER, START), "the owner's address is itself a guesser now"
    for second in range(DEVICE_FAILURES):
        assert guess(limits, OWNER, START + timedelta(seconds=second), device="d1")
    assert held_back(limits, OWNER, START + timedelta(seconds=DEVICE_FAILURES), device="d1")
    assert not held_back(limits, OWNER, START + timedelta(seconds=DEVICE_FAILURES), device="d2")
    assert not held_back(limits, OWNER, START + HOUR + timedelta(seconds=DEVICE_FAILURES), device="d1")


def test_a_client_without_an_address_is_held_by_the_shared_ceiling() -> None:
    limits = limiter()
    for n in range(200):
        limits.count_failure(CHECK_LICENSE, guesser(n), START)  # type: ignore[arg-type]
    assert held_back(limits, {"ip": None, "email": "owner@example.org"}, START)


def test_strangers_failures_never_hold_back_an_owner_who_has_not_failed() -> None:
    limits = limiter()
    for n in range(3600):
        guess(limits, guesser(n % 300), START + timedelta(seconds=n))
    assert not held_back(limits, OWNER, START + timedelta(seconds=3600))


def guesses_looked_at(limits: Limiter, clients: list[int], where: Callable[[int], Call] = guesser) -> int:
    """Every client tries once a second for an hour, each try wrong: how many got past the limiter."""
    return sum(guess(limits, where(client), START + timedelta(seconds=s)) for s, client in enumerate(clients))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=3000), min_size=1, max_size=3600))
def test_guessing_for_one_e_mail_is_bounded_by_the_ceiling_plus_a_few_per_network(clients: list[int]) -> None:
    """Inside one hour: at most 20 guesses per client, and at most 200 in all plus two per client
    and six per network (once the ceiling is full, a client is looked at until it has failed
    twice, a /24's clients until they have failed six times together)."""
    looked_at = guesses_looked_at(limiter(), clients)
    counts = {client: clients.count(client) for client in set(clients)}
    networks = {client // 256 for client in clients}
    assert looked_at <= sum(min(count, 20) for count in counts.values())
    assert looked_at <= 200 + min(
        GUESSER_FAILURES * len(counts), GUESSER_FAILURES * NETWORK_FACTOR * len(networks)
    )


@pytest.mark.parametrize(
    "clients, where, looked_at",
    [
        ([1] * 3600, guesser, 20),
        ([n % 20 for n in range(3600)], guesser, 200),
        # 3,600 addresses in 15 /24s: the first /24 fills the ceiling, each other gets six more.
        (list(range(3600)), guesser, 200 + 14 * 6),
        ([n % 200 for n in range(3600)], guesser, 200),
        # The worst case: a /24 of its own for every address, each trying twice. The ceiling, then
        # two per network an hour (six if each network brings three addresses).
        ([n // 2 for n in range(3600)], networked, 200 + (3600 - 200)),
        ([n % 1800 for n in range(3600)], networked, 200 + 2 * (1800 - 100)),
    ],
    ids=[
        "one address",
        "twenty in turn",
        "a new address every try",
        "200 in turn",
        "a new network every two tries",
        "1800 networks twice each",
    ],
)
def test_the_best_guessing_rates_are_those_the_readme_states(
    clients: list[int], where: Callable[[int], Call], looked_at: int
) -> None:
    assert guesses_looked_at(limiter(), clients, where) == looked_at
