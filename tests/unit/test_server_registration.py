"""Putting a VPN server into service: recorded with its ports, exit addresses, token and (where it
offers WireGuard) its WireGuard key, then its certificate; a name already taken changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world
from tests.unit.fakes import IssuedCredentials
from vpnsite.errors import InvalidField
from vpnsite.fleet import Location
from vpnsite.server_registration import NewServer, ServerRegistration

AMSTERDAM = Location("nl-amsterdam", "Netherlands", "nl", "Amsterdam")
ports = st.one_of(st.just(0), st.integers(min_value=1, max_value=65535))


def registration(world: World, credentials: IssuedCredentials) -> ServerRegistration:
    return ServerRegistration(
        world.store.fleet, credentials, world.keys, world.random, world.store.unit_of_work
    )


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
@given(
    udp=ports,
    tcp=ports,
    wg=ports,
    exits=st.lists(st.sampled_from(["198.51.100.7", "2001:db8::/48"]), max_size=4),
)
@settings(max_examples=30, deadline=None)
def test_a_registered_server_is_in_service_with_its_token(
    backend: str, udp: int, tcp: int, wg: int, exits: list[str]
) -> None:
    credentials = IssuedCredentials()
    with open_world(backend) as world:
        token = registration(world, credentials).register(
            NewServer(AMSTERDAM, "vpn.example.org", udp, tcp, wg, exits)
        )
        assert token is not None
        server = world.store.fleet.find_server("nl-amsterdam")
        assert server is not None and server.location == AMSTERDAM and server.host == "vpn.example.org"
        assert (server.udp_port, server.tcp_port) == (udp or None, tcp or None)
        assert server.configured_exit_addresses == tuple(dict.fromkeys(exits))
        assert (server.wg_port, server.wg_public_key) == (
            (wg, credentials.wireguard["nl-amsterdam"]) if wg else (None, None)
        )
        assert credentials.certificates == ["nl-amsterdam"]
        assert world.server(token) == "nl-amsterdam", "the token is the server's"


def test_a_name_taken_changes_nothing_and_issues_nothing(world: World) -> None:
    credentials = IssuedCredentials()
    first = registration(world, credentials).register(NewServer(AMSTERDAM, "a.example.org", 1194, 443, 51820))
    before = world.store.fleet.find_server("nl-amsterdam")
    again = registration(world, credentials).register(NewServer(AMSTERDAM, "b.example.org", 1195, 0, 51821))
    assert first is not None and again is None
    assert world.store.fleet.find_server("nl-amsterdam") == before
    assert world.server(first) == "nl-amsterdam", "the first token still works"
    assert credentials.certificates == ["nl-amsterdam"] and len(credentials.wireguard) == 1


@pytest.mark.parametrize(
    ("exits", "kind"),
    [
        (["0.0.0.0/0"], "network_too_wide"),
        (["nonsense"], "not_an_address"),
        ([f"198.51.100.{n}" for n in range(17)], "too_many"),
    ],
)
def test_an_exit_address_the_hub_refuses_stops_the_registration_first(exits: list[str], kind: str) -> None:
    with pytest.raises(InvalidField) as refused:
        NewServer(AMSTERDAM, "vpn.example.org", 1194, 443, 0, exits)
    assert refused.value.kind == kind
