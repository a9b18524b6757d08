"""Which profiles a server offers, and on which port: what a profile's link, its QR code and its
download all go by."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vpnsite.fleet import Location, VpnServer
from vpnsite.protocols import OPENVPN_PROTOCOLS, WIREGUARD, offering, profile_kinds, protocol_port

ports = st.one_of(st.none(), st.just(0), st.integers(min_value=1, max_value=65535))
servers = st.builds(
    VpnServer,
    location=st.sampled_from(["nl-amsterdam", "lv-riga", "pl-warsaw"]).map(
        lambda name: Location(name, name, name[:2], name[3:])
    ),
    host=st.sampled_from([None, "", "vpn.example.org"]),
    udp_port=ports,
    tcp_port=ports,
    wg_port=ports,
    wg_public_key=st.sampled_from([None, "c2VydmVyIGtleQ=="]),
)
kinds = st.sampled_from([*OPENVPN_PROTOCOLS, WIREGUARD, "ipsec"])


@given(servers, kinds)
def test_a_profile_is_offered_on_the_port_the_server_takes_its_protocol_on(
    server: VpnServer, kind: str
) -> None:
    port = protocol_port(server, kind)
    expected = {"udp": server.udp_port, "tcp": server.tcp_port, WIREGUARD: server.wg_port}.get(kind)
    assert port == expected
    if kind in profile_kinds(server):
        assert server.host and port, "a profile names an address and a port"
    if kind in OPENVPN_PROTOCOLS:
        assert (kind in profile_kinds(server)) == bool(server.host and port)


@given(st.lists(servers, max_size=4), st.sampled_from(["nl-amsterdam", "lv-riga", "ro-bucharest"]), kinds)
def test_a_profile_is_offered_by_the_first_server_of_its_name_if_that_one_offers_it(
    listed: list[VpnServer], server_id: str, kind: str
) -> None:
    found = offering(listed, server_id, kind)
    first = next((server for server in listed if server.location.id == server_id), None)
    assert found == (first if first is not None and kind in profile_kinds(first) else None)
