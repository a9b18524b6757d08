"""Each server's exit address, learnt from where its heartbeats come from unless its operator (or
the server itself) says otherwise; and "am I protected?" from that address."""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from vpnsite.connection_check import ExitIndex
from vpnsite.fleet import (
    NOT_LEARNED,
    Heartbeat,
    Location,
    VpnServer,
    exit_addresses,
    exits_in_use,
    learned_exit,
    view_fleet,
)

NOW = datetime(2026, 7, 1, tzinfo=UTC)
addresses = st.ip_addresses()
address_lists = st.lists(addresses.map(str), max_size=4)
# What a request's client address may be: an address, an IPv4 one seen through IPv6, nothing, or
# something else entirely (a Unix socket's peer, say).
sources = st.one_of(
    st.none(),
    addresses.map(str),
    st.ip_addresses(v=4).map(lambda address: f"::ffff:{address}"),
    st.sampled_from(["", "unix", "localhost", "fe80::1%eth0", " 203.0.113.5 "]),
)


def not_learned(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return any(address.version == network.version and address in network for network in NOT_LEARNED)


def test_the_source_of_a_heartbeat_is_its_exit_address_when_visitors_could_come_from_it() -> None:
    assert learned_exit("203.0.113.5") == ("203.0.113.5",)
    assert learned_exit("2001:DB8:0::5") == ("2001:db8::5",)
    assert learned_exit("::ffff:198.51.100.7") == ("198.51.100.7",), "an IPv4 address seen through IPv6"
    for nowhere in (None, "", "unix", "198.51.100.300", "2001:db8::/64"):
        assert learned_exit(nowhere) == (), nowhere
    # A proxy the hub does not trust: every visitor comes from its address too.
    for proxy in ("127.0.0.1", "::1", "::ffff:127.0.0.1", "10.0.0.2", "172.17.0.1", "192.168.1.1"):
        assert learned_exit(proxy) == (), proxy
    for local in ("100.64.0.1", "169.254.1.1", "fe80::1", "fe80::1%eth0", "fd00::1", "0.0.0.0", "::"):
        assert learned_exit(local) == (), local


@given(addresses)
def test_a_learnt_exit_address_is_the_source_written_canonically_and_protects_visitors_from_it(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> None:
    source = str(address)
    learned = learned_exit(source)
    shown = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    plain = shown or address
    assert learned == (() if not_learned(plain) else (str(plain),))
    assert exit_addresses(learned) == learned, "kept as the hub keeps exit addresses"
    if isinstance(address, ipaddress.IPv4Address):
        assert learned_exit(f"::ffff:{address}") == learned, "the same server, however it reaches the hub"
    location = Location("nl-1", "Netherlands", "nl", "Amsterdam")
    server = VpnServer(location, NOW, service_up=True, exit_addresses=learned)
    index = ExitIndex.of(view_fleet([server], NOW))
    assert index.server_of(source) == (server if learned else None), "a visitor from there is protected"


@given(address_lists, st.none() | address_lists, sources)
def test_the_operators_exit_addresses_come_first_then_the_servers_then_where_the_beat_comes_from(
    configured: list[str], reported: list[str] | None, source: str | None
) -> None:
    configured_kept = exit_addresses(configured)
    chosen = exits_in_use(configured_kept, reported, source)
    assert exit_addresses(chosen) == chosen, "valid and canonical, whichever was chosen"
    if configured:
        assert chosen == configured_kept, "the operator's, whatever the server says or where it is"
    elif reported:
        assert chosen == exit_addresses(reported), "the server's own, wherever it calls from"
    else:
        assert chosen == learned_exit(source)
        assert len(chosen) <= 1


@store_property
@given(address_lists, st.none() | address_lists, sources, sources)
def test_a_heartbeat_leaves_the_server_with_the_exit_addresses_of_the_rule_on_every_store(
    backend: str, configured: list[str], reported: list[str] | None, first: str | None, then: str | None
) -> None:
    with open_world(backend) as world:
        world.add_server("nl-amsterdam", "node-secret")
        kept = exit_addresses(configured)
        world.store.fleet.configure_exit_addresses("nl-amsterdam", kept)
        for source in (first, then):
            world.clock.advance(seconds=10)
            beat = Heartbeat(5.0, 10.0, 0, True, None if reported is None else tuple(reported))
            assert world.fleet.heartbeat("node-secret", beat, source=source) == "nl-amsterdam"
            server = world.store.fleet.find_server("nl-amsterdam")
            assert server is not None and server.configured_exit_addresses == kept
            assert server.exit_addresses == exits_in_use(kept, reported, source), (
                "nothing is kept from the beat before: a server whose address changes is followed"
            )
            index = ExitIndex.of(view_fleet(world.store.fleet.list_servers(), world.clock.now()))
            if not kept and not reported and learned_exit(source):
                # Visitors come from the address itself, as the socket gives it (no padding).
                assert index.server_of(source.strip()) == server  # type: ignore[union-attr]


def test_a_server_silent_about_its_exit_is_followed_from_address_to_address(world: World) -> None:
    world.add_server("nl-amsterdam", "node-secret")
    for source, exits in (
        ("203.0.113.5", ("203.0.113.5",)),
        ("::ffff:203.0.113.6", ("203.0.113.6",)),
        ("2001:db8::5", ("2001:db8::5",)),
        ("127.0.0.1", ()),
    ):
        world.clock.advance(seconds=10)
        world.fleet.heartbeat("node-secret", Heartbeat(5.0, 10.0, 0, True), source=source)
        server = world.store.fleet.find_server("nl-amsterdam")
        assert server is not None and server.exit_addresses == exits, source
    world.store.fleet.configure_exit_addresses("nl-amsterdam", ("198.51.100.7",))
    world.fleet.heartbeat("node-secret", Heartbeat(5.0, 10.0, 0, True, ("192.0.2.1",)), source="203.0.113.5")
    server = world.store.fleet.find_server("nl-amsterdam")
    assert server is not None and server.exit_addresses == ("198.51.100.7",), "the operator's come first"
