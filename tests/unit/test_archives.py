"""The personal archive's link: signed, bound to one licence, good for a week, stored nowhere."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from ipaddress import ip_address

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from vpnsite.archives import LINK_LIFETIME, ArchiveLinks
from vpnsite.errors import LicenceNotFound, RateLimited
from vpnsite.keyed_hashes import Keyring
from vpnsite.privacy import erase_address
from vpnsite.tunnel_addresses import NETWORK, SERVER_ADDRESS

links = ArchiveLinks(Keyring.from_master(b"k" * 32))
licence_ids = st.binary(min_size=16, max_size=16).map(bytes.hex)
moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC))


@given(licence_ids, moments, st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=30)))
def test_a_link_opens_its_licence_for_exactly_a_week(
    licence_id: str, minted: datetime, age: timedelta
) -> None:
    token = links.mint(licence_id, minted)
    assert token.isascii() and token.replace("-", "").replace("_", "").isalnum()
    expires = minted.replace(microsecond=0) + LINK_LIFETIME
    expected = licence_id if minted + age < expires else None
    assert links.read(token, minted + age) == expected


@given(licence_ids, moments, st.data())
def test_any_change_to_a_link_closes_it(licence_id: str, minted: datetime, data: st.DataObject) -> None:
    token = links.mint(licence_id, minted)
    position = data.draw(st.integers(min_value=0, max_value=len(token) - 2))
    replacement = data.draw(st.sampled_from("AQgw-_09az").filter(lambda c: c != token[position]))
    tampered = token[:position] + replacement + token[position + 1 :]
    assert links.read(tampered, minted) is None


@given(st.text(max_size=80), moments)
def test_made_up_links_open_nothing(token: str, now: datetime) -> None:
    assert links.read(token, now) is None


@given(licence_ids, moments)
def test_a_link_is_bound_to_the_server_key(licence_id: str, minted: datetime) -> None:
    assert (
        ArchiveLinks(Keyring.from_master(b"other key, 32 bytes long ......")).read(
            links.mint(licence_id, minted), minted
        )
        is None
    )


def sign_up(world: World, email: str) -> str:
    return world.signups.create_user(world.signups.submit_email(email, None, None), None).archive_token


def test_the_sign_up_link_lasts_a_week_and_a_check_gives_a_fresh_one(world: World) -> None:
    activation = world.signups.create_user(world.signups.submit_email("a@example.org", None, None), None)
    world.clock.advance(days=7)
    with pytest.raises(LicenceNotFound):
        world.archives.open(activation.archive_token, ip="192.0.2.1")
    fresh = world.checks.check("a@example.org", activation.code, ip=None).archive_token
    assert fresh is not None
    assert world.archives.open(fresh, ip="192.0.2.1").licence == activation.licence


def test_a_link_dies_with_its_licence_and_with_its_erasure(world: World) -> None:
    activation = world.signups.create_user(world.signups.submit_email("b@example.org", None, None), None)
    world.clock.advance(days=89)
    token = world.checks.check("b@example.org", activation.code, ip=None).archive_token
    assert token is not None
    world.clock.advance(days=1)
    with pytest.raises(LicenceNotFound):
        world.archives.open(token, ip=None)
    erased = sign_up(world, "c@example.org")
    world.archives.open(erased, ip=None)
    erase_address(
        world.store.privacy, world.keys, world.journal_keys.current(), "C@example.org", world.clock.now()
    )
    with pytest.raises(LicenceNotFound):
        world.archives.open(erased, ip=None)


def test_downloads_are_rate_limited_per_client(world: World) -> None:
    token = sign_up(world, "d@example.org")
    for _ in range(20):
        world.archives.open(token, ip="192.0.2.9")
    with pytest.raises(RateLimited):
        world.archives.open(token, ip="192.0.2.9")
    world.archives.open(token, ip="192.0.2.10")


def test_an_archive_holds_the_fleet_and_a_lasting_tunnel_address_on_each_wireguard_server(
    world: World,
) -> None:
    anna = world.sign_up("anna@example.org")
    bob = world.sign_up("bob@example.org")
    world.add_server("nl-amsterdam", "ams-secret", wireguard=True)
    world.add_server("lv-riga", "riga-secret")
    archive = world.archives.open(anna.archive_token, ip=None)
    assert archive.licence == anna.licence
    assert [server.location.id for server in archive.servers] == ["nl-amsterdam", "lv-riga"]
    assert archive.tunnel_addresses == {"nl-amsterdam": "10.66.0.2"}
    assert world.archives.open(bob.archive_token, ip=None).tunnel_addresses == {"nl-amsterdam": "10.66.0.3"}
    world.store.fleet.set_wireguard("lv-riga", 51820, "cmlnYSBrZXk=")
    assert world.archives.open(anna.archive_token, ip=None).tunnel_addresses == {
        "nl-amsterdam": "10.66.0.2",
        "lv-riga": "10.66.0.2",
    }, "the same address on every download"


@store_property
@given(st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=10))
def test_tunnel_addresses_are_one_per_licence_and_server_whatever_the_order_of_downloads(
    backend: str, downloads: list[int]
) -> None:
    with open_world(backend) as world:
        world.add_server("nl-amsterdam", "ams-secret", wireguard=True)
        tokens = [sign_up(world, f"user{n}@example.org") for n in range(4)]
        given_out: dict[int, str] = {}
        for n in downloads:
            address = world.archives.open(tokens[n], ip=None).tunnel_addresses["nl-amsterdam"]
            assert given_out.setdefault(n, address) == address
        assert len(set(given_out.values())) == len(given_out)
        assert SERVER_ADDRESS not in given_out.values()
        assert all(ip_address(address) in NETWORK for address in given_out.values())
