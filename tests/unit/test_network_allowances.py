"""No single network drains the free tier: on top of each client's allowance, an IPv6 /48 and an
IPv4 /24 get at most NETWORK_FACTOR times one client's sign-ups, in every window of the per-client
rules; a network next door, and people on our own servers, keep theirs."""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.memory import MemoryRateLimitStore
from vpnsite.connection_check import ExitIndex
from vpnsite.errors import RateLimited
from vpnsite.fleet import Location, Rank, ServerView, VpnServer
from vpnsite.keyed_hashes import KeyedHasher
from vpnsite.rate_limits import (
    CHECK_LICENSE,
    CREATE_USER,
    DEFAULT_RULES,
    NETWORK_FACTOR,
    SUBMIT_EMAIL,
    Limiter,
    network_of,
    rules_for,
)

START = datetime(2026, 5, 1, tzinfo=UTC)
SITE = ipaddress.IPv6Network("2001:db8:aa::/48")
NEXT_DOOR = ipaddress.IPv6Network("2001:db8:bb::/48")
hasher = KeyedHasher(b"k" * 32)


def limiter(**kwargs: object) -> Limiter:
    return Limiter(DEFAULT_RULES, hasher, MemoryRateLimitStore(), **kwargs)  # type: ignore[arg-type]


def slash_64(network: ipaddress.IPv6Network, n: int) -> str:
    """An address in the ``n``-th /64 of a /48."""
    return str(network.network_address + (n << 64) + 1)


def allowed(limits: Limiter, action: str, ip: str, now: datetime) -> bool:
    try:
        limits.admit(action, {"ip": ip, "visitor": None, "email": None}, now)
    except RateLimited:
        return False
    return True


def most_in_a_window(times: list[datetime], window: timedelta) -> int:
    return max(
        (sum(1 for other in times if moment - window < other <= moment) for moment in times), default=0
    )


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=1800),  # seconds since the one before
            st.integers(min_value=0, max_value=2**16 - 1),  # which /64 of the /48
            st.booleans(),  # from the network next door instead
        ),
        max_size=200,
    )
)
def test_a_slash_48_never_gets_more_than_three_clients_worth_in_any_window(
    attempts: list[tuple[int, int, bool]],
) -> None:
    limits = limiter()
    now = START
    taken: dict[bool, list[datetime]] = {False: [], True: []}
    for gap, n, next_door in attempts:
        now += timedelta(seconds=gap)
        if allowed(limits, SUBMIT_EMAIL, slash_64(NEXT_DOOR if next_door else SITE, n), now):
            taken[next_door].append(now)
    for rule in rules_for(DEFAULT_RULES, SUBMIT_EMAIL):
        if rule.subject == "ip":
            for times in taken.values():
                assert most_in_a_window(times, rule.window) <= NETWORK_FACTOR * rule.limit


def test_forty_slash_64s_of_one_slash_48_in_a_row() -> None:
    """The review's case: forty /64s of one /48, one sign-up each; then another /48."""
    limits = limiter()
    taken = [allowed(limits, SUBMIT_EMAIL, slash_64(SITE, n), START) for n in range(40)]
    assert sum(taken) == NETWORK_FACTOR * 5 == 15
    assert allowed(limits, SUBMIT_EMAIL, slash_64(NEXT_DOOR, 0), START), "the network next door"
    assert allowed(limits, SUBMIT_EMAIL, slash_64(SITE, 99), START + timedelta(minutes=10)), "ten minutes on"


def test_a_slash_24_likewise_and_in_a_day() -> None:
    limits = limiter()
    now, taken = START, 0
    for minute in range(0, 24 * 60, 10):
        now = START + timedelta(minutes=minute)
        taken += sum(allowed(limits, SUBMIT_EMAIL, f"198.51.100.{n}", now) for n in range(40))
    assert taken == NETWORK_FACTOR * 30 == 90, "a day: three clients' 30"
    assert allowed(limits, SUBMIT_EMAIL, "198.51.101.1", now)


def test_licences_too() -> None:
    limits = limiter()
    taken = sum(allowed(limits, CREATE_USER, slash_64(SITE, n), START) for n in range(100))
    assert taken == NETWORK_FACTOR * 10


def test_other_calls_are_not_held_to_a_network() -> None:
    """A licence check, a ticket: an office behind one /24 is many people."""
    limits = limiter()
    assert sum(allowed(limits, CHECK_LICENSE, f"198.51.100.{n}", START) for n in range(100)) == 100


def test_people_on_our_own_servers_are_counted_as_people() -> None:
    """Everyone on a server shares its exit network; they are held to the server's allowance
    (EXIT_FACTOR people's), never to three clients'."""
    server = VpnServer(
        Location("nl-1", "Netherlands", "nl", "Amsterdam"), exit_addresses=("198.51.100.0/24",)
    )
    exits = ExitIndex.of([ServerView(server, online=True, rank=Rank.LOW)])
    limits = limiter(server_of_exit=exits.server_of)
    # Forty people, each their own visitor id: none refused (admit raises when it refuses).
    for n in range(40):
        limits.admit(SUBMIT_EMAIL, {"ip": f"198.51.100.{n}", "visitor": f"hz-{n}", "email": None}, START)


@given(st.ip_addresses(v=4))
def test_an_ipv4_address_is_held_with_its_slash_24_however_written(address: ipaddress.IPv4Address) -> None:
    network = str(ipaddress.IPv4Network((address, 24), strict=False))
    assert network_of(str(address)) == network_of(f"::ffff:{address}") == network


@given(st.ip_addresses(v=6))
def test_an_ipv6_address_is_held_with_its_slash_48(address: ipaddress.IPv6Address) -> None:
    if address.ipv4_mapped is None:
        assert network_of(str(address)) == str(ipaddress.IPv6Network((address, 48), strict=False))


def test_what_is_no_address_has_no_network() -> None:
    assert network_of(None) is None and network_of("unknown") is None
