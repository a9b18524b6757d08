"""The fleet as visitors see it: online or not, and how popular each server is."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from tests.unit.fakes import SeededRandom
from vpnsite.errors import InvalidField, NodeUnauthorized
from vpnsite.fleet import (
    HEARTBEAT_PERIOD,
    MISSED_BEATS_OFFLINE,
    SPEC_LOCATIONS,
    Heartbeat,
    Location,
    Rank,
    VpnServer,
    is_online,
    rank_popularity,
    view_fleet,
)
from vpnsite.server_tokens import issue_server_token

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
ORDER = [Rank.LOW, Rank.MEDIUM, Rank.HIGH, Rank.VERY_HIGH]
silences = st.timedeltas(min_value=timedelta(0), max_value=timedelta(minutes=5))


def server(seen: timedelta | None, up: bool = True, sessions: int = 0, where: int = 0) -> VpnServer:
    return VpnServer(
        SPEC_LOCATIONS[where % len(SPEC_LOCATIONS)],
        last_seen=None if seen is None else NOW - seen,
        service_up=up,
        sessions=sessions,
    )


def test_three_missed_ten_second_heartbeats_mean_offline() -> None:
    assert timedelta(seconds=10) == HEARTBEAT_PERIOD and MISSED_BEATS_OFFLINE == 3
    assert is_online(server(timedelta(seconds=29, microseconds=999_999)), NOW)
    assert not is_online(server(timedelta(seconds=30)), NOW)


@given(silences, st.booleans())
def test_a_server_is_online_while_its_service_is_up_and_it_has_missed_fewer_than_three_beats(
    silence: timedelta, up: bool
) -> None:
    assert is_online(server(silence, up), NOW) is (up and silence < timedelta(seconds=30))
    assert not is_online(server(None, up), NOW), "never heard from"
    assert not is_online(server(silence, up=False), NOW), "the service is down"


@given(silences, silences)
def test_a_silent_server_does_not_come_back_by_itself(silence: timedelta, more: timedelta) -> None:
    if not is_online(server(silence), NOW):
        assert not is_online(server(silence), NOW + more)


@given(
    st.integers(min_value=0, max_value=10_000),
    st.integers(min_value=0, max_value=10_000),
    st.integers(min_value=0, max_value=100_000),
    st.integers(min_value=0, max_value=50),
)
def test_popularity_never_falls_as_sessions_grow(a: int, b: int, all_sessions: int, servers: int) -> None:
    low, high = sorted((a, b))
    assert ORDER.index(rank_popularity(low, all_sessions, servers)) <= ORDER.index(
        rank_popularity(high, all_sessions, servers)
    )


@given(st.integers(min_value=0, max_value=100_000), st.integers(min_value=-1, max_value=50))
def test_no_sessions_is_low(all_sessions: int, servers: int) -> None:
    assert rank_popularity(0, all_sessions, servers) is Rank.LOW
    assert rank_popularity(5, 0, servers) is Rank.LOW
    assert rank_popularity(5, 10, 0) is Rank.LOW


@pytest.mark.parametrize(
    "sessions, rank",
    [(0, Rank.LOW), (49, Rank.LOW), (50, Rank.MEDIUM), (100, Rank.HIGH), (200, Rank.VERY_HIGH)],
)
def test_rank_is_the_share_against_an_even_share(sessions: int, rank: Rank) -> None:
    # Ten servers, 1,000 sessions: an even share is 100.
    assert rank_popularity(sessions, 1000, 10) is rank


fleets = st.lists(
    st.tuples(st.one_of(st.none(), silences), st.booleans(), st.integers(min_value=0, max_value=5000)),
    max_size=12,
)


@given(fleets)
def test_the_fleet_view_ranks_online_servers_among_themselves(
    specs: list[tuple[timedelta | None, bool, int]],
) -> None:
    servers = [server(seen, up, sessions, n) for n, (seen, up, sessions) in enumerate(specs)]
    views = view_fleet(servers, NOW)
    assert [view.server for view in views] == servers
    online = [s for s in servers if is_online(s, NOW)]
    total = sum(s.sessions for s in online)
    for view in views:
        assert view.online is is_online(view.server, NOW)
        if view.online:
            assert view.rank is rank_popularity(view.server.sessions, total, len(online))
        else:
            assert view.rank is Rank.LOW, "sessions an offline server last reported do not count"
    # Offline servers, however busy they were, change no online server's rank.
    ghost = server(timedelta(minutes=10), True, 10**6, 3)
    assert [v.rank for v in view_fleet([*servers, ghost], NOW)][: len(servers)] == [v.rank for v in views]


def test_an_even_fleet_is_all_high_and_an_idle_one_all_low() -> None:
    even = view_fleet([server(timedelta(seconds=1), sessions=7, where=n) for n in range(8)], NOW)
    assert {v.rank for v in even} == {Rank.HIGH}
    idle = view_fleet([server(timedelta(seconds=1), where=n) for n in range(8)], NOW)
    assert {v.rank for v in idle} == {Rank.LOW}


def test_the_default_fleet_is_the_eight_spec_locations() -> None:
    assert [loc.city for loc in SPEC_LOCATIONS] == [
        "Amsterdam",
        "Riga",
        "Warsaw",
        "Zurich",
        "Bucharest",
        "Frankfurt",
        "Milan",
        "New York",
    ]
    assert len({loc.id for loc in SPEC_LOCATIONS}) == 8


@pytest.mark.parametrize(
    "cpu, bandwidth, sessions, field",
    [
        (-0.1, 1.0, 1, "cpu_load"),
        (100.1, 1.0, 1, "cpu_load"),
        (math.nan, 1.0, 1, "cpu_load"),
        (math.inf, 1.0, 1, "cpu_load"),
        (1.0, -1.0, 1, "bandwidth_mbps"),
        (1.0, math.nan, 1, "bandwidth_mbps"),
        (1.0, 1e7, 1, "bandwidth_mbps"),
        (1.0, 1.0, -1, "sessions"),
        (1.0, 1.0, 1_000_001, "sessions"),
    ],
)
def test_an_impossible_heartbeat_is_refused(cpu: float, bandwidth: float, sessions: int, field: str) -> None:
    with pytest.raises(InvalidField) as refused:
        Heartbeat(cpu, bandwidth, sessions, True)
    assert refused.value.field == field and refused.value.kind == "out_of_range"


def test_a_heartbeat_needs_the_servers_token_which_is_kept_only_hashed(world: World) -> None:
    world.add_server("nl-amsterdam", "node-secret")
    world.clock.advance(seconds=10)
    assert world.server("node-secret") == "nl-amsterdam"
    world.fleet.heartbeat(world.server("node-secret"), Heartbeat(12.5, 80.0, 3, True))
    server = world.store.fleet.find_server("nl-amsterdam")
    assert server is not None and server.last_seen == world.clock.now()
    assert (server.load_percent, server.bandwidth_mbps, server.sessions, server.service_up) == (
        12.5,
        80.0,
        3,
        True,
    )
    assert is_online(server, world.clock.now())
    for wrong in ("", "node-secreT", "other"):
        with pytest.raises(NodeUnauthorized):
            world.fleet.heartbeat(world.server(wrong), Heartbeat(1.0, 1.0, 0, True))
    assert world.store.fleet.token_holder(["node-secret"]) is None, "the token is looked up by its keyed hash"
    assert world.store.fleet.find_server("nl-amsterdam") == server


def test_a_server_that_says_its_service_is_down_is_offline(world: World) -> None:
    world.add_server("lv-riga", "riga-secret")
    world.fleet.heartbeat(world.server("riga-secret"), Heartbeat(0.0, 0.0, 0, False))
    assert not is_online(world.store.fleet.list_servers()[0], world.clock.now())


def held_sessions(world: World, server: str) -> int:
    return len(world.store.sessions.sessions_on(server))


@store_property
@given(st.integers(min_value=0, max_value=300))
def test_a_server_heard_again_after_three_missed_beats_loses_its_sessions(backend: str, silent: int) -> None:
    with open_world(backend) as world:
        anna = world.sign_up("anna@example.org")
        world.add_server("nl-amsterdam", "node-secret")
        admitted = world.node_access.log_in(world.server("node-secret"), "anna@example.org", anna.code)
        assert admitted.session_id and world.node_access.established(
            world.server("node-secret"), admitted.session_id
        )
        world.clock.advance(seconds=silent)
        world.fleet.heartbeat(world.server("node-secret"), Heartbeat(1.0, 1.0, 1, True))
        missed_three = timedelta(seconds=silent) > HEARTBEAT_PERIOD * MISSED_BEATS_OFFLINE
        assert held_sessions(world, "nl-amsterdam") == (0 if missed_three else 1)


def test_a_servers_first_heartbeat_starts_it_with_no_sessions(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    world.store.fleet.add_server(
        Location("pl-warsaw", "Poland", "pl", "Warsaw"), "pl.example.org", 1194, None
    )
    world.store.fleet.set_token("pl-warsaw", world.keys.read().nodes("warsaw-secret").current)
    assert world.node_access.log_in(world.server("warsaw-secret"), "anna@example.org", anna.code).session_id
    assert held_sessions(world, "pl-warsaw") == 1
    world.fleet.heartbeat(world.server("warsaw-secret"), Heartbeat(1.0, 1.0, 0, True))
    assert held_sessions(world, "pl-warsaw") == 0


@store_property
@given(st.integers(min_value=0, max_value=2**32))
def test_a_server_token_is_shown_once_and_kept_only_as_its_hash(backend: str, seed: int) -> None:
    with open_world(backend) as world:
        world.store.fleet.add_locations(SPEC_LOCATIONS[:2])
        keys, random = world.keys, SeededRandom(seed)
        first = issue_server_token(world.store.fleet, "nl-amsterdam", keys, random)
        assert first is not None and len(first) >= 32
        assert world.server(first) == "nl-amsterdam"
        assert world.store.fleet.token_holder([first]) is None
        second = issue_server_token(world.store.fleet, "nl-amsterdam", keys, random)
        assert second not in (None, first)
        with pytest.raises(NodeUnauthorized):
            world.server(first)
        assert world.server(second or "") == "nl-amsterdam"
        assert issue_server_token(world.store.fleet, "nowhere", keys, random) is None
