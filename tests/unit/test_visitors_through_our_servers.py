"""People who reach the hub through one of our own VPN servers all come from its exit address: the
per-address rate limits tell them apart by their visitor id (or e-mail) and hold the server as a
whole to EXIT_FACTOR times each per-address rule, and a licence keeps no sign-up address for them."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from tests.unit.memory import MemoryRateLimitStore
from tests.unit.strategies import addresses, emails, rules, visitor_ids
from vpnsite.connection_check import ExitIndex
from vpnsite.errors import RateLimited
from vpnsite.fleet import Heartbeat, Location, Rank, ServerView, VpnServer, view_fleet
from vpnsite.keyed_hashes import KeyedHasher
from vpnsite.privacy import export_address
from vpnsite.rate_limits import (
    CHECK_LICENSE,
    DEFAULT_RULES,
    EXIT_FACTOR,
    SUBMIT_EMAIL,
    Limiter,
    RateLimit,
    Subject,
)

START = datetime(2026, 5, 1, tzinfo=UTC)
EXIT = "203.0.113.5"
ELSEWHERE = "198.51.100.7"
OWNER = "owner@example.org"
hasher = KeyedHasher(b"k" * 32)
AMSTERDAM = VpnServer(
    Location("nl-ams-1", "Netherlands", "nl", "Amsterdam"), exit_addresses=(EXIT, "2001:db8:5::/64")
)
OURS = ExitIndex.of([ServerView(AMSTERDAM, online=True, rank=Rank.LOW)])
# One server, however its clients' addresses are written.
EXITS = st.sampled_from([EXIT, f"::ffff:{EXIT}", "2001:db8:5::1", "2001:db8:5::ab:cd"])

Call = Mapping[Subject, str | None]


def limiter(
    rules: tuple[RateLimit, ...] = DEFAULT_RULES, store: MemoryRateLimitStore | None = None
) -> Limiter:
    return Limiter(rules, hasher, store or MemoryRateLimitStore(), OURS.server_of)


def admitted(limiter: Limiter, action: str, calls: Sequence[Call], now: datetime = START) -> list[Call]:
    passed = []
    for call in calls:
        try:
            limiter.admit(action, call, now)
        except RateLimited:
            continue
        passed.append(call)
    return passed


def most_in_any_window(times: list[datetime], window: timedelta) -> int:
    return max((sum(1 for s in times if t - window < s <= t) for t in times), default=0)


@given(st.lists(EXITS, min_size=1, max_size=5 * EXIT_FACTOR + 10))
def test_everyone_on_a_server_may_sign_up_until_the_servers_ceiling(exits: list[str]) -> None:
    """submit-email:ip=5/10m: five people from one address, a hundred through one of our servers."""
    people: list[Call] = [
        {"ip": ip, "visitor": f"hz-{n}", "email": f"p{n}@example.org"} for n, ip in enumerate(exits)
    ]
    elsewhere: list[Call] = [{**person, "ip": ELSEWHERE} for person in people]
    assert len(admitted(limiter(), SUBMIT_EMAIL, people)) == min(len(people), 5 * EXIT_FACTOR)
    assert len(admitted(limiter(), SUBMIT_EMAIL, elsewhere)) == min(len(people), 5)


@given(st.lists(EXITS, min_size=1, max_size=30), st.booleans())
def test_one_person_through_a_server_gets_what_one_address_gets(exits: list[str], cookie: bool) -> None:
    """By their visitor id; without one they cannot be told apart, and are counted with the server
    alone — never by the e-mail they give, which anyone could type."""
    calls: list[Call] = [{"ip": ip, "visitor": "hz-1" if cookie else None, "email": OWNER} for ip in exits]
    factor = 1 if cookie else EXIT_FACTOR
    assert len(admitted(limiter(), SUBMIT_EMAIL, calls)) == min(len(calls), 5 * factor)
    assert len(admitted(limiter(), CHECK_LICENSE, calls)) == min(len(calls), 10 * factor)


@given(st.integers(min_value=1, max_value=5 * EXIT_FACTOR - 1))
def test_strangers_without_a_cookie_naming_an_address_leave_its_owner_their_allowance(strangers: int) -> None:
    """The review's case: cookieless strangers on our server name the owner's address; the owner's
    own call, from the same server and without a cookie either, is taken (up to the server's
    ceiling, which is everyone's on it)."""
    limits = limiter()
    call: Call = {"ip": EXIT, "visitor": None, "email": OWNER}
    assert len(admitted(limits, SUBMIT_EMAIL, [call] * strangers)) == strangers
    assert admitted(limits, SUBMIT_EMAIL, [call]) == [call]


calls_rules = st.lists(
    rules.filter(lambda rule: not rule.failures_only and rule.subject != "email_ip"), min_size=1, max_size=4
).map(lambda found: tuple(attrs.evolve(rule, action=SUBMIT_EMAIL) for rule in found))


@settings(max_examples=150)
@given(
    calls_rules,
    st.lists(st.tuples(st.integers(min_value=0, max_value=400), EXITS, visitor_ids, emails), max_size=80),
)
def test_through_a_server_every_person_keeps_each_rule_and_the_server_its_ceiling(
    rules: tuple[RateLimit, ...], sequence: list[tuple[int, str, str | None, str | None]]
) -> None:
    """A per-address rule holds each person (by visitor id) to its limit and the server to
    EXIT_FACTOR times it; a rule on visitor ids or e-mails holds as anywhere."""
    limits = limiter(rules)
    now = START
    passed: list[tuple[datetime, str | None, str | None]] = []
    for gap, ip, visitor, email in sequence:
        now += timedelta(seconds=gap)
        if admitted(limits, SUBMIT_EMAIL, [{"ip": ip, "visitor": visitor, "email": email}], now):
            passed.append((now, visitor, email))
    for rule in rules:
        if rule.subject == "ip":
            assert most_in_any_window([at for at, _, _ in passed], rule.window) <= rule.limit * EXIT_FACTOR
            people = [(at, visitor) for at, visitor, _ in passed]
        else:
            people = [(at, visitor if rule.subject == "visitor" else email) for at, visitor, email in passed]
        for person in {who for _, who in people if who}:
            times = [at for at, who in people if who == person]
            assert most_in_any_window(times, rule.window) <= rule.limit, rule.name


Operation = tuple[int, str, str | None, str | None, str | None]


def outcomes(limits: Limiter, operations: list[Operation]) -> list[int | None]:
    """What each call was told: nothing, or how many seconds to wait."""
    told: list[int | None] = []
    now = START
    for gap, kind, ip, visitor, email in operations:
        now += timedelta(seconds=gap)
        call: Call = {"ip": ip, "visitor": visitor, "email": email}
        try:
            if kind == "call":
                limits.admit(CHECK_LICENSE, call, now)
            elif kind == "check":
                limits.refuse_if_failing(CHECK_LICENSE, call, now)
            else:
                limits.count_failure(CHECK_LICENSE, call, now)
        except RateLimited as refused:
            told.append(refused.retry_after_seconds)
            continue
        told.append(None)
    return told


@settings(max_examples=150)
@given(
    st.lists(rules, max_size=6).map(
        lambda found: tuple(attrs.evolve(rule, action=CHECK_LICENSE) for rule in found)
    ),
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=400),
            st.sampled_from(["call", "check", "failure"]),
            addresses.filter(lambda ip: OURS.server_of(ip) is None),
            visitor_ids,
            emails,
        ),
        max_size=60,
    ),
)
def test_from_any_other_address_the_limits_are_those_of_a_hub_without_servers(
    rules: tuple[RateLimit, ...], operations: list[Operation]
) -> None:
    ours_counted, none_counted = MemoryRateLimitStore(), MemoryRateLimitStore()
    ours, none = limiter(rules, ours_counted), Limiter(rules, hasher, none_counted)
    assert outcomes(ours, operations) == outcomes(none, operations)
    assert ours_counted.events == none_counted.events


def guesses_looked_at(limits: Limiter, visitors: list[str | None], ip: str = EXIT) -> list[str | None]:
    """Each of ``visitors`` in turn tries a wrong code for OWNER, one a second: those who got past
    the limiter."""
    looked_at = []
    for second, visitor in enumerate(visitors):
        now = START + timedelta(seconds=second)
        call: Call = {"ip": ip, "visitor": visitor, "email": OWNER}
        try:
            limits.refuse_if_failing(CHECK_LICENSE, call, now)
        except RateLimited:
            continue
        limits.count_failure(CHECK_LICENSE, call, now)
        looked_at.append(visitor)
    return looked_at


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(min_value=0, max_value=3000)), min_size=1, max_size=3600))
def test_guessing_for_one_e_mail_through_one_server_is_bounded(visitors: list[int | None]) -> None:
    """Within an hour: 20 wrong codes per visitor id, 20 for all those without one together, and
    20 × EXIT_FACTOR through the server whatever ids its clients make up."""
    ids = [None if n is None else f"hz-{n}" for n in visitors]
    looked_at = guesses_looked_at(limiter(), ids)
    assert len(looked_at) <= 20 * EXIT_FACTOR
    assert all(looked_at.count(visitor) <= 20 for visitor in set(looked_at))


def test_the_best_guessing_rates_through_one_server() -> None:
    hour = range(3600)
    assert len(guesses_looked_at(limiter(), ["hz-1"] * 3600)) == 20
    assert len(guesses_looked_at(limiter(), [None] * 3600)) == 20, "no visitor id: the server's"
    assert len(guesses_looked_at(limiter(), [f"hz-{n}" for n in hour])) == 20 * EXIT_FACTOR
    assert len(guesses_looked_at(limiter(), [f"hz-{n}" for n in hour], ELSEWHERE)) == 20


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=400), max_size=20 * EXIT_FACTOR - 1),
    st.integers(min_value=0, max_value=7200),
)
def test_strangers_on_the_owners_server_do_not_hold_back_an_owner_who_has_not_failed(
    strangers: list[int], after: int
) -> None:
    """Short of the server's ceiling for the e-mail (20 × EXIT_FACTOR wrong codes in the hour)."""
    limits = limiter()
    for second, stranger in enumerate(strangers):
        call: Call = {"ip": EXIT, "visitor": f"hz-{stranger}", "email": OWNER}
        limits.count_failure(CHECK_LICENSE, call, START + timedelta(seconds=second))
    owner: Call = {"ip": EXIT, "visitor": "hz-owner", "email": OWNER}
    limits.refuse_if_failing(CHECK_LICENSE, owner, START + timedelta(seconds=len(strangers) + after))


def test_what_is_counted_for_someone_through_our_server_is_kept_as_keyed_hashes_only() -> None:
    store = MemoryRateLimitStore()
    limits = limiter(store=store)
    limits.admit(SUBMIT_EMAIL, {"ip": EXIT, "visitor": "hz-1", "email": OWNER}, START)
    limits.count_failure(CHECK_LICENSE, {"ip": EXIT, "visitor": "hz-1", "email": OWNER}, START)
    assert store.events
    assert not any(secret in key for key in store.events for secret in (EXIT, "hz-1", OWNER, "nl-ams-1"))


# The use cases, with a server of the fleet whose heartbeats give its exit addresses.


def through_our_server(world: World) -> World:
    world.add_server("nl-ams-1", "token-nl")
    world.fleet.heartbeat(
        world.server("token-nl"), Heartbeat(5.0, 10.0, 0, True, exit_addresses=AMSTERDAM.exit_addresses)
    )

    def server_of_exit(address: str | None) -> VpnServer | None:
        servers = world.store.fleet.list_servers()
        return ExitIndex.of(view_fleet(servers, world.clock.now())).server_of(address)

    limits = attrs.evolve(world.limiter, server_of_exit=server_of_exit)
    return attrs.evolve(
        world,
        limiter=limits,
        signups=attrs.evolve(world.signups, limiter=limits),
        checks=attrs.evolve(world.checks, limiter=limits),
        support=attrs.evolve(world.support, limiter=limits),
    )


def sign_up(world: World, email: str, ip: str | None, visitor: str | None) -> str:
    signed = world.signups.submit_email(email, ip, visitor)
    return world.signups.create_user(signed, ip, visitor).code


def signed_up_from(world: World, email: str) -> list[str | None]:
    return [licence.ip_address for licence in export_address(world.store.privacy, world.keys, email).licences]


def test_people_through_our_server_sign_up_check_and_write_to_support_as_people(world: World) -> None:
    ours = through_our_server(world)
    people = [(f"p{n}@example.org", f"hz-{n}") for n in range(12)]
    codes = [sign_up(ours, email, EXIT, visitor) for email, visitor in people]
    for (email, visitor), code in zip(people, codes, strict=True):
        assert ours.checks.check(email, code, EXIT, visitor).licence.email == email
        assert signed_up_from(ours, email) == [None], "our own exit address says nothing about them"
        ours.support.open_ticket(email, None, "hello", EXIT, visitor_id=visitor)
    email, visitor = people[0]
    for _ in range(9):
        ours.checks.check(email, codes[0], EXIT, visitor)
    with pytest.raises(RateLimited):
        ours.checks.check(email, codes[0], EXIT, visitor)
    ours.checks.check(people[1][0], codes[1], EXIT, people[1][1])
    sign_up(ours, "elsewhere@example.org", ELSEWHERE, "hz-x")
    assert signed_up_from(ours, "elsewhere@example.org") == [ELSEWHERE]


def test_a_server_gone_offline_is_an_ordinary_address_again(world: World) -> None:
    ours = through_our_server(world)
    ours.clock.advance(seconds=31)
    sign_up(ours, "late@example.org", EXIT, "hz-1")
    assert signed_up_from(ours, "late@example.org") == [EXIT]
    for n in range(4):
        ours.signups.submit_email(f"q{n}@example.org", EXIT, f"hz-q{n}")
    with pytest.raises(RateLimited):
        ours.signups.submit_email("q4@example.org", EXIT, "hz-q4")


@store_property
@given(st.lists(st.tuples(st.one_of(EXITS, addresses), visitor_ids), min_size=1, max_size=5))
def test_a_licence_keeps_where_it_was_signed_up_from_unless_that_is_one_of_our_servers(
    backend: str, sign_ups: list[tuple[str | None, str | None]]
) -> None:
    with open_world(backend) as world:
        ours = through_our_server(world)
        for n, (ip, visitor) in enumerate(sign_ups):
            sign_up(ours, f"s{n}@example.org", ip, visitor)
            expected = None if OURS.server_of(ip) else ip
            assert signed_up_from(ours, f"s{n}@example.org") == [expected]


def test_the_readme_states_the_factor_for_our_servers() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    stated = re.search(r"at (\d+) times its limit\s+\(`EXIT_FACTOR`\)", readme)
    assert stated is not None and int(stated[1]) == EXIT_FACTOR
