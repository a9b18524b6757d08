"""User counts above a million and moments the server writes, held to what the
website writes by ``tests/locale_vectors.json`` (``ui/tests/format.test.ts`` reads it too) and to
the website's own sources; and the activation code's groups, the same on both sides."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from vpnsite.codes import CODE_GROUP_LENGTH, CODE_LENGTH, code_groups
from vpnsite_adapters.http.pages.device_rows import since_text
from vpnsite_adapters.http.pages.page_formats import CountedText, LanguageFormats
from vpnsite_adapters.texts.formatting import (
    format_moment,
    format_number,
    format_short,
    millions_form,
    plural,
)
from vpnsite_adapters.texts.languages import LANGUAGES

ROOT = Path(__file__).parents[2]
VECTORS: dict[str, list[dict[str, Any]]] = json.loads((ROOT / "tests/locale_vectors.json").read_text("utf-8"))
# The markup the build writes for a large count's two texts (ui/src/i18n/counted-users.tsx: CountForms).
COUNT_FORMS = '<span class="count-full">__SLOT_FULL__</span><span class="count-short">__SLOT_SHORT__</span>'


def dictionary_forms(language: str) -> dict[str, str]:
    """The footer's "{n} users" in the website's dictionary, as the build exports it."""
    source = (ROOT / "ui/src/i18n" / f"{language}.ts").read_text("utf-8")
    line = next(line for line in source.splitlines() if line.strip().startswith("users: {"))
    return dict(re.findall(r'(\w+): "([^"]*)"', line))


FORMATS = {
    language: LanguageFormats(
        language=language,
        days={"other": "{n}"},
        users=dictionary_forms(language),
        few_users=100,
        short_from=1_000_000,
        counted_users={"FOOTER_USERS": CountedText(forms=dictionary_forms(language), few="new")},
        count_forms=COUNT_FORMS,
    )
    for language in LANGUAGES
}


def footer(users: int, language: str) -> str:
    return FORMATS[language].counted(users)["FOOTER_USERS"].decode()


@pytest.mark.parametrize("vector", VECTORS["short"], ids=lambda v: f"{v['language']}-{v['value']}")
def test_short_counts_are_the_websites(vector: dict[str, Any]) -> None:
    assert format_short(vector["value"], vector["language"]) == vector["text"]


@pytest.mark.parametrize("vector", VECTORS["users"], ids=lambda v: f"{v['language']}-{v['count']}")
def test_above_a_million_each_form_has_its_own_grammar(vector: dict[str, Any]) -> None:
    expected = COUNT_FORMS.replace("__SLOT_FULL__", vector["full"]).replace("__SLOT_SHORT__", vector["short"])
    assert footer(vector["count"], vector["language"]) == expected


def test_the_short_form_reads_as_a_native_reader_writes_it() -> None:
    nbsp = "\u00a0"
    assert f"1{nbsp}млн пользователей" in footer(1_000_001, "ru")
    assert f"2{nbsp}млн пользователей" in footer(2_000_000 + 1, "ru")
    assert f"1,2{nbsp}млн пользователей" in footer(1_234_567, "ru")
    assert "1 millón de usuarios" in footer(1_000_001, "es")
    assert "1,2 millones de usuarios" in footer(1_234_567, "es")
    assert "1 million d’utilisateurs" in footer(1_000_001, "fr")
    assert "1,2 million d’utilisateurs" in footer(1_234_567, "fr")
    assert "1 milhão de usuários" in footer(1_000_001, "pt")
    assert "1,2 milhão de usuários" in footer(1_234_567, "pt")
    assert "1.2m users" in footer(1_234_567, "en")


BOTH_FORMS = re.compile(r'<span class="count-full">(.*)</span><span class="count-short">(.*)</span>')
# The short form of each language: its number, its unit and the noun after it.
SHORT_TEXT = {
    "en": re.compile(r"^(?P<n>[\d.]+)(?P<unit>m|bn) users$"),
    "ru": re.compile(r"^(?P<n>[\d,]+)\u00a0(?P<unit>млн|млрд) пользователей$"),
    "es": re.compile(r"^(?P<n>[\d,]+) (?P<unit>millón|millones|mil millones) de usuarios$"),
    "fr": re.compile(r"^(?P<n>[\d,]+) (?P<unit>millions?|milliards?) d’utilisateurs$"),
    "pt": re.compile(r"^(?P<n>[\d,]+) (?P<unit>milhão|milhões|bilhão|bilhões) de usuários$"),
}
BILLIONS = {"bn", "млрд", "mil millones", "milliard", "milliards", "bilhão", "bilhões"}
# The unit agrees with its number: singular below 2 in French and Portuguese, for 1 alone in Spanish.
SINGULAR = {"millón": "es", "million": "fr", "milliard": "fr", "milhão": "pt", "bilhão": "pt"}


@settings(max_examples=400, deadline=None)
@given(users=st.integers(min_value=0, max_value=10**9), language=st.sampled_from(LANGUAGES))
@example(users=99, language="ru")
@example(users=1_000_000, language="ru")
@example(users=1_000_001, language="ru")
@example(users=1_049_999, language="fr")
@example(users=1_999_999, language="pt")
@example(users=999_949_999, language="es")
@example(users=999_950_000, language="es")
@example(users=10**9, language="fr")
def test_every_count_up_to_a_billion_reads_right(users: int, language: str) -> None:
    shown = footer(users, language)
    forms = dictionary_forms(language)
    if users < 100:
        assert shown == "new"
        return
    if users <= 1_000_000:
        assert shown == plural(users, forms, language)
        return
    both = BOTH_FORMS.fullmatch(shown)
    assert both, shown
    full, short = both.groups()
    assert full == plural(users, forms, language)
    found = SHORT_TEXT[language].fullmatch(short)
    assert found, short
    number, unit = Decimal(found["n"].replace(",", ".")), found["unit"]
    scale = 10**9 if unit in BILLIONS else 10**6
    assert abs(number * scale - users) <= Decimal("0.05") * scale, short
    assert number < 1000 and number == number.quantize(Decimal("0.1"))
    if language in ("fr", "pt"):
        assert (SINGULAR.get(unit) == language) == (number < 2), short
    if language == "es" and scale == 10**6:
        assert (unit == "millón") == (number == 1), short
    assert short == millions_form(forms).replace("{n}", format_short(users, language))


@pytest.mark.parametrize("vector", VECTORS["moments"], ids=lambda v: f"{v['language']}-{v['seconds']}")
def test_moments_are_written_in_utc_and_say_so(vector: dict[str, Any]) -> None:
    assert format_moment(vector["seconds"], vector["language"]) == vector["text"]
    assert since_text(vector["seconds"], vector["language"]) == vector["text"]
    assert vector["text"].endswith(" UTC")


def test_french_writes_the_first_of_the_month_1er() -> None:
    march = next(v["seconds"] for v in VECTORS["moments"] if v["language"] == "fr")
    assert since_text(march, "fr") == "1er mars 2027, 14:05 UTC"
    assert since_text(march + 10 * 86_400, "fr").startswith("11 mars 2027")


def test_the_code_is_grouped_as_the_website_groups_it() -> None:
    source = (ROOT / "ui/src/lib/check-digit.ts").read_text("utf-8")
    assert f"export const CODE_GROUP_LENGTH = {CODE_GROUP_LENGTH};" in source
    assert f"export const CODE_LENGTH = {CODE_LENGTH};" in source
    assert code_groups("52601815908301661311") == ["5260", "1815", "9083", "0166", "1311"]
    assert code_groups("") == []


def test_counts_below_the_short_form_keep_their_grammar() -> None:
    assert footer(1_000_000, "es") == f"{format_number(1_000_000, 'es')} de usuarios"
    assert footer(1_000_000, "ru") == "1\u00a0000\u00a0000 пользователей"
