"""The French and Spanish texts the server writes (e-mails, API details, the archive's README) read
as a native reader writes them, with the website's words for the same things (issue 30)."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from tests.catalogue_texts import catalogue_texts
from vpnsite_adapters.http.messages import detail_text, field_text
from vpnsite_adapters.mail.templates import renewal_reminder
from vpnsite_adapters.texts.catalogue import CATALOGUES

SCREENS = Path(__file__).parents[2] / "ui" / "src" / "i18n" / "screens"


def test_french_puts_a_no_break_space_before_high_punctuation_and_elides() -> None:
    # An HTTP header is quoted as it is written.
    french = [text.replace("Content-Type: application/json", "") for text in catalogue_texts("fr")]
    assert [text for text in french if re.search(r"[^\u00a0\u202f](?=[:;?!](\s|$))", text)] == []
    unelided = re.compile(
        r"(?<![^\W\d_’'-])(de|le|la|que|ne|se|ce|je|me|te|jusque|lorsque)\s+"
        r"(?=[aeiouàâéèêëîïôœùû]|h(eure|ôtel|ébergeur|abitude))",
        re.IGNORECASE,
    )
    assert [text for text in french if unelided.search(text)] == []


@pytest.mark.parametrize("language", ["fr", "es"])
def test_one_ellipsis_character_no_connection_logs_and_nothing_said_twice(language: str) -> None:
    assert [text for text in catalogue_texts(language) if "..." in text] == []
    # What the VPN servers keep is an active session, never "connection logs".
    assert [
        text
        for text in catalogue_texts(language)
        if re.search(r"journa(l|ux) de connexion|registros? de conexi", text, re.I)
    ] == []
    for code, text in CATALOGUES[language].details.items():
        words = re.findall(r"\w+", text.lower())
        phrases = [" ".join(words[i : i + 3]) for i in range(len(words) - 2)]
        assert len(phrases) == len(set(phrases)), (code, text)


def test_the_readme_uses_the_websites_words() -> None:
    french_site = (SCREENS / "fr.ts").read_text(encoding="utf-8")
    spanish_site = (SCREENS / "es.ts").read_text(encoding="utf-8")
    french = " ".join(CATALOGUES["fr"].archive_steps)
    spanish = " ".join(CATALOGUES["es"].archive_steps)
    for words in ("QR code", "réseaux restrictifs", "Ouvrir dans OpenVPN Connect"):
        assert words in french and words in french_site, words
    for words in ("código QR", "redes restrictivas", "Abrir en OpenVPN Connect"):
        assert words in spanish and words in spanish_site, words
    assert "code QR" not in french + french_site and "stricts" not in french and "toucher" not in french
    assert "redes estrictas" not in spanish + spanish_site


@pytest.mark.parametrize(
    "language, days, button",
    [
        ("es", 90, "Renovar otros 90 días"),
        ("es", 1, "Renovar otros 1 día"),
        ("fr", 90, "Renouveler pour 90 jours"),
    ],
)
def test_the_reminder_button_says_for_how_long(language: str, days: int, button: str) -> None:
    message = renewal_reminder("a@example.org", date(2027, 2, 13), days, "https://x/r", language)
    assert message.html is not None and f">{button}</a>" in message.html


def test_the_no_javascript_answers_read_as_sentences() -> None:
    assert detail_text("unavailable", "es").count("momento") <= 1
    wait = detail_text("rate_limited", "fr", seconds=30)
    assert wait == "Trop de requêtes. Réessayez dans 30\u00a0secondes."
    assert detail_text("rate_limited", "es", seconds=30).endswith("dentro de 30\u00a0segundos.")
    assert field_text("wrong_type", "fr", expected="string") == "Ce champ doit contenir du texte."
    assert field_text("wrong_type", "es", expected="integer") == "Este campo debe contener un número entero."
    # Spanish says a million with "de" after it: the count stands alone, not before "plazas".
    assert "las 1.000.000 están ocupadas" in detail_text("free_tier_full", "es", cap=1_000_000)
