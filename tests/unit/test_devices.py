"""A licence's devices: its owner sees only its own sessions (server, protocol, since when), ends
one or all, and the place is free at once while the server is told to cut the connection."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world
from tests.unit.test_vpn_access import beat, fleet
from vpnsite.errors import LicenceNotFound, SessionNotFound
from vpnsite.vpn_access import MAX_SESSIONS

SERVERS = [f"server-{n}" for n in range(12)]
PEOPLE = ["anna@example.org", "bob@example.org", "cleo@example.org"]
step = st.one_of(
    st.tuples(st.just("login"), st.sampled_from(PEOPLE), st.sampled_from(SERVERS)),
    st.tuples(st.just("establish"), st.sampled_from(PEOPLE), st.sampled_from(SERVERS)),
    st.tuples(st.just("disconnect"), st.sampled_from(PEOPLE), st.sampled_from(SERVERS)),
    st.tuples(st.just("disconnect_all"), st.sampled_from(PEOPLE), st.just("")),
    st.tuples(st.just("foreign_disconnect"), st.sampled_from(PEOPLE), st.sampled_from(SERVERS)),
    st.tuples(st.just("wait"), st.just(""), st.integers(min_value=1, max_value=40).map(str)),
)


@pytest.mark.parametrize("backend, examples", [("memory", 150), ("sqlite", 15)])
def test_no_listing_ever_shows_a_session_of_another_licence(backend: str, examples: int) -> None:
    """Whatever three people do on a shared fleet — log in, connect, disconnect one or all, try
    to disconnect someone else's session — each one's listing holds only sessions its own
    licence was admitted to, and never one it disconnected."""

    @settings(max_examples=examples, deadline=None)
    @given(st.lists(step, max_size=40))
    def only_their_own(steps: list[tuple[str, str, str]]) -> None:
        with open_world(backend) as world:
            people = {email: world.sign_up(email) for email in PEOPLE}
            fleet(world, SERVERS)
            admitted: dict[str, dict[str, str]] = {email: {} for email in PEOPLE}
            disconnected: set[str] = set()
            for kind, email, value in steps:
                if kind == "wait":
                    world.clock.advance(seconds=int(value))
                    beat(world, *SERVERS)
                    continue
                code = people[email].code
                if kind == "login":
                    admission = world.node_access.log_in(value, email, code, "udp")
                    if admission.session_id:
                        admitted[email][value] = admission.session_id
                elif kind == "establish" and value in admitted[email]:
                    world.node_access.established(value, admitted[email][value])
                elif kind == "disconnect" and value in admitted[email]:
                    session = admitted[email][value]
                    try:
                        world.devices.disconnect(email, code, None, session)
                        disconnected.add(session)
                    except SessionNotFound:
                        pass  # no longer counted (never confirmed, or its server went silent)
                elif kind == "disconnect_all":
                    world.devices.disconnect(email, code, None, None)
                    disconnected.update(admitted[email].values())
                elif kind == "foreign_disconnect":
                    others = [
                        s for other, sessions in admitted.items() if other != email for s in sessions.values()
                    ]
                    for session in others[:1]:
                        with pytest.raises(SessionNotFound):
                            world.devices.disconnect(email, code, None, session)
                for person in PEOPLE:
                    listing = world.devices.list(person, people[person].code, None)
                    assert {s.licence_id for s in listing.sessions} <= {people[person].licence.id}
                    shown = {s.id for s in listing.sessions}
                    assert shown <= set(admitted[person].values()), (
                        "only sessions this licence was admitted to"
                    )
                    assert not shown & disconnected, "a disconnected session is never listed again"
                    assert listing.servers_in_use == len(shown) <= MAX_SESSIONS

    only_their_own()


def test_listing_shows_server_protocol_and_start_and_needs_the_code(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    fleet(world, ["server-1", "server-2"])
    started = world.clock.now()
    first = world.node_access.log_in("server-1", "anna@example.org", anna.code, "tcp")
    assert first.session_id and world.node_access.established("server-1", first.session_id)
    listing = world.devices.list("Anna@Example.org", anna.code, "198.51.100.1")
    assert [(s.server_id, s.protocol, s.started_at, s.id) for s in listing.sessions] == [
        ("server-1", "tcp", started, first.session_id)
    ]
    assert (listing.servers_in_use, listing.limit) == (1, 10)
    with pytest.raises(LicenceNotFound):
        world.devices.list("anna@example.org", "0" * 20, "198.51.100.1")


def test_disconnecting_frees_the_place_at_once_and_the_server_cuts_it(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    servers = [f"server-{n}" for n in range(MAX_SESSIONS + 1)]
    fleet(world, servers)
    sessions = {}
    for server in servers[:MAX_SESSIONS]:
        admission = world.node_access.log_in(server, "anna@example.org", anna.code, "udp")
        assert admission.session_id and world.node_access.established(server, admission.session_id)
        sessions[server] = admission.session_id
    last = servers[-1]
    assert world.node_access.log_in(last, "anna@example.org", anna.code).refused == "too_many_devices"

    listing = world.devices.disconnect("anna@example.org", anna.code, None, sessions["server-0"])
    assert listing.servers_in_use == MAX_SESSIONS - 1 and sessions["server-0"] not in {
        s.id for s in listing.sessions
    }
    assert world.node_access.log_in(last, "anna@example.org", anna.code).refused is None, (
        "the place is free before the server has even heard"
    )
    held = {sessions["server-0"]: anna.licence.id}
    assert world.node_access.settle("server-0", held) == [sessions["server-0"]], (
        "its server is told to cut it"
    )
    assert world.node_access.settle("server-0", held) == [sessions["server-0"]], (
        "reported again, it is ended again, never counted again"
    )
    assert world.devices.list("anna@example.org", anna.code, None).servers_in_use == MAX_SESSIONS
    world.node_access.settle("server-0", {})
    assert world.store.sessions.sessions_on("server-0") == [], "and once cut, the row is gone"

    world.devices.disconnect("anna@example.org", anna.code, None, None)
    assert world.devices.list("anna@example.org", anna.code, None).sessions == []
    assert world.node_access.settle("server-3", {sessions["server-3"]: anna.licence.id}) == [
        sessions["server-3"]
    ]


def test_nobody_disconnects_a_session_that_is_not_theirs(world: World) -> None:
    anna, bob = world.sign_up("anna@example.org"), world.sign_up("bob@example.org")
    fleet(world, ["server-1"])
    admission = world.node_access.log_in("server-1", "bob@example.org", bob.code)
    assert admission.session_id and world.node_access.established("server-1", admission.session_id)
    with pytest.raises(SessionNotFound):
        world.devices.disconnect("anna@example.org", anna.code, None, admission.session_id)
    world.devices.disconnect("anna@example.org", anna.code, None, None)
    assert [s.id for s in world.devices.list("bob@example.org", bob.code, None).sessions] == [
        admission.session_id
    ]
    assert world.node_access.settle("server-1", {admission.session_id: bob.licence.id}) == []
