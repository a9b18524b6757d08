"""Erasure by the licence e-mail's link, and the one erasure both doors run: the link names its
licence alone, any change to it fails, a key rotation leaves links in flight working; reading the
link changes nothing; erasing by it is `vpnsite privacy erase` (the store, the outbox's copies, the
journal), after which the link leads nowhere."""

from __future__ import annotations

from datetime import UTC, datetime

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from vpnsite.erasure_journal import ErasureRecord, JournalKey
from vpnsite.erasures import (
    ErasureLinks,
    Erasures,
    JournalNotWritten,
    LinkLeadsNowhere,
    erasure_document,
)
from vpnsite.errors import InvalidField, LicenceNotFound
from vpnsite.key_ring import KeyRing
from vpnsite.keyed_hashes import Keyring
from vpnsite.privacy import erase_address, export_address, held_document

links = ErasureLinks(Keyring.from_master(b"k" * 32))
licence_ids = st.binary(min_size=16, max_size=16).map(bytes.hex)
ROTATED = datetime(2026, 1, 1, tzinfo=UTC)
BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


@given(licence_ids)
def test_a_link_names_its_licence_and_no_other(licence_id: str) -> None:
    token = links.mint(licence_id)
    assert len(token) == 43 and all(char in BASE64URL for char in token)
    assert links.read(token) == licence_id
    assert links.mint(licence_id) == token, "the same licence, the same link: nothing random to store"


@given(licence_ids, licence_ids)
def test_two_licences_never_share_a_link(a: str, b: str) -> None:
    if a != b:
        assert links.mint(a) != links.mint(b)
        assert links.read(links.mint(a)) != b


@given(licence_ids, st.data())
def test_any_change_to_a_link_fails(licence_id: str, data: st.DataObject) -> None:
    token = links.mint(licence_id)
    # Every character counts, the last one's padding bits too (one spelling of the bytes only).
    position = data.draw(st.integers(min_value=0, max_value=len(token) - 1))
    replacement = data.draw(st.sampled_from(BASE64URL).filter(lambda char: char != token[position]))
    assert links.read(token[:position] + replacement + token[position + 1 :]) is None
    assert links.read(token[:position] + token[position + 1 :]) is None
    assert links.read(token + data.draw(st.sampled_from(BASE64URL))) is None


@given(st.text(max_size=80))
def test_made_up_links_name_nothing(token: str) -> None:
    assert links.read(token) is None


@given(licence_ids)
def test_a_link_is_bound_to_the_services_key_and_its_purpose(licence_id: str) -> None:
    other = ErasureLinks(Keyring.from_master(b"other key, 32 bytes long ......"))
    assert other.read(links.mint(licence_id)) is None
    # Not the archive link's key either: one signature is never read as another.
    ring = Keyring.from_master(b"k" * 32).current
    assert ring.erasure_links not in (ring.archive_links, ring.signup, ring.mail)


@given(licence_ids, st.integers(min_value=1, max_value=4))
def test_a_link_in_flight_survives_key_rotations_until_its_key_is_retired(
    licence_id: str, rotations: int
) -> None:
    ring = KeyRing()
    holder = [ring]
    keys = Keyring(lambda: holder[0].keys(b"o" * 32))
    sent = ErasureLinks(keys).mint(licence_id)
    for n in range(rotations):
        holder[0] = holder[0].rotate(bytes([n + 1]) * 32, ROTATED)
        assert ErasureLinks(keys).read(sent) == licence_id
    fresh = ErasureLinks(keys).mint(licence_id)
    assert fresh != sent and ErasureLinks(keys).read(fresh) == licence_id
    holder[0] = holder[0].retire(1)
    assert ErasureLinks(keys).read(sent) is None
    assert ErasureLinks(keys).read(fresh) == licence_id


def link_of(world: World, email: str) -> tuple[str, str]:
    """A licence for ``email`` and its erasure link; the licence's code."""
    activation = world.sign_up(email)
    return ErasureLinks(world.keys).mint(activation.licence.id), activation.code


def test_reading_a_link_names_the_address_and_changes_nothing(world: World) -> None:
    token, code = link_of(world, "Olga@Example.org")
    held = export_address(world.store.privacy, world.keys, "olga@example.org")
    for _ in range(3):
        assert world.erasures.address_named(token) == "Olga@example.org"
    assert export_address(world.store.privacy, world.keys, "olga@example.org") == held
    assert world.checks.check("olga@example.org", code, None).licence.email == "Olga@example.org"


def test_erasing_by_the_link_is_the_operators_erasure_and_spends_the_link(world: World) -> None:
    token, code = link_of(world, "olga@example.org")
    world.sign_up("OLGA@example.org")  # a second licence of the same address
    world.support.open_ticket("olga@example.org", code, "Not me.", None)
    erasure = world.erasures.erase_named(token)
    assert erasure.email == "olga@example.org"
    erased = erasure.erased
    assert (erased.licences_erased, erased.licences_ended, len(erased.tickets)) == (2, 2, 1)
    after = held_document(export_address(world.store.privacy, world.keys, "olga@example.org"))
    assert after == dict.fromkeys(after, [])
    with pytest.raises(LicenceNotFound):
        world.checks.check("olga@example.org", code, None)
    with pytest.raises(LinkLeadsNowhere) as spent:
        world.erasures.address_named(token)
    assert spent.value.genuine
    with pytest.raises(LinkLeadsNowhere):
        world.erasures.erase_named(token)


def test_a_link_leads_nowhere_once_the_operator_erased_its_address(world: World) -> None:
    token, _ = link_of(world, "kim@example.org")
    erase_address(
        world.store.privacy, world.keys, world.journal_keys.current(), "kim@example.org", world.clock.now()
    )
    with pytest.raises(LinkLeadsNowhere) as spent:
        world.erasures.erase_named(token)
    assert spent.value.genuine


def test_a_forged_link_or_one_for_a_licence_never_issued_leads_nowhere(world: World) -> None:
    token, _ = link_of(world, "kim@example.org")
    with pytest.raises(LinkLeadsNowhere) as forged:
        world.erasures.address_named(token[:-1] + ("A" if token[-1] != "A" else "Q"))
    assert not forged.value.genuine
    with pytest.raises(LinkLeadsNowhere) as unknown:
        world.erasures.address_named(ErasureLinks(world.keys).mint("0" * 32))
    assert unknown.value.genuine, "ours, but naming no address"
    assert world.erasures.address_named(token) == "kim@example.org"


@store_property
@given(st.sampled_from(["en", "ru"]), st.integers(min_value=0, max_value=3))
def test_a_link_survives_a_rotation_on_both_stores(backend: str, language: str, rotations: int) -> None:
    with open_world(backend) as world:
        signed = world.signups.submit_email("ivan@example.org", None, None, language)
        activation = world.signups.create_user(signed, None)
        token = ErasureLinks(world.keys).mint(activation.licence.id)
        for seed in range(rotations):
            world.ring.rotate(seed + 1)
        assert world.erasures.erase_named(token).erased.licences_erased == 1


class Outbox:
    def __init__(self, copies: int) -> None:
        self.copies = copies
        self.asked: list[str] = []

    def erase(self, email: str) -> int:
        self.asked.append(email)
        return self.copies


class JournalCopy:
    def __init__(self, fails: bool = False) -> None:
        self.fails = fails
        self.records: list[ErasureRecord] = []
        self.keys: list[JournalKey] = []

    def append(self, record: ErasureRecord, key: JournalKey) -> None:
        if self.fails:
            raise JournalNotWritten("Read-only file system")
        self.records.append(record)
        self.keys.append(key)


def with_copies(world: World, outbox: Outbox | None, journal: JournalCopy | None) -> Erasures:
    return attrs.evolve(world.erasures, outbox=outbox, journal=journal)


def test_an_erasure_reaches_the_outbox_and_the_journal_whichever_door(world: World) -> None:
    token, _ = link_of(world, "olga@example.org")
    outbox, journal = Outbox(copies=2), JournalCopy()
    erasure = with_copies(world, outbox, journal).erase_named(token)
    assert outbox.asked == ["olga@example.org"]
    assert journal.records == [erasure.erased.record] == world.store.privacy.erasures()
    # Under the journal's own key, which the journal is given with its first entry.
    assert journal.keys == [world.journal_keys.current()]
    assert erasure.erased.record.key_id == world.journal_keys.current().id
    assert erasure_document(erasure)["outbox_files_deleted"] == 2
    assert erasure.journal_problem is None


def test_without_an_outbox_the_document_names_none_and_a_journal_that_fails_leaves_the_erasure(
    world: World,
) -> None:
    world.sign_up("olga@example.org")
    erasure = with_copies(world, None, JournalCopy(fails=True)).erase("olga@example.org")
    assert "outbox_files_deleted" not in erasure_document(erasure)
    assert erasure.journal_problem == "Read-only file system"
    assert erasure.erased.licences_erased == 1
    assert world.store.privacy.erasures() == [erasure.erased.record]


def test_the_operators_door_refuses_what_is_not_an_address(world: World) -> None:
    with pytest.raises(InvalidField):
        world.erasures.erase("nobody")
