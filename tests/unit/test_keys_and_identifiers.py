"""Keys derived per purpose, keyed hashes, and the random identifiers drawn from the injected source."""

from __future__ import annotations

import base64
import re

from hypothesis import given
from hypothesis import strategies as st

from tests.unit.fakes import SeededRandom
from vpnsite.identifiers import TOKEN_BYTES, new_id, new_server_token, new_ticket_number, new_token
from vpnsite.keyed_hashes import KeyedHasher, Keyring, derive_key

masters = st.binary(min_size=16, max_size=64)
seeds = st.integers(min_value=0, max_value=2**64)


@given(masters)
def test_every_purpose_has_its_own_key(master: bytes) -> None:
    ring = Keyring.from_master(master).current
    keys = [
        ring.signup,
        ring.codes.key,
        ring.tokens.key,
        ring.subjects.key,
        ring.nodes.key,
        ring.archive_links,
        ring.mail,
    ]
    assert len(set(keys)) == len(keys) and all(len(key) == 32 for key in keys)
    assert master not in keys
    assert Keyring.from_master(master).current == ring, "the same secret gives the same keys after a restart"


@given(masters, masters)
def test_another_secret_gives_other_keys(a: bytes, b: bytes) -> None:
    if a != b:
        assert derive_key(a, "activation-codes") != derive_key(b, "activation-codes")


@given(masters, st.text(max_size=40), st.text(max_size=40))
def test_a_keyed_hash_tells_values_apart_and_hides_them(master: bytes, a: str, b: str) -> None:
    hasher = KeyedHasher(derive_key(master, "activation-codes"))
    assert re.fullmatch(r"[0-9a-f]{64}", hasher.hash(a))
    assert (hasher.hash(a) == hasher.hash(b)) is (a == b)
    other = KeyedHasher(derive_key(master, "archive-tokens"))
    assert other.hash(a) != hasher.hash(a), "a code's hash cannot be replayed as a token's"


@given(seeds)
def test_ids_are_128_bits_of_hex(seed: int) -> None:
    identifier = new_id(SeededRandom(seed))
    assert re.fullmatch(r"[0-9a-f]{32}", identifier)


@given(seeds)
def test_tokens_are_url_safe_and_carry_at_least_128_bits(seed: int) -> None:
    token = new_token(SeededRandom(seed))
    assert re.fullmatch(r"[A-Za-z0-9_-]+", token)
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    assert len(raw) == TOKEN_BYTES and TOKEN_BYTES * 8 >= 128


@given(seeds)
def test_a_server_token_can_follow_an_option_on_a_command_line(seed: int) -> None:
    """``vpnsite vpn server-config --token T`` must read T as the token, never as an option."""
    token = new_server_token(SeededRandom(seed))
    assert re.fullmatch(f"[0-9a-f]{{{2 * TOKEN_BYTES}}}", token)


@given(seeds)
def test_ticket_numbers_are_t_and_eight_digits(seed: int) -> None:
    assert re.fullmatch(r"T-[0-9]{8}", new_ticket_number(SeededRandom(seed)))


def test_identifiers_differ_from_draw_to_draw() -> None:
    random = SeededRandom(1)
    assert len({new_id(random) for _ in range(1000)}) == 1000
    assert len({new_token(random) for _ in range(1000)}) == 1000
