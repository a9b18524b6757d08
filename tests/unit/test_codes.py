"""Activation codes: 20 digits, a Luhn check digit that catches typos before any look-up."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.fakes import SeededRandom
from vpnsite.codes import (
    CODE_LENGTH,
    clean_typed_code,
    code_problem,
    is_well_formed,
    luhn_check_digit,
    new_activation_code,
)

DIGITS = "0123456789"
payloads = st.text(alphabet=DIGITS, min_size=19, max_size=19)
codes = payloads.map(lambda payload: payload + luhn_check_digit(payload))
seeds = st.integers(min_value=0, max_value=2**64)


def swap(code: str, position: int) -> str:
    return code[:position] + code[position + 1] + code[position] + code[position + 2 :]


@given(seeds)
def test_a_new_code_is_twenty_ascii_digits_that_check_out(seed: int) -> None:
    code = new_activation_code(SeededRandom(seed))
    assert len(code) == CODE_LENGTH == 20
    assert all(char in DIGITS for char in code)
    assert is_well_formed(code)
    assert code_problem(code) is None


@given(seeds)
def test_the_code_is_drawn_from_the_injected_randomness(seed: int) -> None:
    draws = random.Random(seed)
    payload = f"{draws.randrange(10**19):019d}"
    assert new_activation_code(SeededRandom(seed)) == payload + luhn_check_digit(payload)


def test_codes_from_different_seeds_differ() -> None:
    assert len({new_activation_code(SeededRandom(seed)) for seed in range(2000)}) == 2000


@given(payloads)
def test_exactly_one_last_digit_completes_a_payload(payload: str) -> None:
    assert [d for d in DIGITS if is_well_formed(payload + d)] == [luhn_check_digit(payload)]


@given(codes, st.integers(min_value=0, max_value=19), st.integers(min_value=1, max_value=9))
def test_any_single_digit_change_fails_the_check(code: str, position: int, shift: int) -> None:
    typo = code[:position] + str((int(code[position]) + shift) % 10) + code[position + 1 :]
    assert typo != code
    assert not is_well_formed(typo)
    assert code_problem(typo) == "code_mistyped"


@given(codes, st.integers(min_value=0, max_value=18))
def test_an_adjacent_swap_of_two_different_digits_fails_unless_they_are_0_and_9(
    code: str, position: int
) -> None:
    a, b = code[position], code[position + 1]
    swapped = swap(code, position)
    if a == b:
        assert swapped == code
    elif {a, b} == {"0", "9"}:
        # Luhn's one blind spot: doubled, 0 stays 0 and 9 stays 9 (18 - 9), so "09" and "90" weigh
        # the same whichever of the two positions is doubled. The swapped code still checks out.
        assert is_well_formed(swapped)
    else:
        assert not is_well_formed(swapped)
        assert code_problem(swapped) == "code_mistyped"


def code_with_pair_at(pair: str, position: int) -> str:
    """A valid code holding ``pair`` at ``position``. When the pair ends the code its second digit
    is the check digit: vary the first digit, which moves the check digit through all ten values."""
    for first in DIGITS:
        payload = list(first + "3" * 18)
        payload[position : position + 2] = pair if position < 18 else pair[0]
        code = "".join(payload) + luhn_check_digit("".join(payload))
        if code[position : position + 2] == pair:
            return code
    raise AssertionError("unreachable: some first digit gives every check digit")


@pytest.mark.parametrize("position", range(19))
@pytest.mark.parametrize("pair", ["09", "90"])
def test_the_0_9_blind_spot_is_real_at_every_position(position: int, pair: str) -> None:
    code = code_with_pair_at(pair, position)
    assert is_well_formed(code) and len(code) == 20
    assert is_well_formed(swap(code, position))


@given(codes, st.lists(st.sampled_from([" ", "-", "\u00a0", "\t"]), max_size=8), st.data())
def test_people_may_group_the_digits_with_spaces_and_dashes(
    code: str, separators: list[str], data: st.DataObject
) -> None:
    typed = code
    for separator in separators:
        position = data.draw(st.integers(min_value=0, max_value=len(typed)))
        typed = typed[:position] + separator + typed[position:]
    padding = data.draw(st.sampled_from(["", " ", "  ", "\n", " \t "]))
    assert clean_typed_code(padding + typed + padding) == code
    assert code_problem(clean_typed_code(typed)) is None


@pytest.mark.parametrize(
    "typed",
    ["1234 5678 9012 3456 7890", "1234-5678-9012-3456-7890", " 12345-67890 12345-67890 ", "12 34\u00a056"],
)
def test_grouped_codes_lose_only_their_separators(typed: str) -> None:
    assert clean_typed_code(typed) == "".join(char for char in typed if char.isdigit())


@given(st.text(alphabet=DIGITS + "abcXYZ.,_/+*#", min_size=1, max_size=25))
def test_cleaning_removes_nothing_but_separators(typed: str) -> None:
    assert clean_typed_code(typed) == typed


@given(st.text(max_size=30))
def test_anything_that_is_not_twenty_ascii_digits_is_a_format_problem(text: str) -> None:
    twenty_digits = len(text) == 20 and all(char in DIGITS for char in text)
    if not twenty_digits:
        assert code_problem(text) == "code_format"
        assert not is_well_formed(text)
    else:
        assert code_problem(text) == (None if is_well_formed(text) else "code_mistyped")


@given(codes, st.text(alphabet=DIGITS, min_size=1, max_size=3))
def test_a_digit_too_many_or_too_few_is_a_format_problem(code: str, extra: str) -> None:
    assert code_problem(code + extra) == "code_format"
    assert code_problem(code[: -len(extra)]) == "code_format"


@pytest.mark.parametrize(
    "code",
    [
        "１２３４５６７８９０１２３４５６７８９０",  # full-width digits: isdigit() is true for them
        "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨٩٠",  # Arabic-Indic digits
        "+1234567890123456789",
        "-1234567890123456789",
        "1234567890123456789 ",
    ],
)
def test_digits_that_are_not_ascii_digits_are_a_format_problem(code: str) -> None:
    assert len(code) == 20
    assert code_problem(code) == "code_format"
    assert not is_well_formed(code)
