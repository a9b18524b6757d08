"""Numbers, dates and plurals in the server's texts, as the website's ``Intl`` writes them: both
sides are tested against ``tests/locale_vectors.json`` (``ui/tests/format.test.ts`` reads it too)."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tests.catalogue_texts import catalogue_texts
from vpnsite_adapters.http.messages import detail_text, field_text
from vpnsite_adapters.mail.templates import licence_email, renewal_reminder
from vpnsite_adapters.texts.catalogue import CATALOGUES
from vpnsite_adapters.texts.formatting import format_date, format_number, plural, plural_category
from vpnsite_adapters.texts.languages import LANGUAGES

VECTORS: dict[str, list[dict[str, Any]]] = json.loads(
    (Path(__file__).parent.parent / "locale_vectors.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("vector", VECTORS["numbers"], ids=lambda v: f"{v['language']}-{v['value']}")
def test_numbers_are_grouped_as_intl_groups_them(vector: dict[str, Any]) -> None:
    assert format_number(vector["value"], vector["language"]) == vector["text"]


@pytest.mark.parametrize("vector", VECTORS["dates"], ids=lambda v: f"{v['language']}-{v['day']}")
def test_dates_read_as_intl_writes_them(vector: dict[str, Any]) -> None:
    assert format_date(date.fromisoformat(vector["day"]), vector["language"]) == vector["text"]


@pytest.mark.parametrize("vector", VECTORS["plurals"], ids=lambda v: f"{v['language']}-{v['count']}")
def test_plural_categories_are_intl_plural_rules(vector: dict[str, Any]) -> None:
    assert plural_category(vector["count"], vector["language"]) == vector["category"]


@pytest.mark.parametrize("vector", VECTORS["days"], ids=lambda v: f"{v['language']}-{v['count']}")
def test_the_e_mails_count_days_as_the_website_does(vector: dict[str, Any]) -> None:
    assert plural(vector["count"], CATALOGUES[vector["language"]].days, vector["language"]) == vector["text"]


def test_api_details_write_numbers_and_dates_in_the_language() -> None:
    assert detail_text("free_tier_full", "ru", cap=1_000_000).startswith(
        "Все 1\u00a0000\u00a0000 бесплатных мест"
    )
    assert "Les 1\u202f000\u202f000 places" in detail_text("free_tier_full", "fr", cap=1_000_000)
    assert "All 1,000,000 free places" in detail_text("free_tier_full", "en", cap=1_000_000)
    opens = date(2027, 2, 13)
    assert "à partir du 13 février 2027" in detail_text("not_renewable_yet", "fr", opens=opens)
    assert "a partir del 13 de febrero de 2027" in detail_text("not_renewable_yet", "es", opens=opens)
    assert "с 13 февраля 2027\u00a0г." in detail_text("not_renewable_yet", "ru", opens=opens)
    assert "from 13 February 2027" in detail_text("not_renewable_yet", "en", opens=opens)
    assert field_text("too_long", "pt", limit=10_000) == "No máximo 10.000 caracteres."


def test_only_english_details_carry_english() -> None:
    for language, texts in CATALOGUES.items():
        for code, text in texts.details.items():
            if language != "en":
                assert "Too many requests" not in text and "already been used" not in text, (code, language)


def test_the_licence_e_mail_puts_no_colon_after_a_preposition() -> None:
    ends = date(2027, 2, 13)
    texts = {
        language: licence_email(
            "a@example.org", "1" * 20, ends, "https://x/a", "https://x/l", "https://x/e", language
        ).text
        for language in LANGUAGES
    }
    assert "Valid until 13 February 2027" in texts["en"]
    assert "Действует до 13 февраля 2027\u00a0г." in texts["ru"]
    assert "Válida hasta el 13 de febrero de 2027" in texts["es"]
    assert "Valable jusqu’au 13 février 2027" in texts["fr"]
    assert "Válida até 13 de fevereiro de 2027" in texts["pt"]
    for text in texts.values():
        for line in text.splitlines():
            assert not line.rstrip().endswith((" el:", " de:", "jusqu’au\u00a0:", " até:", " until:")), line
    assert "Comprueba tu licencia" in texts["es"] and "Consulta" not in texts["es"]
    assert "Verifique sua licença" in texts["pt"] and "Consulte" not in texts["pt"]


@pytest.mark.parametrize(
    "language, days, button",
    [
        ("en", 1, "Renew for 1 day"),
        ("en", 90, "Renew for 90 days"),
        ("ru", 1, "Продлить на 1 день"),
        ("ru", 3, "Продлить на 3 дня"),
        ("ru", 90, "Продлить на 90 дней"),
        ("fr", 1, "Renouveler pour 1 jour"),
    ],
)
def test_the_renewal_reminder_counts_days_by_the_plural_rules(language: str, days: int, button: str) -> None:
    message = renewal_reminder("a@example.org", date(2027, 2, 13), days, "https://x/r", language)
    assert message.html is not None and f">{button}</a>" in message.html


@pytest.mark.parametrize("language", ["ru", "pt"])
def test_russian_and_portuguese_server_texts_write_one_ellipsis_and_the_sites_words(language: str) -> None:
    texts = catalogue_texts(language)
    assert [text for text in texts if "..." in text] == []
    # The archive's README names things as the site's screens do (issue 30).
    site = (Path(__file__).parents[2] / "ui/src/i18n/screens" / f"{language}.ts").read_text(encoding="utf-8")
    title, steps = CATALOGUES[language].archive_title, CATALOGUES[language].archive_steps
    readme = " ".join([title, *steps])
    words = {
        "ru": [
            "QR-код",
            "сетях с ограничениями",
            "«Открыть в OpenVPN Connect»",
            "в экспериментальном режиме",
        ],
        "pt": ["QR code", "redes restritivas", "“Abrir no OpenVPN Connect”"],
    }[language]
    for word in words:
        assert word in readme and word in site, word
    if language == "pt":
        assert not [text for text in texts if re.search(r"\b(a|da|na|pela|à) vpnsite\b", text, re.IGNORECASE)]
        assert "código QR" not in readme and "redes restritas " not in readme


def test_a_wrong_type_reads_as_a_person_says_it() -> None:
    assert field_text("wrong_type", "ru", expected="string") == "Здесь нужно указать текст."
    assert field_text("wrong_type", "ru", expected="integer") == "Здесь нужно указать целое число."
    assert field_text("wrong_type", "pt", expected="string") == "Este campo precisa conter um texto."
    assert field_text("wrong_type", "pt", expected="object") == "Este campo precisa conter um objeto JSON."
