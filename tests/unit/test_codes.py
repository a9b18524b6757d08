"""Activation codes: 20 digits, a Luhn check digit that catches typos before any look-up."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.unit.fakes import SeededRandom
from vpnsite.codes import (
    clean_typed_code,
    code_problem,
    is_well_formed,
    luhn_check_digit,
    new_activation_code,
)

payloads = st.text(alphabet="0123456789", min_size=19, max_size=19)


def code_from(payload: str) -> str:
    return payload + luhn_check_digit(payload)


@given(st.integers(min_value=0, max_value=2**32))
def test_a_new_code_is_twenty_digits_that_check_out(seed: int) -> None:
    code = new_activation_code(SeededRandom(seed))
    assert len(code) == 20 and code.isdigit()
    assert is_well_formed(code)
    assert code_problem(code) is None


@given(payloads, st.integers(min_value=0, max_value=19), st.integers(min_value=1, max_value=9))
def test_any_single_digit_change_fails_the_check(payload: str, position: int, shift: int) -> None:
    code = code_from(payload)
    typo = code[:position] + str((int(code[position]) + shift) % 10) + code[position + 1 :]
    assert not is_well_formed(typo)
    assert code_problem(typo) == "code_mistyped"


@given(payloads, st.integers(min_value=0, max_value=18))
def test_any_adjacent_swap_fails_the_check_except_zero_and_nine(payload: str, position: int) -> None:
    code = code_from(payload)
    a, b = code[position], code[position + 1]
    swapped = code[:position] + b + a + code[position + 2 :]
    if a == b:
        assert is_well_formed(swapped)
    elif {a, b} == {"0", "9"}:
        # Luhn's one blind spot: 0 doubles to 0 and 9 doubles to 9, so "09" and "90" weigh the same.
        assert is_well_formed(swapped)
    else:
        assert not is_well_formed(swapped)


@given(payloads, st.lists(st.sampled_from([" ", "-", "\u00a0"]), min_size=0, max_size=6), st.data())
def test_people_may_group_the_digits_as_they_like(
    payload: str, separators: list[str], data: st.DataObject
) -> None:
    code = code_from(payload)
    typed = code
    for separator in separators:
        position = data.draw(st.integers(min_value=0, max_value=len(typed)))
        typed = typed[:position] + separator + typed[position:]
    assert clean_typed_code(f"  {typed} ") == code


@given(st.text(max_size=30))
def test_anything_that_is_not_twenty_ascii_digits_is_a_format_problem(text: str) -> None:
    if not (len(text) == 20 and text.isascii() and text.isdigit()):
        assert code_problem(text) == "code_format"
        assert not is_well_formed(text)
