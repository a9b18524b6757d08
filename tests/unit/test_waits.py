"""A rate limit's wait as a person says it, in the five languages: rounded up to its largest
sensible unit, in the phrase ``Intl.RelativeTimeFormat`` writes (``tests/locale_vectors.json``,
"waits"; the browser's side is ``ui/tests/waits.test.ts``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vpnsite_adapters.http.messages import detail_text
from vpnsite_adapters.texts.catalogue import CATALOGUES
from vpnsite_adapters.texts.languages import LANGUAGES
from vpnsite_adapters.texts.waits import format_wait, wait_in_units

WAITS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent.parent / "locale_vectors.json").read_text(encoding="utf-8")
)["waits"]
UNIT_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
# The count of a unit from which a wait is said in the next one.
LIMITS = {"second": 60, "minute": 60, "hour": 24}


@pytest.mark.parametrize("vector", WAITS, ids=lambda v: f"{v['language']}-{v['seconds']}")
def test_a_wait_reads_as_intl_writes_it(vector: dict[str, Any]) -> None:
    assert wait_in_units(vector["seconds"]) == (vector["count"], vector["unit"])
    assert format_wait(vector["seconds"], vector["language"]) == vector["text"]


def test_the_vectors_cover_every_language_unit_and_plural_form() -> None:
    assert {v["language"] for v in WAITS} == set(LANGUAGES)
    assert {v["unit"] for v in WAITS} == set(UNIT_SECONDS)
    russian = {v["text"].split("\u00a0")[1] for v in WAITS if v["language"] == "ru"}
    assert {"секунду", "секунды", "секунд", "минуту", "минуты", "минут", "час", "часа", "часов"} <= russian


@given(st.integers(min_value=-5, max_value=10 * 86400))
def test_a_wait_is_never_said_shorter_than_it_is_nor_a_whole_unit_longer(seconds: int) -> None:
    count, unit = wait_in_units(seconds)
    length = UNIT_SECONDS[unit]
    assert count >= 1
    assert count * length >= seconds
    assert (count - 1) * length < max(1, seconds)
    # Said in the largest unit the wait reaches: the unit below would count to its limit or more.
    assert count < LIMITS.get(unit, count + 1)
    below = {"minute": "second", "hour": "minute", "day": "hour"}.get(unit)
    if below is not None:
        assert -(-seconds // UNIT_SECONDS[below]) >= LIMITS[below]


@pytest.mark.parametrize(
    ("language", "seconds", "text"),
    [
        ("en", 589, "Too many requests. Please try again in 10\u00a0minutes."),
        ("en", 45, "Too many requests. Please try again in 45\u00a0seconds."),
        ("en", 3600, "Too many requests. Please try again in 1\u00a0hour."),
        ("ru", 589, "Слишком много запросов. Повторите попытку через 10\u00a0минут."),
        ("ru", 1260, "Слишком много запросов. Повторите попытку через 21\u00a0минуту."),
        ("es", 589, "Demasiadas solicitudes. Inténtalo de nuevo dentro de 10\u00a0minutos."),
        ("fr", 3600, "Trop de requêtes. Réessayez dans 1\u00a0heure."),
        ("pt", 30, "Muitas solicitações. Tente novamente em 30\u00a0segundos."),
    ],
)
def test_the_rate_limit_detail_says_the_wait_in_human_units(language: str, seconds: int, text: str) -> None:
    assert detail_text("rate_limited", language, seconds=seconds) == text


def test_no_rate_limit_text_counts_raw_seconds() -> None:
    for language, texts in CATALOGUES.items():
        template = texts.details["rate_limited"]
        assert "{wait}" in template and "{seconds}" not in template, language
        assert "589" not in detail_text("rate_limited", language, seconds=589)
