"""What a VPN server reports and how a login settles there: one call records the heartbeat and
settles the connections it lists; what a server says a connection runs over counts only when it is
a protocol the hub knows; and the newest login of a licence on a server replaces its others."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world
from vpnsite.fleet import Heartbeat
from vpnsite.protocols import WIREGUARD
from vpnsite.vpn_access import SESSION_PROTOCOLS, superseded

beat = Heartbeat(5.0, 10.0, 2, True)
sessions = st.text("abcdef0123456789", min_size=1, max_size=6)
licences = st.sampled_from(["anna", "bob", "carol"])


@given(st.dictionaries(sessions, licences, max_size=12), st.dictionaries(licences, sessions, max_size=3))
def test_a_licence_keeps_one_connection_on_a_server_the_one_the_hub_holds(
    held: dict[str, str], holders: dict[str, str]
) -> None:
    """Whatever a server holds (session → licence) and whichever session of each licence the hub
    holds there, what is not superseded keeps at most one connection per licence, and it is the
    hub's where the hub holds one; a licence the hub holds nothing of keeps all of its own."""
    kept = {
        session: licence for session, licence in held.items() if not superseded(session, licence, holders)
    }
    for licence in set(held.values()):
        mine = [session for session, holder in kept.items() if holder == licence]
        if licence in holders:
            assert mine == ([holders[licence]] if held.get(holders[licence]) == licence else [])
        else:
            assert mine == [session for session, holder in held.items() if holder == licence]


def test_a_report_records_the_beat_and_settles_what_the_server_holds(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    world.add_server("server-1", "token-1")
    first = world.node_access.log_in(world.server("token-1"), "anna@example.org", anna.code, "udp")
    second = world.node_access.log_in(world.server("token-1"), "anna@example.org", anna.code, "tcp")
    assert first.session_id and second.session_id
    world.clock.advance(seconds=5)
    held = {first.session_id: anna.licence.id, second.session_id: anna.licence.id, "made-up": anna.licence.id}
    report = world.node_access.report(world.server("token-1"), beat, held, {}, "198.51.100.7")
    assert report.server_id == "server-1"
    assert sorted(report.end) == sorted([first.session_id, "made-up"]), "the older login and a stranger end"
    server = world.store.fleet.find_server("server-1")
    assert server is not None and server.last_seen == world.clock.now() and server.sessions == 2
    assert server.exit_addresses == ("198.51.100.7",)


def test_a_report_without_connections_settles_nothing(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    world.add_server("server-1", "token-1")
    admitted = world.node_access.log_in(world.server("token-1"), "anna@example.org", anna.code)
    assert world.node_access.report(world.server("token-1"), beat, None, {}, None).end == []
    assert [s.id for s in world.store.sessions.sessions_on("server-1")] == [admitted.session_id]


@given(st.one_of(st.sampled_from([*SESSION_PROTOCOLS, "UDP", "ipsec", ""]), st.none(), st.text(max_size=8)))
def test_only_a_protocol_the_hub_knows_is_taken_from_a_server(said: str | None) -> None:
    with open_world("memory") as world:
        anna = world.sign_up("anna@example.org")
        world.add_server("server-1", "token-1", wireguard=True)
        admitted = world.node_access.log_in(world.server("token-1"), "anna@example.org", anna.code, said)
        [session] = world.store.sessions.sessions_on("server-1")
        assert session.id == admitted.session_id
        assert session.protocol == (said if said in ("udp", "tcp") else None), (
            "a WireGuard peer never logs in"
        )
        world.store.sessions.release("server-1", [session.id])
        report = world.node_access.report(
            world.server("token-1"), beat, {session.id: anna.licence.id}, {session.id: said}, None
        )
        restored = world.store.sessions.sessions_on("server-1")
        if said == WIREGUARD:
            assert report.end == [session.id] and restored == [], "a peer needs a tunnel address here"
        else:
            assert report.end == [] and [s.protocol for s in restored] == [
                said if said in SESSION_PROTOCOLS else None
            ]
