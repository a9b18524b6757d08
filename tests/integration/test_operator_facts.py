"""The operator's own facts come from its file (``VPNSITE_OPERATOR_FACTS``), not from the build: the
About page's founder, what is ready, investment and roadmap, the source code link, and who has
access to the servers in the terms; the shipped default is today's content, with the financial
promotion notice and every amount in its own currency (issue 39, point 4)."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from tests.integration.processes import vpnsite
from tests.integration.test_status_page import PRERENDER, rendered_by_the_script
from tests.site_map import LANGUAGES, localised
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.http.pages.about_facts import AboutPieces
from vpnsite_adapters.http.pages.site import SITE_DIR
from vpnsite_adapters.operator_files.facts import (
    DEFAULT_FILE,
    Money,
    default_operator_facts,
    read_operator_facts,
)
from vpnsite_adapters.settings import SettingsError, load_settings
from vpnsite_contract.structuring import unstructure

if not (SITE_DIR / "forms" / "about.json").is_file():
    reason = f"the website is not built in {SITE_DIR} (run `python build_ui.py`)"
    if os.environ.get("CI") == "true":
        raise RuntimeError(reason + "; under CI=true the website tests must run")
    pytest.skip(reason, allow_module_level=True)

SHIPPED: dict[str, Any] = json.loads(DEFAULT_FILE.read_text(encoding="utf-8"))
# The notice a UK financial promotion needs, in each language: not an offer, not approved by an
# FCA-authorised person, capital at risk, for information only.
NOTICE = {
    "en": [
        "Not an offer",
        "not been approved by a person authorised by the Financial Conduct Authority",
        "capital at risk",
        "for information only",
    ],
    "ru": [
        "Это не предложение",
        "не одобрен лицом, имеющим разрешение",
        "(FCA)",
        "риском для капитала",
        "исключительно информационный",
    ],
    "es": [
        "No es una oferta",
        "no ha sido aprobada por una persona autorizada",
        "(FCA)",
        "capital en riesgo",
        "solo informativa",
    ],
    "fr": [
        "Ceci n’est ni une offre",
        "n’a pas été approuvée par une personne agréée",
        "(FCA)",
        "expose votre capital à un risque",
        "à titre d’information uniquement",
    ],
    "pt": [
        "Isto não é uma oferta",
        "não foi aprovada por uma pessoa autorizada",
        "(FCA)",
        "capital em risco",
        "apenas informativa",
    ],
}
# The minimum start in each language: each currency's own total, said to be not converted.
MINIMUM = {
    "en": "US$60,000 + €3,600 (in different currencies, not converted)",
    "ru": "60\u00a0000\u00a0$ + 3\u00a0600\u00a0€ (в разных валютах, без пересчёта)",
    "es": "60.000\u00a0US$ + 3600\u00a0€ (en distintas monedas, sin convertir)",
    "fr": "60\u202f000\u00a0$US + 3\u202f600\u00a0€ (en plusieurs devises, sans conversion)",
    "pt": "US$\u00a060.000 + €\u00a03.600 (em moedas diferentes, sem conversão)",
}
OURS: dict[str, Any] = {
    "source_code": "https://git.example.org/acme/vpn",
    "founder": {"experience_years": 7, "director_since": 2019},
    "amounts": {
        "seed": {"amount": 20000, "currency": "GBP"},
        "hosting": {"amount": 500, "currency": "EUR"},
        "total": {"sum": ["seed", "hosting"]},
    },
    "platform_costs": [{"label": "Android & <iOS>", "amount": 8000, "currency": "GBP"}],
    "languages": {
        language: {
            "founder": "{founder} — {years} / {since}",
            "server_access": f"Two engineers <{language}> & nobody else.",
            "ready": [f"Ready {language} 1", "Ready & <b>2</b>"],
            "investment": {
                "notice": f"Notice {language}.",
                "paragraphs": ["Seed {seed}, hosting {hosting}: {total}."],
                "mixed": "{amounts} [mixed]",
            },
            "roadmap": [
                {"title": "Start", "items": ["One"], "duration": "Done"},
                {"title": "Grow", "items": ["Two", "Three"], "cost": "{seed}", "duration": "1 year"},
            ],
        }
        for language in LANGUAGES
    },
}


def write(tmp_path: Path, content: Any) -> Path:
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(content) if not isinstance(content, str) else content, encoding="utf-8")
    return path


def text_of(page: str, section: str) -> str:
    """A section's visible text, its heading left out."""
    found = re.search(rf'<section id="{section}"><h2>.*?</h2>(.*?)</section>', page, re.DOTALL)
    assert found is not None, section
    # Spaces and line breaks only: the no-break spaces of numbers are the page's words.
    return re.sub(r"[ \t\n]+", " ", unescape(re.sub(r"<[^>]+>", " ", found.group(1)))).strip()


def test_the_shipped_facts_add_up() -> None:
    facts = default_operator_facts()
    amount = dict(facts.amounts)
    assert facts.platform_total == amount["apps"]
    assert amount["servers_year"][0].amount == 12 * amount["servers_100"][0].amount
    assert amount["servers_three_years"][0].amount == 36 * amount["servers_1000"][0].amount
    campaigns = amount["first_campaign"][0].amount + amount["second_campaign"][0].amount
    assert campaigns == amount["campaigns_optimal"][0].amount
    # A total of two currencies is two totals, never one in dollars.
    assert amount["minimum"] == (Money(60000, "USD"), Money(3600, "EUR"))
    assert amount["optimal"] == (Money(160000, "USD"), Money(108000, "EUR"))
    assert all(len(facts.of(language).roadmap) == 9 for language in LANGUAGES)


def test_the_about_page_with_the_shipped_facts(client: Any) -> None:
    for language in LANGUAGES:
        page = client.get(localised("/about", language)).get_data(as_text=True)
        founder = text_of(page, "founder")
        assert "15" in founder and "2015" in founder and "{" not in founder, language
        investment = text_of(page, "investment")
        for words in NOTICE[language]:
            assert words in investment, (language, words)
        # The notice comes first, before any amount.
        first_amount = MINIMUM[language].split(" ")[0]
        assert investment.index(NOTICE[language][0]) < investment.index(first_amount), language
        assert MINIMUM[language] in investment, language
        assert not re.search(r"65[,.\s\u00a0\u202f]000|270[,.\s\u00a0\u202f]000", investment), language
        assert 'href="/source/vpnsite-source.tar.gz"' in page
        assert len(re.findall(r'<li class="card"><h3>', page)) == 9
        terms = client.get(localised("/terms", language)).get_data(as_text=True)
        assert unescape(SHIPPED["languages"][language]["server_access"]) in unescape(text_of(terms, "access"))
    ready = text_of(client.get("/about").get_data(as_text=True), "ready")
    assert "Sign up with only an e-mail address" in ready and "every 10 seconds" not in ready
    spanish = text_of(client.get("/es/about").get_data(as_text=True), "investment")
    assert "Inversión inicial mínima" in spanish and "Arranque mínimo" not in spanish
    portuguese = text_of(client.get("/pt/about").get_data(as_text=True), "roadmap")
    assert "Vagas gratuitas esgotadas" in portuguese
    assert "Aporte inicial mínimo" in text_of(client.get("/pt/about").get_data(as_text=True), "investment")
    assert "Plazas gratuitas agotadas" in text_of(client.get("/es/about").get_data(as_text=True), "roadmap")


def test_the_about_page_with_an_operators_file(make_hub: Any, tmp_path: Path) -> None:
    hub = make_hub(
        operator_facts=write(tmp_path, OURS),
        operator_name="Acme VPN Ltd",
        operator_number="12345678",
        operator_address="1 Road, London",
        operator_email="ops@example.org",
        operator_founder="Ann O'Neill",
    )
    client = create_app(hub.services).test_client()
    for language in LANGUAGES:
        page = client.get(localised("/about", language)).get_data(as_text=True)
        assert text_of(page, "founder") == "Ann O'Neill — 7 / 2019"
        assert text_of(page, "ready") == f"Ready {language} 1 Ready & <b>2</b>"
        assert "<b>2</b>" not in page and "Ready &amp; &lt;b>2&lt;/b>" in page
        investment = text_of(page, "investment")
        assert investment.index(f"Notice {language}.") < investment.index("Seed")
        assert "[mixed]" in investment and "+" in investment and "€" in investment
        assert "£" in investment or "GBP" in investment
        assert "Android & <iOS>" in investment
        assert 'href="https://git.example.org/acme/vpn"' in page and "github.com" not in page
        roadmap = text_of(page, "roadmap")
        assert "Start" in roadmap and "Grow" in roadmap and "1 year" in roadmap
        assert len(re.findall(r'<li class="card"><h3>', page)) == 2
        assert "15" not in text_of(page, "founder")
        terms = unescape(client.get(localised("/terms", language)).get_data(as_text=True))
        assert f"Two engineers <{language}> & nobody else." in terms
        assert "Only one specialist" not in terms and "un seul spécialiste" not in terms.lower()
        answer = client.get("/api/about", query_string={"language": language}).get_json()
        assert answer["founder"] == "Ann O'Neill — 7 / 2019" and answer["ready"][0] == f"Ready {language} 1"
        data = re.search(r'<script type="application/json" id="vpnsite-about">(.*?)</script>', page)
        assert data is not None and json.loads(data.group(1)) == answer


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda facts: facts.pop("source_code"), "missing source_code"),
        (lambda facts: facts.update(source_code="javascript:alert(1)"), "https://"),
        # A path on this site is taken (the shipped default is one), another host's is not.
        (lambda facts: facts.update(source_code="//evil.example/src.tar.gz"), "a path on this site"),
        (lambda facts: facts.update(source_code="/source/a b.tar.gz"), "https://"),
        (lambda facts: facts["founder"].update(experience_years="15"), "experience_years"),
        (lambda facts: facts["amounts"]["seed"].update(currency="XBT"), "currency must be one of"),
        (
            lambda facts: facts["amounts"]["total"].update(sum=["seed", "nothing"]),
            "'nothing' is not an amount",
        ),
        (lambda facts: facts["amounts"]["seed"].update(amount=10.5), "must be whole"),
        (lambda facts: facts["languages"].pop("pt"), "missing pt"),
        (
            lambda facts: facts["languages"]["ru"]["investment"]["paragraphs"].append("{unknown}"),
            "{unknown} names nothing",
        ),
        (
            lambda facts: facts["languages"]["fr"]["investment"].update(mixed="no amounts"),
            "must hold {amounts}",
        ),
        (lambda facts: facts["languages"]["es"].update(ready=[]), "not empty"),
        (lambda facts: facts["languages"]["en"].update(server_access="a\u202eb"), "control or invisible"),
        (lambda facts: facts["languages"]["en"].update(photo="x"), "unknown field 'photo'"),
    ],
)
def test_a_wrong_file_is_a_clear_settings_error(tmp_path: Path, change: Any, says: str) -> None:
    facts = copy.deepcopy(OURS)
    change(facts)
    with pytest.raises(SettingsError, match="VPNSITE_OPERATOR_FACTS") as raised:
        load_settings(
            {"VPNSITE_OPERATOR_FACTS": str(write(tmp_path, facts))}, env_file=None, data_dir=tmp_path / "d"
        )
    assert says in str(raised.value)


def test_a_file_that_is_not_json_or_not_there_is_a_clear_settings_error(tmp_path: Path) -> None:
    for path, says in (
        (write(tmp_path, "{"), "not JSON"),
        (tmp_path / "missing.json", "cannot read the file"),
    ):
        with pytest.raises(SettingsError, match="VPNSITE_OPERATOR_FACTS") as raised:
            load_settings({"VPNSITE_OPERATOR_FACTS": str(path)}, env_file=None, data_dir=tmp_path / "d")
        assert says in str(raised.value)


def test_serve_refuses_to_start_with_a_wrong_file(environment: dict[str, str], tmp_path: Path) -> None:
    for path in (write(tmp_path, {"source_code": "https://example.org"}), tmp_path / "missing.json"):
        result = vpnsite("serve", env={**environment, "VPNSITE_OPERATOR_FACTS": str(path)})
        assert result.returncode == 2, result.stderr
        assert "VPNSITE_OPERATOR_FACTS" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.skipif(
    shutil.which("node") is None or not PRERENDER.is_file(), reason="Node.js or the prerender is missing"
)
def test_the_server_puts_the_facts_together_as_the_script_draws_them(tmp_path: Path) -> None:
    pieces = AboutPieces.load(SITE_DIR / "forms" / "about.json")
    cases, expected = [], []
    for facts in (default_operator_facts(), read_operator_facts(write(tmp_path, OURS))):
        for language in LANGUAGES:
            data = pieces.data(facts, language, "Zoë O'Brien")
            _, raw = pieces.blocks(data, language)
            cases.append(("renderAboutFacts", unstructure(data), language))
            expected.append(
                b"\n".join([raw["ABOUT_READY"], raw["ABOUT_INVESTMENT"], raw["ABOUT_ROADMAP"]]).decode()
            )
    for case, drawn, block in zip(cases, rendered_by_the_script(cases), expected, strict=True):
        assert block == drawn, case[2]
