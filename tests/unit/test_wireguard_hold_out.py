"""A WireGuard device its owner disconnects is held out of its server by the hub, until its owner
connects it again: its server's list of peers leaves it out (whatever the node forgets or however
long it waits), and only a WireGuard device is held out — an OpenVPN app is told by its server."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from vpnsite.devices import held_out_by
from vpnsite.errors import LicenceNotFound
from vpnsite.fleet import Heartbeat
from vpnsite.notifications import Activation
from vpnsite.privacy import erase_address, export_address
from vpnsite.vpn_access import Session

SERVERS = ["server-1", "server-2", "server-3"]


def token(server: str) -> str:
    return f"token-of-{server}"


def listed(world: World, server: str) -> list[str]:
    """The licences whose WireGuard peers the server is told to have."""
    return [licence for licence, _ in world.node_access.tunnel_peers(server)]


def connect(world: World, who: Activation, server: str, protocol: str) -> str:
    """The licence's device on the server: a WireGuard peer that shook hands, or an OpenVPN login."""
    if protocol == "wireguard":
        session = f"wg-{who.licence.id}-{server}"
        # A server reports every connection it holds: those the hub knows, and the new peer.
        known = world.store.sessions.sessions_on(server)
        held = {**{each.id: each.licence_id for each in known}, session: who.licence.id}
        protocols = {**{each.id: each.protocol or "udp" for each in known}, session: protocol}
        world.node_access.report(server, Heartbeat(1.0, 1.0, 1, True), held, protocols, None)
        return session
    admitted = world.node_access.log_in(server, who.licence.email or "", who.code, protocol)
    assert admitted.session_id and world.node_access.established(server, admitted.session_id)
    return admitted.session_id


def wireguard_fleet(world: World) -> tuple[Activation, Activation]:
    anna, bob = world.sign_up("anna@example.org"), world.sign_up("bob@example.org")
    for server in SERVERS:
        world.add_server(server, token(server), wireguard=True)
        world.fleet.heartbeat(server, Heartbeat(1.0, 1.0, 0, True))
    for who in (anna, bob):
        world.archives.open(who.archive_token, ip=None)  # their tunnel addresses
    return anna, bob


def test_a_disconnected_wireguard_device_is_off_its_servers_list_until_its_owner_connects_it(
    world: World,
) -> None:
    anna, bob = wireguard_fleet(world)
    peer = connect(world, anna, "server-1", "wireguard")
    connect(world, bob, "server-1", "wireguard")
    assert sorted(listed(world, "server-1")) == sorted([anna.licence.id, bob.licence.id])
    shown = world.devices.disconnect("anna@example.org", anna.code, None, peer)
    assert shown.sessions == [] and shown.held_out == ["server-1"]
    assert listed(world, "server-1") == [bob.licence.id]
    assert sorted(listed(world, "server-2")) == sorted([anna.licence.id, bob.licence.id]), "that server only"
    ended = world.node_access.report(
        "server-1", Heartbeat(1.0, 1.0, 1, True), {peer: anna.licence.id}, {peer: "wireguard"}, None
    )
    assert ended.end == [peer], "its server takes it off"
    world.clock.advance(days=3)
    for server in SERVERS:
        world.fleet.heartbeat(server, Heartbeat(1.0, 1.0, 0, True))
    assert listed(world, "server-1") == [bob.licence.id], "days later, still out"

    with pytest.raises(LicenceNotFound):
        world.devices.connect_again("anna@example.org", bob.code, None, "server-1")
    world.devices.connect_again("bob@example.org", bob.code, None, "server-1")
    assert listed(world, "server-1") == [bob.licence.id], "nobody else lets it in"
    again = world.devices.connect_again("anna@example.org", anna.code, None, "server-1")
    assert again.held_out == []
    assert sorted(listed(world, "server-1")) == sorted([anna.licence.id, bob.licence.id])


def test_an_openvpn_disconnect_holds_nothing_out(world: World) -> None:
    anna, _ = wireguard_fleet(world)
    session = connect(world, anna, "server-2", "udp")
    shown = world.devices.disconnect("anna@example.org", anna.code, None, session)
    assert shown.held_out == [] and anna.licence.id in listed(world, "server-2")
    ended = world.node_access.report(
        "server-2", Heartbeat(1.0, 1.0, 1, True), {session: anna.licence.id}, {session: "udp"}, None
    )
    assert ended.end == [session], "its server halts it; the app is told and may log in again"
    assert world.node_access.log_in("server-2", "anna@example.org", anna.code, "udp").refused is None


def test_a_wireguard_peer_its_server_must_end_for_want_of_a_place_is_held_out(world: World) -> None:
    anna, _ = wireguard_fleet(world)
    tcp = connect(world, anna, "server-3", "tcp")
    peer = f"wg-{anna.licence.id}-server-3"
    ended = world.node_access.report(
        "server-3",
        Heartbeat(1.0, 1.0, 2, True),
        {tcp: anna.licence.id, peer: anna.licence.id},
        {tcp: "tcp", peer: "wireguard"},
        None,
    )
    assert ended.end == [peer], "the licence already has a session on that server"
    assert anna.licence.id not in listed(world, "server-3"), "not back at its next handshake"
    assert world.devices.list("anna@example.org", anna.code, None).held_out == ["server-3"]


@store_property
@given(
    st.dictionaries(st.sampled_from(SERVERS), st.sampled_from(["udp", "tcp", "wireguard"]), min_size=1),
    st.one_of(st.none(), st.sampled_from(SERVERS)),
)
def test_disconnecting_holds_out_exactly_the_wireguard_devices_ended(
    backend: str, devices: dict[str, str], which: str | None
) -> None:
    with open_world(backend) as world:
        anna, _ = wireguard_fleet(world)
        sessions = {server: connect(world, anna, server, protocol) for server, protocol in devices.items()}
        chosen = None if which is None else sessions.get(which)
        if which is not None and chosen is None:
            return
        shown = world.devices.disconnect("anna@example.org", anna.code, None, chosen)
        ended = {server for server in devices if which in (None, server)}
        wireguard = {server for server in ended if devices[server] == "wireguard"}
        assert set(shown.held_out) == wireguard
        for server in SERVERS:
            assert (anna.licence.id in listed(world, server)) == (server not in wireguard)
        for server in wireguard:
            world.devices.connect_again("anna@example.org", anna.code, None, server)
        assert all(anna.licence.id in listed(world, server) for server in SERVERS)


@given(st.lists(st.tuples(st.sampled_from(SERVERS), st.sampled_from(["udp", "tcp", "wireguard", None]))))
def test_only_wireguard_sessions_are_held_out(ended: list[tuple[str, str | None]]) -> None:
    sessions = [
        Session("l", server, datetime(2026, 1, 1, tzinfo=UTC), f"s{n}", True, protocol)
        for n, (server, protocol) in enumerate(ended)
    ]
    assert held_out_by(sessions) == {server for server, protocol in ended if protocol == "wireguard"}


def test_the_hold_out_is_exported_and_erased_with_the_licences_peer(world: World) -> None:
    anna, _ = wireguard_fleet(world)
    peer = connect(world, anna, "server-1", "wireguard")
    world.devices.disconnect("anna@example.org", anna.code, None, peer)
    exported = export_address(world.store.privacy, world.keys, "anna@example.org").wireguard_peers
    assert [(held.server, held.held_out) for held in exported] == [
        ("server-1", True),
        ("server-2", False),
        ("server-3", False),
    ]
    erase_address(
        world.store.privacy, world.keys, world.journal_keys.current(), "anna@example.org", world.clock.now()
    )
    assert export_address(world.store.privacy, world.keys, "anna@example.org").wireguard_peers == ()


def test_connecting_again_before_the_server_reports_is_not_undone_by_its_report(world: World) -> None:
    anna, _ = wireguard_fleet(world)
    peer = connect(world, anna, "server-1", "wireguard")
    world.devices.disconnect("anna@example.org", anna.code, None, peer)
    world.devices.connect_again("anna@example.org", anna.code, None, "server-1")
    ended = world.node_access.report(
        "server-1", Heartbeat(1.0, 1.0, 1, True), {peer: anna.licence.id}, {peer: "wireguard"}, None
    )
    assert ended.end == [peer], "the disconnected session still ends"
    assert anna.licence.id in listed(world, "server-1"), "and the peer is back at the sync after it"
