"""Am I protected? A visitor's address against the exit addresses of the online servers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

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
