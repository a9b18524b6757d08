"""The ring of master keys: the current key signs and hashes what is new, every key of the ring
recognises what it made, a retired key recognises nothing, and a stored hash is moved to the current
key when it is used. On the in-memory store and on SQLite."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World
from vpnsite.archives import ArchiveLinks
from vpnsite.errors import InvalidSignature, LicenceNotFound
from vpnsite.key_ring import KeyRing, KeyRingError, KeyUsage, retire_refusal
from vpnsite.keyed_hashes import ORIGINAL_KEY, Keyring, RingKeys
from vpnsite.notifications import Reminder
from vpnsite.signup_requests import FormData, sign, signature_matches

ORIGINAL = b"the original master secret, 32+ bytes"
NOW = datetime(2026, 5, 1, tzinfo=UTC)
secrets_ = st.binary(min_size=32, max_size=48)
# An operator's history: rotate (True, staged or not) or retire the oldest key that is not current.
histories = st.lists(st.tuples(st.booleans(), st.booleans(), secrets_), min_size=0, max_size=6)
values = st.text(max_size=40)


def replay(history: list[tuple[bool, bool, bytes]]) -> KeyRing:
    ring = KeyRing()
    for n, (rotate, stage, secret) in enumerate(history):
        if rotate:
            # Real keys are random: distinct ones here too, whatever Hypothesis draws.
            ring = ring.rotate(b"h" + bytes([n]) + secret, NOW, stage=stage)
        else:
            older = [key_id for key_id in ring.ids() if key_id != ring.current]
            ring = ring.retire(older[0]) if older else ring
    return ring


@given(histories, values)
def test_whatever_any_ring_key_hashed_is_found_and_the_current_key_hashes_first(
    history: list[tuple[bool, bool, bytes]], value: str
) -> None:
    ring = replay(history)
    keys = ring.keys(ORIGINAL)
    assert keys.current.id == ring.current
    candidates = keys.codes(value)
    assert [keyed.key_id for keyed in candidates.hashes] == [
        ring.current,
        *(i for i in ring.ids() if i != ring.current),
    ]
    for key_set in keys.sets:
        made = key_set.codes.hash(value)
        assert made in candidates.values
        assert candidates.is_stale(made) is (key_set.id != ring.current)


@given(histories, values, secrets_)
def test_after_a_rotation_new_hashes_and_signatures_use_the_new_key_and_old_ones_still_verify(
    history: list[tuple[bool, bool, bytes]], value: str, secret: bytes
) -> None:
    before = replay(history)
    after = before.rotate(b"n" + secret, NOW)
    assert after.current not in before.ids() and after.current > max(before.ids())
    old_keys, new_keys = before.keys(ORIGINAL), after.keys(ORIGINAL)
    assert new_keys.codes(value).current.key_id == after.current
    assert old_keys.current.codes.hash(value) in new_keys.codes(value).values
    form = FormData(value, 90, "free", "", "r")
    old_signature = sign(form, old_keys.current.signup)
    assert any(signature_matches(form, old_signature, keys.signup) for keys in new_keys.sets)
    old_link = ArchiveLinks(Keyring.of(old_keys)).mint("ab" * 16, NOW)
    assert ArchiveLinks(Keyring.of(new_keys)).read(old_link, NOW) == "ab" * 16
    new_link = ArchiveLinks(Keyring.of(new_keys)).mint("ab" * 16, NOW)
    assert ArchiveLinks(Keyring.of(old_keys)).read(new_link, NOW) is None, "signed by the new key"
    new_signature = sign(form, new_keys.current.signup)
    assert not any(signature_matches(form, new_signature, keys.signup) for keys in old_keys.sets)


@given(histories, values, secrets_)
def test_a_retired_key_recognises_nothing_it_made(
    history: list[tuple[bool, bool, bytes]], value: str, secret: bytes
) -> None:
    before = replay(history).rotate(b"n" + secret, NOW)
    retired_id = min(before.ids())
    old = next(keys for keys in before.keys(ORIGINAL).sets if keys.id == retired_id)
    after = before.retire(retired_id)
    remaining = after.keys(ORIGINAL)
    assert retired_id not in after.ids()
    assert old.codes.hash(value) not in remaining.codes(value).values
    form = FormData(value, 90, "free", "", "r")
    assert not any(signature_matches(form, sign(form, old.signup), keys.signup) for keys in remaining.sets)
    by_current = ArchiveLinks(Keyring.of(before.keys(ORIGINAL))).mint("cd" * 16, NOW)
    by_retired = ArchiveLinks(Keyring.of(RingKeys((old,)))).mint("cd" * 16, NOW)
    assert ArchiveLinks(Keyring.of(remaining)).read(by_retired, NOW) is None
    assert ArchiveLinks(Keyring.of(remaining)).read(by_current, NOW) == "cd" * 16


def test_the_operator_cannot_retire_the_current_key_nor_use_a_key_outside_the_ring() -> None:
    ring = KeyRing()
    with pytest.raises(KeyRingError, match="current"):
        ring.retire(ORIGINAL_KEY)
    with pytest.raises(KeyRingError, match="not in the ring"):
        ring.use(2)
    staged = ring.rotate(b"s" * 32, NOW, stage=True)
    assert staged.current == ORIGINAL_KEY and staged.ids() == [1, 2], "a staged key verifies, signs not"
    rotated = staged.use(2).retire(ORIGINAL_KEY)
    assert rotated.ids() == [2] and rotated.retired == {ORIGINAL_KEY}
    assert rotated.rotate(b"t" * 32, NOW).current == 3, "an id is never given twice"
    with pytest.raises(KeyRingError, match="random bytes"):
        ring.rotate(b"short", NOW)


def test_retiring_waits_while_anything_usable_needs_the_key_unless_forced() -> None:
    assert retire_refusal(1, KeyUsage(), force=False) is None
    busy = KeyUsage(codes=3, renewal_links=1)
    refusal = retire_refusal(1, busy, force=False)
    assert refusal is not None and "3 licence(s) would lose their code" in refusal
    assert "1 unused renewal link(s)" in refusal
    assert retire_refusal(1, busy, force=True) is None


def test_a_code_issued_before_a_rotation_checks_after_it_and_moves_to_the_new_key(world: World) -> None:
    before = world.sign_up("anna@example.org")
    assert before.licence.code_key == ORIGINAL_KEY
    new_key = world.ring.rotate()
    after = world.sign_up("bob@example.org")
    assert after.licence.code_key == new_key, "new codes are hashed under the current key"
    checked = world.checks.check("anna@example.org", before.code, ip=None)
    assert checked.licence.code_key == new_key
    stored = world.store.licences.find_by_id(before.licence.id)
    assert stored is not None and stored.code_key == new_key
    assert stored.code_hash == world.keys.current.codes.hash(before.code)
    carol = world.sign_up("carol@example.org")
    world.ring.rotate(seed=2)
    world.ring.retire(ORIGINAL_KEY)
    world.ring.retire(new_key)
    with pytest.raises(LicenceNotFound):
        world.checks.check("carol@example.org", carol.code, ip=None)


def test_only_the_retired_keys_unused_codes_stop_working(world: World) -> None:
    used = world.sign_up("anna@example.org")
    unused = world.sign_up("kim@example.org")
    world.ring.rotate()
    fresh = world.sign_up("bob@example.org")
    world.checks.check("anna@example.org", used.code, ip=None)
    world.ring.retire(ORIGINAL_KEY)
    assert world.checks.check("anna@example.org", used.code, ip=None).licence.id == used.licence.id
    assert world.checks.check("bob@example.org", fresh.code, ip=None).licence.id == fresh.licence.id
    with pytest.raises(LicenceNotFound):
        world.checks.check("kim@example.org", unused.code, ip=None)


def test_a_wrong_address_moves_nothing(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    world.ring.rotate()
    with pytest.raises(LicenceNotFound):
        world.checks.check("zed@example.org", anna.code, ip=None)
    stored = world.store.licences.find_by_id(anna.licence.id)
    assert stored is not None and stored.code_key == ORIGINAL_KEY


def test_a_vpn_login_and_its_servers_token_move_their_hashes_to_the_new_key(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    world.add_server("nl-1", "server-token")
    new_key = world.ring.rotate()
    admitted = world.node_access.log_in(world.server("server-token"), "anna@example.org", anna.code)
    assert admitted.refused is None and admitted.licence_id == anna.licence.id
    stored = world.store.licences.find_by_id(anna.licence.id)
    assert stored is not None and stored.code_key == new_key
    world.ring.retire(ORIGINAL_KEY)
    assert world.server("server-token") == "nl-1", "the server's call moved its token's hash"


def test_sign_up_forms_signed_before_a_rotation_are_redeemed_after_it_but_not_after_retirement(
    world: World,
) -> None:
    early = world.signups.submit_email("anna@example.org", None, None)
    later = world.signups.submit_email("kim@example.org", None, None)
    world.ring.rotate()
    assert world.signups.create_user(early, ip=None).licence.email == "anna@example.org"
    world.ring.retire(ORIGINAL_KEY)
    with pytest.raises(InvalidSignature):
        world.signups.create_user(later, ip=None)


def test_a_renewal_link_sent_before_a_rotation_renews_after_it(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    world.clock.advance(days=85)
    assert world.renewals.send_reminders() == 1
    [reminder] = [said for kind, said in world.notifications.said if kind == "renewal"]
    assert isinstance(reminder, Reminder)
    world.ring.rotate()
    renewed = world.renewals.renew_with_link(reminder.renewal_token)
    assert renewed.id == anna.licence.id and renewed.ends_at > anna.licence.ends_at
