"""The check digit rule, tied to the website's TypeScript copy by one file of shared vectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vpnsite.codes import is_well_formed

VECTORS = json.loads((Path(__file__).parent.parent / "check_digit_vectors.json").read_text())


@pytest.mark.parametrize("vector", VECTORS, ids=[f"{v['why']}:{v['code']}" for v in VECTORS])
def test_the_python_rule_agrees_with_the_shared_vectors(vector: dict[str, object]) -> None:
    assert is_well_formed(str(vector["code"])) is vector["valid"]


def test_the_vectors_cover_both_answers_and_every_kind_of_typo() -> None:
    kinds = {v["why"] for v in VECTORS}
    assert {"one digit changed", "adjacent digits swapped", "19 digits", "letters"} <= kinds
    assert any(v["valid"] for v in VECTORS) and not all(v["valid"] for v in VECTORS)
