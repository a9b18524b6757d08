"""Who may connect: a live licence, one session per server (the newest login wins), ten servers
in all; places never confirmed expire; what a server reports it holds is settled with the hub."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.conftest import TERM_DAYS, World, open_world
from vpnsite.errors import NodeUnauthorized
from vpnsite.fleet import Heartbeat, silent_since
from vpnsite.licences import Licence
from vpnsite.privacy import erase_address
from vpnsite.vpn_access import (
    DENY_LISTED_FOR,
    MAX_SESSIONS,
    UNCONFIRMED_FOR,
    Admission,
    Session,
    counts,
    login_refusal,
    settlement_of,
)

NOW = datetime(2026, 7, 1, tzinfo=UTC)
servers = st.sampled_from([f"server-{n}" for n in range(14)])


def licence(ends_in: timedelta, licence_id: str = "l") -> Licence:
    return Licence(licence_id, "a@example.org", "h", NOW - timedelta(days=10), NOW + ends_in)


@given(
    st.lists(servers, unique=True, max_size=13),
    servers,
    st.timedeltas(min_value=timedelta(days=-5), max_value=timedelta(days=5)),
)
def test_the_device_limit(used: list[str], server: str, ends_in: timedelta) -> None:
    sessions = [Session("l", name, NOW, f"s-{name}", confirmed=True) for name in used]
    why = login_refusal(licence(ends_in), sessions, server, NOW)
    elsewhere = len(set(used) - {server})
    if ends_in <= timedelta(0):
        assert why == "ended"
    elif elsewhere >= MAX_SESSIONS:
        assert why == "too_many_devices"
    else:
        assert why is None, "a session on the same server is replaced, never a reason to refuse"


@given(st.booleans(), st.timedeltas(min_value=timedelta(0), max_value=timedelta(minutes=2)))
def test_an_unconfirmed_place_counts_only_for_moments(confirmed: bool, age: timedelta) -> None:
    session = Session("l", "server-1", NOW - age, "s", confirmed)
    assert counts(session, NOW) == (confirmed or age < UNCONFIRMED_FOR)


@given(
    st.dictionaries(st.sampled_from(["s1", "s2", "s3", "s4"]), st.sampled_from(["live", "ended", "gone"])),
    st.dictionaries(
        st.sampled_from(["live", "ended"]), st.tuples(st.sampled_from(["s1", "s2", "s9"]), st.booleans())
    ),
    st.sets(st.sampled_from(["s1", "s2", "s3", "s4"])),
    st.booleans(),
    st.dictionaries(st.sampled_from(["s1", "s2", "s3", "s4"]), st.sampled_from(["udp", "tcp", "wireguard"])),
)
def test_settling_a_servers_report(
    held: dict[str, str],
    recorded_ids: dict[str, tuple[str, bool]],
    issued: set[str],
    tunnelled: bool,
    protocols: dict[str, str],
) -> None:
    """Held connections the hub has no record of (a WireGuard peer that shook hands, a session
    held through a silence) come back only if the hub could have admitted them there, and keep
    the protocol reported; a session its owner disconnected is ended, and stays recorded while
    the server reports it."""
    licences = {"live": licence(timedelta(days=3), "live"), "ended": licence(timedelta(days=-1), "ended")}
    recorded = [
        Session(lic, "srv", NOW - timedelta(minutes=5), sid, True, ending=ending)
        for lic, (sid, ending) in recorded_ids.items()
    ]
    result = settlement_of(
        "srv",
        held,
        recorded,
        licences,
        NOW,
        protocols,
        issued=lambda session_id, _: session_id in issued,
        tunnelled=lambda _: tunnelled,
    )
    assert all(s.protocol == protocols.get(s.id) and s.confirmed for s in result.restore)
    by_id = {s.id: s for s in recorded}
    restored = {s.id for s in result.restore}
    for session_id, licence_id in held.items():
        known = by_id.get(session_id)
        if known is not None:
            should_end = known.ending or known.licence_id != licence_id or licence_id != "live"
            assert (session_id in result.end) == should_end, (session_id, licence_id)
            assert (session_id in result.forget) == (should_end and not known.ending), "reported, it stays"
            continue
        vouched = tunnelled if protocols.get(session_id) == "wireguard" else session_id in issued
        holder = any(s.licence_id == licence_id for s in recorded if s.id in held)
        if licence_id != "live" or not vouched or holder:
            assert session_id in result.end and session_id not in restored, (session_id, licence_id)
        else:
            assert (session_id in result.end) != (session_id in restored)
    assert len(result.restore) == len({s.licence_id for s in result.restore}), "one session per server"
    assert set(result.forget) >= {s.id for s in recorded if s.id not in held}, "what the server lost goes"
    wireguard_ended = {held[s] for s in result.end if protocols.get(s) == "wireguard" and s not in by_id}
    assert set(result.hold_out) == wireguard_ended & {"live"}, "a live licence's ended WireGuard peer only"


SERVERS = [f"server-{n}" for n in range(14)]
step = st.one_of(
    st.tuples(st.just("login"), st.sampled_from(SERVERS)),
    st.tuples(st.just("establish"), st.sampled_from(SERVERS)),
    st.tuples(st.just("end"), st.sampled_from(SERVERS)),
    st.tuples(st.just("wait"), st.integers(min_value=1, max_value=40)),
)


def token(server: str) -> str:
    return f"token-of-{server}"


def fleet(world: World, servers: list[str], wireguard: bool = False) -> None:
    for server in servers:
        world.add_server(server, token(server), wireguard)


def beat(world: World, *servers: str) -> None:
    for server in servers:
        world.fleet.heartbeat(server, Heartbeat(1.0, 1.0, 0, True))


def held(world: World, servers: list[str]) -> list[Session]:
    return [session for server in servers for session in world.store.sessions.sessions_on(server)]


@pytest.mark.parametrize("backend, examples", [("memory", 200), ("sqlite", 20)])
def test_the_session_table_keeps_its_promises(backend: str, examples: int) -> None:
    """Whatever order logins, confirmations, departures and silences come in: one session per
    licence and server, never more than ten servers counting, and the newest login on a server
    is the one the hub holds there. (Fewer examples on SQLite, where each costs a fleet's writes.)"""

    @settings(max_examples=examples, deadline=None)
    @given(st.lists(step, max_size=50))
    def keeps_its_promises(steps: list[tuple[str, object]]) -> None:
        with open_world(backend) as world:
            anna = world.sign_up("anna@example.org")
            fleet(world, SERVERS)
            latest: dict[str, str] = {}
            for kind, value in steps:
                if kind == "wait":
                    world.clock.advance(seconds=int(value))  # type: ignore[call-overload]
                    continue
                server = str(value)
                beat(world, server)
                if kind == "login":
                    admission = world.node_access.log_in(server, "Anna@Example.org", anna.code)
                    if admission.refused is None:
                        assert admission.session_id and admission.licence_id == anna.licence.id
                        latest[server] = admission.session_id
                    else:
                        assert admission.refused == "too_many_devices"
                elif kind == "establish" and server in latest:
                    world.node_access.established(server, latest[server])
                elif kind == "end" and server in latest:
                    world.node_access.ended(server, latest.pop(server))
                now = world.clock.now()
                sessions = held(world, SERVERS)
                assert len({(s.licence_id, s.server_id) for s in sessions}) == len(sessions)
                counting = world.store.sessions.sessions_of(
                    anna.licence.id, now - UNCONFIRMED_FOR, silent_since(now)
                )
                assert len({s.server_id for s in counting}) <= MAX_SESSIONS
                for s in sessions:
                    assert latest.get(s.server_id) == s.id, "the hub holds the newest login of each server"

    keeps_its_promises()


def test_a_new_login_on_the_same_server_replaces_the_old_one(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    fleet(world, ["server-1"])
    first = world.node_access.log_in("server-1", "anna@example.org", anna.code)
    assert first.session_id and world.node_access.established("server-1", first.session_id)
    second = world.node_access.log_in("server-1", "anna@example.org", anna.code)
    assert second.refused is None and second.session_id not in (None, first.session_id)
    assert not world.node_access.ended("server-1", first.session_id), "a late goodbye frees nothing"
    assert [s.id for s in held(world, ["server-1"])] == [second.session_id]
    reported = {first.session_id: anna.licence.id, second.session_id: anna.licence.id}
    assert world.node_access.settle("server-1", reported) == [first.session_id]


def test_the_eleventh_server_is_refused_and_a_silent_one_stops_counting(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    fleet(world, SERVERS[:11])
    for server in SERVERS[:MAX_SESSIONS]:
        admitted = world.node_access.log_in(server, "anna@example.org", anna.code)
        assert admitted.session_id and world.node_access.established(server, admitted.session_id)
    refused = world.node_access.log_in("server-10", "anna@example.org", anna.code)
    assert refused == Admission(anna.licence.id, "too_many_devices")
    for seconds in (10, 10, 10, 1):  # server-0 misses three beats; the others keep beating
        world.clock.advance(seconds=seconds)
        beat(world, *SERVERS[1:11])
    assert world.node_access.log_in("server-10", "anna@example.org", anna.code).refused is None


def test_an_unconfirmed_login_holds_its_place_for_fifteen_seconds(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    fleet(world, SERVERS[:11])
    for server in SERVERS[:MAX_SESSIONS]:
        assert world.node_access.log_in(server, "anna@example.org", anna.code).session_id
    world.clock.moment += UNCONFIRMED_FOR - timedelta(microseconds=1)
    assert world.node_access.log_in("server-10", "anna@example.org", anna.code).refused == "too_many_devices"
    world.clock.advance(microseconds=1)
    assert world.node_access.log_in("server-10", "anna@example.org", anna.code).refused is None


def test_wrong_credentials_are_refused_and_hold_nothing(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    world.sign_up("bob@example.org")
    fleet(world, ["server-1"])
    for username, password in [
        ("bob@example.org", anna.code),
        ("anna@example.org", "0" * 20),
        ("anna@example.org", anna.code[:-1]),
        ("not an address", anna.code),
    ]:
        assert world.node_access.log_in("server-1", username, password) == Admission(None, "bad_credentials")
    assert held(world, ["server-1"]) == []


def test_only_a_server_of_the_fleet_may_ask(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    fleet(world, ["server-1"])
    admitted = world.node_access.log_in("server-1", "anna@example.org", anna.code)
    assert admitted.session_id
    assert world.server(token("server-1")) == "server-1"
    for wrong in ("", "token-of-server-2", token("server-1").upper()):
        with pytest.raises(NodeUnauthorized):
            world.server(wrong)
    fleet(world, ["server-2"])
    assert not world.node_access.established("server-2", admitted.session_id), "another server's session"
    assert not world.node_access.ended("server-2", admitted.session_id)
    assert [s.id for s in held(world, ["server-1"])] == [admitted.session_id]


def test_an_ended_or_erased_licence_is_refused_denied_and_settled_away(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    world.clock.advance(days=1)
    bob = world.sign_up("bob@example.org")
    fleet(world, ["server-1"])
    admitted = world.node_access.log_in("server-1", "bob@example.org", bob.code)
    assert admitted.session_id
    assert world.node_access.deny_list() == []

    world.clock.advance(days=TERM_DAYS - 1)
    beat(world, "server-1")
    assert world.node_access.deny_list() == [], "an ended licence's app is told why"
    assert world.node_access.log_in("server-1", "anna@example.org", anna.code) == Admission(
        anna.licence.id, "ended"
    )
    erase_address(
        world.store.privacy, world.keys, world.journal_keys.current(), "bob@example.org", world.clock.now()
    )
    assert world.node_access.deny_list() == [bob.licence.id], "an erased one never reaches TLS"
    assert held(world, ["server-1"]) == [], "erasure drops the sessions"
    assert world.node_access.log_in("server-1", "bob@example.org", bob.code).refused == "bad_credentials"
    reported = {admitted.session_id: bob.licence.id, "made-up": "no-such-licence"}
    assert sorted(world.node_access.settle("server-1", reported)) == sorted(reported)
    world.clock.advance(seconds=DENY_LISTED_FOR.total_seconds() + 1)
    assert world.node_access.deny_list() == [], "the list does not grow for ever"


def test_what_a_server_still_holds_after_a_silence_is_counted_again(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    fleet(world, ["server-1"])
    admitted = world.node_access.log_in("server-1", "anna@example.org", anna.code)
    assert admitted.session_id and world.node_access.established("server-1", admitted.session_id)
    world.clock.advance(minutes=2)
    beat(world, "server-1")
    assert held(world, ["server-1"]) == [], "the hub took the silence for an outage"
    assert world.node_access.settle("server-1", {admitted.session_id: anna.licence.id}) == []
    [restored] = held(world, ["server-1"])
    assert (restored.id, restored.licence_id, restored.confirmed) == (
        admitted.session_id,
        anna.licence.id,
        True,
    )
    assert world.node_access.ended("server-1", admitted.session_id)
    assert held(world, ["server-1"]) == []


def test_a_wireguard_server_learns_the_tunnel_addresses_of_live_licences(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    bob = world.sign_up("bob@example.org")
    fleet(world, ["server-1"], wireguard=True)
    assert world.node_access.tunnel_peers("server-1") == []
    first = world.archives.open(anna.archive_token, ip=None).tunnel_addresses
    world.archives.open(bob.archive_token, ip=None)
    peers = world.node_access.tunnel_peers("server-1")
    assert sorted(peers) == sorted([(anna.licence.id, first["server-1"]), (bob.licence.id, "10.66.0.3")])
    erase_address(
        world.store.privacy, world.keys, world.journal_keys.current(), "bob@example.org", world.clock.now()
    )
    assert world.node_access.tunnel_peers("server-1") == [(anna.licence.id, "10.66.0.2")]
    world.clock.advance(days=TERM_DAYS)
    assert world.node_access.tunnel_peers("server-1") == []
