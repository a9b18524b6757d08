"""Each server's exit address, learnt from where its heartbeats come from unless its operator (or
the server itself) says otherwise; and "am I protected?" from that address."""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from vpnsite.connection_check import ExitIndex
from vpnsite.errors import InvalidField
from vpnsite.fleet import (
    NOT_LEARNED,
    WIDEST_EXIT_PREFIX,
    Heartbeat,
    Location,
    VpnServer,
    exit_addresses,
    exits_in_use,
    learned_exit,
    unvouched_exit,
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
        refused = None if reported is None else unvouched_exit(kept, exit_addresses(reported))
        for source in (first, then):
            world.clock.advance(seconds=10)
            beat = Heartbeat(5.0, 10.0, 0, True, None if reported is None else tuple(reported))
            if refused is not None:
                before = world.store.fleet.find_server("nl-amsterdam")
                with pytest.raises(InvalidField) as told:
                    world.fleet.heartbeat(world.server("node-secret"), beat, source=source)
                assert (told.value.kind, told.value.details) == ("exit_not_public", {"network": refused})
                assert world.store.fleet.find_server("nl-amsterdam") == before, "nothing recorded"
                continue
            world.fleet.heartbeat(world.server("node-secret"), beat, source=source)
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
        world.fleet.heartbeat(world.server("node-secret"), Heartbeat(5.0, 10.0, 0, True), source=source)
        server = world.store.fleet.find_server("nl-amsterdam")
        assert server is not None and server.exit_addresses == exits, source
    world.store.fleet.configure_exit_addresses("nl-amsterdam", ("198.51.100.7",))
    world.fleet.heartbeat(
        world.server("node-secret"), Heartbeat(5.0, 10.0, 0, True, ("192.0.2.1",)), source="203.0.113.5"
    )
    server = world.store.fleet.find_server("nl-amsterdam")
    assert server is not None and server.exit_addresses == ("198.51.100.7",), "the operator's come first"


# A network a server might claim as its exit inside each of the reserved ones: any subnet of it
# as wide as an exit may be, or narrower.
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _inside(reserved: Network) -> st.SearchStrategy[str]:
    widest = max(reserved.prefixlen, WIDEST_EXIT_PREFIX[reserved.version])
    return st.integers(widest, reserved.max_prefixlen).flatmap(
        lambda prefix: st.integers(0, 2 ** (prefix - reserved.prefixlen) - 1).map(
            lambda n: str(_nth_subnet(reserved, prefix, n))
        )
    )


def _nth_subnet(reserved: Network, prefix: int, n: int) -> Network:
    start = int(reserved.network_address) + n * 2 ** (reserved.max_prefixlen - prefix)
    return ipaddress.ip_network((start, prefix))


reserved_claims = st.sampled_from(NOT_LEARNED).flatmap(_inside)


def plain(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """An IPv4 address seen through IPv6 as the IPv4 one it is."""
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return mapped or address


public_addresses = addresses.filter(lambda address: not not_learned(plain(address))).map(str)


@given(reserved_claims)
def test_a_server_may_not_claim_a_reserved_network_as_its_exit_unless_its_operator_gave_it(
    claim: str,
) -> None:
    """Loopback, private, CGNAT, link-local, benchmarking, multicast, unspecified and reserved
    networks: no visitor comes from them over the internet, so a server's own word is not
    enough; the operator's is."""
    kept = exit_addresses([claim])
    assert unvouched_exit((), kept) == kept[0]
    assert unvouched_exit(("198.51.100.7",), kept) == kept[0], (
        "another exit of the operator's vouches nothing"
    )
    network = ipaddress.ip_network(kept[0])
    enclosing = network.supernet(new_prefix=min(network.prefixlen, WIDEST_EXIT_PREFIX[network.version]))
    assert unvouched_exit((kept[0],), kept) is None, "the operator's own, reported back"
    assert unvouched_exit((str(enclosing),), kept) is None, "within the operator's"
    if network.version == 4:
        mapped = exit_addresses([f"::ffff:{network.network_address}/{network.prefixlen + 96}"])
        assert unvouched_exit((), mapped) == mapped[0], "an IPv4 network written as IPv6 is the same"


@given(st.lists(public_addresses, min_size=1, max_size=4), address_lists)
def test_public_exits_are_believed_as_before(reported: list[str], configured: list[str]) -> None:
    assert unvouched_exit(exit_addresses(configured), exit_addresses(reported)) is None


@pytest.mark.parametrize(
    "claim",
    [
        "127.0.0.0/24",
        "127.0.0.1",
        "10.1.2.0/24",
        "172.16.5.5",
        "192.168.1.0/24",
        "100.64.0.0/24",
        "169.254.1.0/24",
        "198.18.0.0/24",
        "224.0.0.0/24",
        "240.0.0.0/24",
        "255.255.255.255",
        "0.0.0.0/24",
        "::",
        "::1",
        "fd00::/64",
        "fe80::/64",
        "fec0::/48",
        "ff02::1",
        "::ffff:127.0.0.1",
    ],
)
def test_each_reserved_range_is_refused_when_a_server_reports_it(world: World, claim: str) -> None:
    world.add_server("nl-amsterdam", "node-secret")
    before = world.store.fleet.find_server("nl-amsterdam")
    world.clock.advance(seconds=10)
    with pytest.raises(InvalidField) as told:
        world.fleet.heartbeat(
            world.server("node-secret"), Heartbeat(5.0, 10.0, 0, True, ("198.51.100.7", claim)), "203.0.113.5"
        )
    assert told.value.details == {"network": exit_addresses([claim])[0]}
    assert world.store.fleet.find_server("nl-amsterdam") == before, "nothing recorded"
    world.store.fleet.configure_exit_addresses("nl-amsterdam", exit_addresses([claim]))
    world.fleet.heartbeat(world.server("node-secret"), Heartbeat(5.0, 10.0, 0, True, (claim,)), "203.0.113.5")
    server = world.store.fleet.find_server("nl-amsterdam")
    assert server is not None and server.exit_addresses == exit_addresses([claim]), "the operator may set it"
