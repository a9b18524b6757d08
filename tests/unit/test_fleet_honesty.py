"""One server's token cannot lie about the whole fleet: a server keeps, confirms and ends only
the sessions the hub admitted on it, and the exit networks it gives cannot cover visitors it
never carried."""

from __future__ import annotations

import ipaddress
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from tests.unit.test_vpn_access import beat, fleet, held
from vpnsite.connection_check import ExitIndex
from vpnsite.errors import InvalidField
from vpnsite.fleet import WIDEST_EXIT_PREFIX, Heartbeat, exit_addresses, view_fleet
from vpnsite.keyed_hashes import Keyring
from vpnsite.vpn_access import MAX_SESSIONS, SESSION_ID_BYTES, UNCONFIRMED_FOR, counts, hub_issued, sealed_id

servers = st.sampled_from(["nl-ams-1", "us-nyc-1", "de-fra-1"])
licence_ids = st.sampled_from(["licence-a", "licence-b", "licence-c"])
nonces = st.binary(min_size=SESSION_ID_BYTES, max_size=SESSION_ID_BYTES).map(bytes.hex)
# What a server may put in a report: anything up to the API's cap, hex-looking or not.
reported_ids = st.one_of(st.text(max_size=64), st.text("0123456789abcdef", min_size=56, max_size=56))
RING = Keyring.from_master(b"k" * 32)


def networks(version: Literal[4, 6]) -> st.SearchStrategy[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    bits = 32 if version == 4 else 128
    return st.tuples(st.ip_addresses(v=version), st.integers(min_value=0, max_value=bits)).map(
        lambda found: ipaddress.ip_network(f"{found[0]}/{found[1]}", strict=False)
    )


@given(servers, licence_ids, nonces, servers, licence_ids)
def test_a_session_id_is_the_hubs_for_its_server_and_licence_only(
    server: str, licence: str, nonce: str, other_server: str, other_licence: str
) -> None:
    issued = sealed_id(RING.current, server, licence, nonce)
    assert len(issued) <= 64, "it fits the node API's session field"
    assert hub_issued(RING.read(), issued, server, licence)
    assert hub_issued(RING.read(), issued, other_server, other_licence) == (
        (other_server, other_licence) == (server, licence)
    ), "never another server's or another licence's"
    other_key = Keyring.from_master(b"o" * 32)
    assert not hub_issued(other_key.read(), issued, server, licence), "only the hub's keys make one"


@given(reported_ids, servers, licence_ids)
def test_an_id_a_server_makes_up_is_not_the_hubs(session_id: str, server: str, licence: str) -> None:
    nonce = session_id[: 2 * SESSION_ID_BYTES]
    assert hub_issued(RING.read(), session_id, server, licence) == (
        session_id == sealed_id(RING.current, server, licence, nonce)
    )


def test_an_id_issued_before_a_key_rotation_stays_the_hubs(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    fleet(world, ["server-1"])
    admitted = world.node_access.log_in("server-1", "anna@example.org", anna.code)
    assert admitted.session_id
    world.ring.rotate()
    assert hub_issued(world.keys.read(), admitted.session_id, "server-1", anna.licence.id)


def test_a_server_cannot_hold_a_place_of_a_licence_it_never_admitted(world: World) -> None:
    """A forged id, an id issued on another server, an id issued to another licence: each is
    ended at once, takes no place and does not come back with the next report."""
    anna, bob = world.sign_up("anna@example.org"), world.sign_up("bob@example.org")
    fleet(world, ["server-1", "server-2"])
    annas = world.node_access.log_in("server-1", "anna@example.org", anna.code, "udp")
    bobs = world.node_access.log_in("server-1", "bob@example.org", bob.code, "udp")
    assert annas.session_id and bobs.session_id
    lies = {"f" * 56: anna.licence.id, annas.session_id: anna.licence.id, bobs.session_id: anna.licence.id}
    for _ in range(2):
        assert sorted(world.node_access.settle("server-2", lies, {})) == sorted(lies)
    assert held(world, ["server-2"]) == [], "nothing is held on server-2"
    for email, code, admitted in (
        ("anna@example.org", anna.code, annas),
        ("bob@example.org", bob.code, bobs),
    ):
        assert [(s.server_id, s.id) for s in world.devices.list(email, code, None).sessions] == [
            ("server-1", admitted.session_id)
        ], "each licence's devices are only those it was admitted to"


def test_a_forged_id_counts_toward_nobodys_limit(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    servers = [f"server-{n}" for n in range(MAX_SESSIONS + 1)]
    fleet(world, servers)
    liar = servers[-1]
    forged = {f"{n:056x}": anna.licence.id for n in range(3)}
    assert sorted(world.node_access.settle(liar, forged)) == sorted(forged)
    for server in servers[:MAX_SESSIONS]:
        admitted = world.node_access.log_in(server, "anna@example.org", anna.code)
        assert admitted.refused is None, "the liar's report took none of anna's ten places"
    assert world.devices.list("anna@example.org", anna.code, None).servers_in_use == MAX_SESSIONS


def test_a_session_the_hub_issued_there_is_restored_when_the_hub_lost_its_row(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    fleet(world, ["server-1"])
    admitted = world.node_access.log_in("server-1", "anna@example.org", anna.code, "tcp")
    assert admitted.session_id
    world.store.sessions.release("server-1", [admitted.session_id])  # as a restored backup would
    assert world.node_access.settle("server-1", {admitted.session_id: anna.licence.id}, {}) == []
    [restored] = held(world, ["server-1"])
    assert (restored.id, restored.licence_id, restored.confirmed) == (
        admitted.session_id,
        anna.licence.id,
        True,
    )


def test_a_restored_session_takes_a_place_only_if_the_licence_has_one(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    servers = [f"server-{n}" for n in range(MAX_SESSIONS + 1)]
    fleet(world, servers)
    lost = world.node_access.log_in(servers[-1], "anna@example.org", anna.code)
    assert lost.session_id
    world.store.sessions.release(servers[-1], [lost.session_id])
    for server in servers[:MAX_SESSIONS]:
        assert world.node_access.log_in(server, "anna@example.org", anna.code).session_id
    assert world.node_access.settle(servers[-1], {lost.session_id: anna.licence.id}) == [lost.session_id]
    assert held(world, [servers[-1]]) == []


def test_a_disconnected_session_the_server_keeps_reporting_never_comes_back(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    fleet(world, ["server-1"])
    admitted = world.node_access.log_in("server-1", "anna@example.org", anna.code, "udp")
    assert admitted.session_id and world.node_access.established("server-1", admitted.session_id)
    world.devices.disconnect("anna@example.org", anna.code, None, admitted.session_id)
    report = {admitted.session_id: anna.licence.id}
    for wait in (0, 10, 60):  # the last after a silence the hub takes for an outage
        world.clock.advance(seconds=wait)
        beat(world, "server-1")
        assert world.node_access.settle("server-1", report) == [admitted.session_id]
        assert world.devices.list("anna@example.org", anna.code, None).sessions == []
    assert world.node_access.settle("server-1", {}) == []
    assert held(world, ["server-1"]) == [], "once the server has cut it, nothing of it is kept"


def test_a_wireguard_peer_counts_only_where_its_licence_has_a_tunnel_address(world: World) -> None:
    anna, bob = world.sign_up("anna@example.org"), world.sign_up("bob@example.org")
    fleet(world, ["server-1"], wireguard=True)
    world.archives.open(anna.archive_token, ip=None)  # anna's address on server-1
    fleet(world, ["server-2"], wireguard=True)  # added after: anna has no address there
    wireguard = {"a" * 24: "wireguard", "b" * 24: "wireguard"}
    peers = {"a" * 24: anna.licence.id, "b" * 24: bob.licence.id}
    assert world.node_access.settle("server-1", peers, wireguard) == ["b" * 24], "bob has no address"
    assert world.node_access.settle("server-2", {"c" * 24: anna.licence.id}, {"c" * 24: "wireguard"}) == [
        "c" * 24
    ], "nor has anna on a server she has no address on"
    [counted] = world.devices.list("anna@example.org", anna.code, None).sessions
    assert (counted.server_id, counted.id, counted.protocol) == ("server-1", "a" * 24, "wireguard")


@given(networks(4))
def test_an_ipv4_exit_network_is_a_slash_24_at_the_widest(network: ipaddress.IPv4Network) -> None:
    assert_widest(network, WIDEST_EXIT_PREFIX[4])


@given(networks(6))
def test_an_ipv6_exit_network_is_a_slash_48_at_the_widest(network: ipaddress.IPv6Network) -> None:
    assert_widest(network, WIDEST_EXIT_PREFIX[6])


def assert_widest(network: ipaddress.IPv4Network | ipaddress.IPv6Network, widest: int) -> None:
    if network.prefixlen >= widest:
        [kept] = exit_addresses([str(network)])
        assert ipaddress.ip_network(kept) == network
        return
    with pytest.raises(InvalidField) as refused:
        exit_addresses([str(network)])
    assert (refused.value.field, refused.value.kind) == ("exit_addresses", "network_too_wide")


def test_a_heartbeat_claiming_the_whole_internet_is_refused() -> None:
    with pytest.raises(InvalidField) as refused:
        Heartbeat(5.0, 1.0, 0, True, ("0.0.0.0/0", "::/0"))
    assert (refused.value.field, refused.value.kind) == ("exit_addresses", "network_too_wide")
    assert exit_addresses(["198.51.100.7", "198.51.100.0/24", "2001:db8:7::/48"]) == (
        "198.51.100.7",
        "198.51.100.0/24",
        "2001:db8:7::/48",
    )


@store_property
@given(st.sampled_from(["0.0.0.0/0", "10.0.0.0/8", "2001:db8::/32", "::/0"]))
def test_an_operators_wide_network_stored_before_the_limit_protects_nobody(backend: str, wide: str) -> None:
    """Kept from before the hub refused them, it is passed over: the server's beats still count,
    and the hub goes by where they come from."""
    with open_world(backend) as world:
        world.add_server("nl-amsterdam", "node-secret")
        world.store.fleet.configure_exit_addresses("nl-amsterdam", (wide,))
        world.fleet.heartbeat(
            world.server("node-secret"), Heartbeat(5.0, 10.0, 0, True), source="203.0.113.5"
        )
        server = world.store.fleet.find_server("nl-amsterdam")
        assert server is not None and server.exit_addresses == ("203.0.113.5",)
        index = ExitIndex.of(view_fleet(world.store.fleet.list_servers(), world.clock.now()))
        assert index.server_of("198.51.100.9") is None and index.server_of("2001:db8::9") is None
        assert index.server_of("203.0.113.5") == server


def test_the_widest_exit_networks_are_a_small_ipv4_range_and_an_ipv6_site() -> None:
    assert WIDEST_EXIT_PREFIX == {4: 24, 6: 48}


def test_a_session_established_after_its_place_lapsed_takes_one_only_if_one_is_free(world: World) -> None:
    """A login holds its place for UNCONFIRMED_FOR; confirmed later, it is not counted at once, and
    the server's next report gives it a place only when the licence has one: never an eleventh."""
    anna = world.sign_up("anna@example.org")
    servers = [f"server-{n}" for n in range(MAX_SESSIONS + 1)]
    fleet(world, servers)
    late = world.node_access.log_in(servers[-1], "anna@example.org", anna.code, "udp")
    assert late.session_id
    world.clock.advance(seconds=UNCONFIRMED_FOR.total_seconds() + 1)
    for server in servers[:MAX_SESSIONS]:
        admitted = world.node_access.log_in(server, "anna@example.org", anna.code, "udp")
        assert admitted.session_id
        assert world.node_access.established(server, admitted.session_id)
    beat(world, *servers)
    assert not world.node_access.established(servers[-1], late.session_id), "its place was taken"
    assert world.node_access.settle(servers[-1], {late.session_id: anna.licence.id}) == [late.session_id]
    counting = [s for s in held(world, servers) if counts(s, world.clock.now())]
    assert len(counting) == MAX_SESSIONS


def test_a_session_established_late_is_counted_when_a_place_is_free(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    fleet(world, ["server-1"])
    late = world.node_access.log_in("server-1", "anna@example.org", anna.code, "udp")
    assert late.session_id
    world.clock.advance(seconds=UNCONFIRMED_FOR.total_seconds() + 1)
    beat(world, "server-1")
    assert not world.node_access.established("server-1", late.session_id)
    assert world.node_access.settle("server-1", {late.session_id: anna.licence.id}) == []
    assert [(s.id, s.confirmed) for s in held(world, ["server-1"])] == [(late.session_id, True)]
