"""Am I protected? A visitor's address against the exit addresses of the online servers."""

from __future__ import annotations

import contextlib
import ipaddress
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vpnsite.connection_check import ExitIndex
from vpnsite.errors import InvalidField
from vpnsite.fleet import MAX_EXIT_ADDRESSES, Location, VpnServer, exit_addresses, view_fleet

NOW = datetime(2026, 7, 1, tzinfo=UTC)


def server(server_id: str, exits: tuple[str, ...], heard: timedelta = timedelta(seconds=5)) -> VpnServer:
    location = Location(server_id, server_id.title(), "nl", "Amsterdam")
    return VpnServer(location, last_seen=NOW - heard, service_up=True, exit_addresses=exits)


def test_a_visitor_from_an_online_servers_exit_is_protected_by_that_server() -> None:
    amsterdam = server("amsterdam", ("198.51.100.7", "2001:db8:7::/64"))
    riga = server("riga", ("203.0.113.9",), heard=timedelta(minutes=5))  # offline
    index = ExitIndex.of(view_fleet([amsterdam, riga], NOW))
    assert index.server_of("198.51.100.7") == amsterdam
    assert index.server_of("2001:db8:7::42") == amsterdam, "a network covers every address in it"
    assert index.server_of("::ffff:198.51.100.7") == amsterdam, "an IPv4 address seen through IPv6"
    assert index.server_of("203.0.113.9") is None, "an offline server protects nobody"
    for stranger in ("198.51.100.8", "2001:db8:8::1", "", None, "not an address"):
        assert index.server_of(stranger) is None


def test_exit_addresses_are_kept_canonical_and_checked() -> None:
    assert exit_addresses([" 198.51.100.7 ", "2001:DB8::1", "2001:db8:7::1/64", "198.51.100.7/32"]) == (
        "198.51.100.7",
        "2001:db8::1",
        "2001:db8:7::/64",
    )
    for wrong in (["vpn.example.org"], ["198.51.100.300"], ["198.51.100.1"] * 2 + ["x"]):
        with pytest.raises(InvalidField):
            exit_addresses(wrong)
    with pytest.raises(InvalidField):
        exit_addresses([f"198.51.100.{n}" for n in range(MAX_EXIT_ADDRESSES + 1)])


# Exit addresses from a few small networks, so that fleets share and overlap them.
EXITS = st.one_of(
    st.builds(lambda n: f"198.51.100.{n}", st.integers(0, 15)),
    st.builds(lambda n, bits: f"198.51.100.{n}/{bits}", st.integers(0, 15), st.integers(28, 31)),
    st.builds(lambda n: f"2001:db8::{n:x}", st.integers(0, 15)),
    st.builds(lambda n: f"2001:db8:{n:x}::/64", st.integers(0, 3)),
)
VISITORS = st.one_of(
    st.builds(lambda n: f"198.51.100.{n}", st.integers(0, 20)),
    st.builds(lambda n: f"::ffff:198.51.100.{n}", st.integers(0, 20)),
    st.builds(lambda n: f"2001:db8::{n:x}", st.integers(0, 20)),
    st.builds(lambda n, m: f"2001:db8:{n:x}::{m:x}", st.integers(0, 4), st.integers(0, 3)),
    st.sampled_from(["", "not an address", "10.0.0.1"]),
)


@given(
    fleet=st.lists(st.tuples(st.lists(EXITS, max_size=3, unique=True), st.booleans()), max_size=8),
    visitor=VISITORS,
)
def test_the_index_answers_as_a_look_through_every_exit_in_order_would(
    fleet: list[tuple[list[str], bool]], visitor: str
) -> None:
    """Single addresses are found by value, wider networks looked through: the answer is still the
    first online server, in the fleet's order, whose exit networks hold the visitor's address."""
    servers = [
        server(f"s{n}", exit_addresses(exits), timedelta(seconds=5 if online else 600))
        for n, (exits, online) in enumerate(fleet)
    ]
    views = view_fleet(servers, NOW)
    address: ipaddress.IPv4Address | ipaddress.IPv6Address | None = None
    with contextlib.suppress(ValueError):
        address = ipaddress.ip_address(visitor)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    expected = next(
        (
            view.server
            for view in views
            if view.online
            for exit in view.server.exit_addresses
            if address is not None
            and address.version == ipaddress.ip_network(exit).version
            and address in ipaddress.ip_network(exit)
        ),
        None,
    )
    assert ExitIndex.of(views).server_of(visitor) == expected
