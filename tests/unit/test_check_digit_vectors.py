"""The check digit rule, tied to the website's TypeScript copy by one file of shared vectors
(`tests/check_digit_vectors.json`, read by `ui/tests/content.test.ts` too)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vpnsite.codes import clean_typed_code, code_problem, is_well_formed

VECTORS: list[dict[str, object]] = json.loads(
    (Path(__file__).parent.parent / "check_digit_vectors.json").read_text(encoding="utf-8")
)
TYPOS = {"one digit changed", "adjacent digits swapped", "check digit off by one"}


@pytest.mark.parametrize("vector", VECTORS, ids=[f"{v['why']}:{v['code']}" for v in VECTORS])
def test_the_python_rule_agrees_with_the_shared_vectors(vector: dict[str, object]) -> None:
    assert is_well_formed(str(vector["code"])) is vector["valid"]


def test_the_vectors_cover_both_answers_and_every_kind_of_typo() -> None:
    assert len(VECTORS) >= 40
    assert len({str(v["code"]) for v in VECTORS}) == len(VECTORS), "no vector twice"
    kinds = {v["why"] for v in VECTORS}
    assert TYPOS | {"19 digits", "21 digits", "letters", "full-width digits", "empty"} <= kinds
    assert sum(1 for v in VECTORS if v["valid"]) >= 10
    assert sum(1 for v in VECTORS if not v["valid"]) >= 25


@pytest.mark.parametrize("vector", [v for v in VECTORS if v["why"] in TYPOS], ids=lambda v: str(v["code"]))
def test_typo_vectors_are_twenty_digits_caught_by_the_check_digit_alone(vector: dict[str, object]) -> None:
    # Otherwise they would test the format rule and say nothing about the check digit.
    assert code_problem(str(vector["code"])) == "code_mistyped"


def test_the_0_9_swap_vectors_are_one_swap_apart() -> None:
    blind = [str(v["code"]) for v in VECTORS if str(v["why"]).startswith("0 and 9 swapped")]
    assert blind, "the one swap Luhn cannot see is documented in the vectors"
    for swapped in blind:
        originals = [
            str(v["code"])
            for v in VECTORS
            if v["valid"]
            and len(str(v["code"])) == 20
            and sum(a != b for a, b in zip(str(v["code"]), swapped, strict=True)) == 2
        ]
        assert originals and is_well_formed(swapped)


@pytest.mark.parametrize("vector", [v for v in VECTORS if "grouped" in str(v["why"])], ids=str)
def test_grouped_vectors_are_valid_once_cleaned(vector: dict[str, object]) -> None:
    assert not vector["valid"]
    assert code_problem(clean_typed_code(str(vector["code"]))) is None
