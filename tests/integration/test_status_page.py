"""What the server writes into pages equals, byte for byte, what the website's script renders:
the status page's live block for a snapshot (http/pages/status_page.py); counts, dates, "{n} days" and
the texts counting users (http/pages/page_formats.py), with the plural rules Intl applies, the words for
a new service below the script's threshold and both forms of a count above a million; in the five
languages."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from datetime import UTC, date, datetime
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.http.pages.page_formats import PageFormats
from vpnsite_adapters.http.pages.site import SITE_DIR
from vpnsite_adapters.http.pages.status_page import StatusPage
from vpnsite_adapters.jobs.status_snapshot import Encoded
from vpnsite_adapters.texts.formatting import format_moment, format_short, plural_category
from vpnsite_adapters.texts.languages import LANGUAGES
from vpnsite_contract.structuring import structure
from vpnsite_contract.website import ServerStatus

PRERENDER = Path(__file__).parents[2] / "ui" / "dist-ssr" / "prerender.mjs"
# Each case names an export of the prerender module and its arguments; the answer is its result.
_RENDER = """
const module = await import(process.argv[1]);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const cases = JSON.parse(input);
process.stdout.write(JSON.stringify(cases.map(([name, ...args]) => module[name](...args))));
"""


def _missing() -> str | None:
    if shutil.which("node") is None:
        return "Node.js is not installed"
    if not PRERENDER.is_file() or not (SITE_DIR / "forms" / "status.json").is_file():
        return "the website is not built (python build_ui.py)"
    return None


if _missing():
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{_missing()}; under CI=true this test must run")
    pytest.skip(str(_missing()), allow_module_level=True)


def server(id: str, flag: str, status: str, ping: int | None, load: str, rank: str) -> dict[str, Any]:
    return {
        "id": id,
        "name": f"{flag.upper()} <server> & co",
        "flag": flag,
        "location": "Somewhere",
        "status": status,
        "ping": ping,
        "load": load,
        "sessions": 3,
        "rank": rank,
        "popularity": rank.replace("_", " "),
        "popularity_ru": "средняя",
        "popularity_by_language": {
            "en": "medium",
            "es": "media",
            "ru": "средняя",
            "fr": "moyenne",
            "pt": "média",
        },
    }


def snapshot(users: int, demo: bool, cap: int = 1_000_000) -> dict[str, Any]:
    """The status answer's body, made by hand as the service sends it: every field of a
    ServerStatus (``Encoded.of`` is given it structured, so a field left out fails here)."""
    return {
        "vpn_servers": [
            server("nl-1", "nl", "online", 12, "29%", "very_high"),
            server("us-1", "us", "online", 140, "30%", "high"),
            server("ch-1", "ch", "offline", None, "0%", "low"),
            server("xx-1", "xx", "online", 7, "100%", "medium"),
        ],
        "system_servers": [
            {"id": "activation-server", "location": "Hub", "status": "online", "ping": 1, "load": "69%"},
            {"id": "hub-server", "location": "Hub", "status": "offline", "ping": None, "load": "70%"},
            {"id": "billing", "location": "Hub", "status": "online", "ping": 41, "load": None},
        ],
        "summary": {
            "vpn_servers_count": 4,
            "vpn_servers_online": 3,
            "system_servers_count": 3,
            "user_count": users,
            "free_tier_cap": cap,
            "demo": demo,
            "updated_at": 1_776_000_000,
        },
    }


FORMATS = PageFormats.load(SITE_DIR / "forms" / "formats.json")


def rendered_by_the_script(cases: list[tuple[Any, ...]]) -> list[Any]:
    answer = subprocess.run(
        ["node", "--input-type=module", "-e", _RENDER, PRERENDER.as_uri()],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return list(json.loads(answer.stdout))


def test_counts_dates_and_days_are_the_scripts() -> None:
    counts = (
        0,
        1,
        2,
        4,
        5,
        11,
        21,
        22,
        25,
        90,
        99,
        100,
        101,
        111,
        999,
        1000,
        1001,
        1234,
        12_345,
        1_000_000,
        1_000_001,
        1_049_999,
        1_050_000,
        1_234_567,
        1_999_999,
        2_000_001,
        21_000_000,
        9_960_000,
        12_345_678,
        999_949_999,
        999_950_000,
        999_999_999,
        1_000_000_000,
        1_234_567_890,
        12_345_678_901,
    )
    cases = [("formatSamples", count, "2027-02-13", language) for count in counts for language in LANGUAGES]
    for (_, count, _, language), expected in zip(cases, rendered_by_the_script(cases), strict=True):
        formats = FORMATS[language]
        found = [formats.count(count), formats.date(date(2027, 2, 13)), formats.days_text(count)]
        assert found == expected[:3], (count, language)
        counted = {name: markup.decode() for name, markup in formats.counted(count).items()}
        assert counted == expected[3], (count, language)


def test_short_counts_and_moments_are_the_scripts() -> None:
    counts = [
        base * 10**power + extra
        for base in (1, 12, 15, 19, 21, 95, 999, 9995)
        for power in range(4, 12)
        for extra in (0, 1, 49_999)
        if base * 10**power + extra > 1_000_000
    ]
    # Midnight on the first of a month (French "1er"), a minute before midnight, a leap day.
    moments = [
        int(datetime(*moment, tzinfo=UTC).timestamp())
        for moment in ((2027, 3, 1, 0, 0), (2027, 2, 28, 23, 59), (2028, 2, 29, 13, 5), (2026, 11, 1, 7, 5))
    ]
    cases = [
        ("shortAndMoment", count, moments[index % len(moments)], language)
        for index, count in enumerate(counts)
        for language in LANGUAGES
    ]
    for (_, count, seconds, language), expected in zip(cases, rendered_by_the_script(cases), strict=True):
        assert [format_short(count, language), format_moment(seconds, language)] == expected, (
            count,
            language,
        )


def test_the_servers_plural_rules_pick_what_intl_picks() -> None:
    counts = [
        *range(0, 2_001),
        *(
            base * 10**power + extra
            for base in (1, 2, 5, 11, 21)
            for power in range(3, 10)
            for extra in (0, 1)
        ),
    ]
    cases = [("pluralCategories", counts, language) for language in LANGUAGES]
    for (_, _, language), categories in zip(cases, rendered_by_the_script(cases), strict=True):
        found = [plural_category(count, language) for count in counts]
        wrong = [
            (n, ours, intl) for n, ours, intl in zip(counts, found, categories, strict=True) if ours != intl
        ]
        assert not wrong, (language, wrong[:5])


def _text(page: str, start: str, end: str) -> str:
    return unescape(page.split(start, 1)[1].split(end, 1)[0])


def _markup(page: str, start: str, end: str) -> str:
    return page.split(start, 1)[1].split(end, 1)[0]


@pytest.mark.parametrize("users", [0, 1, 2, 5, 21, 99, 100, 101, 1_000_000, 1_234_567])
def test_served_pages_count_users_as_the_script_does(make_hub: Any, users: int) -> None:
    services = make_hub(public_url="https://vpn.example").services
    client = create_app(services).test_client()
    services.snapshot.users = users
    services.snapshot.server_status = Encoded.of(structure(snapshot(users, False), ServerStatus))
    cases = [("formatSamples", users, "2027-02-13", language) for language in LANGUAGES]
    for (_, _, _, language), expected in zip(cases, rendered_by_the_script(cases), strict=True):
        prefix = "" if language == "en" else f"/{language}"
        home = client.get(prefix or "/").get_data(as_text=True)
        status = client.get(f"{prefix}/server-status").get_data(as_text=True)
        counted = expected[3]
        for page in (home, status):
            badge = _markup(page, 'class="user-badge">', "</a>")
            assert badge == f'<span aria-hidden="true" class="dot online"></span>{counted["FOOTER_USERS"]}', (
                language
            )
        assert _markup(home, '<dd data-testid="home-user-count">', "</dd>") == counted["USERS"], language
        assert (
            _markup(status, '<strong data-testid="user-count" class="big-number">', "</strong>")
            == counted["USERS"]
        )
        assert _markup(status, '<div class="closing"><h2>', "</h2>") == counted["JOIN_USERS"], language


@pytest.mark.parametrize("users", [0, 1, 99])
def test_a_young_service_says_it_is_new_instead_of_a_small_number(make_hub: Any, users: int) -> None:
    services = make_hub(public_url="https://vpn.example").services
    client = create_app(services).test_client()
    services.snapshot.users = users
    services.snapshot.server_status = Encoded.of(structure(snapshot(users, False), ServerStatus))
    for language, words, launched in (
        ("en", "New: be among the first users", "Just launched"),
        ("ru", "станьте одним из первых", "Мы только открылись"),
    ):
        prefix = "" if language == "en" else f"/{language}"
        for path in (prefix or "/", f"{prefix}/server-status", f"{prefix}/support"):
            page = client.get(path).get_data(as_text=True)
            badge = _text(page, 'class="user-badge">', "</a>")
            assert words in badge and not any(c.isdigit() for c in badge), (path, badge)
        home = client.get(prefix or "/").get_data(as_text=True)
        assert launched in _text(home, '<dd data-testid="home-user-count">', "</dd>")


def test_the_servers_block_is_the_scripts_block() -> None:
    cases = [
        ("renderStatusBlock", snapshot(users, demo, cap), language)
        for users, demo, cap in (
            (0, True, 1_000_000),
            (99, False, 1_000_000),
            (100, False, 1_000_000),
            (625, False, 1_000_000),
            (1285, True, 1_000_000),
            (10_000, False, 1_000_000),
            (1_000_000, False, 1_000_000),
            (2_500_000, False, 1_000_000),
            # The operator's own cap, as the snapshot tells it: a 5,000-user free tier.
            (1285, False, 5000),
            (12_345, False, 5000),
            (625, False, 0),
        )
        for language in LANGUAGES
    ]
    page = StatusPage.load(SITE_DIR / "forms" / "status.json")
    formats = FORMATS
    for (_, data, language), expected in zip(cases, rendered_by_the_script(cases), strict=True):
        assert page.block(language, data, formats[language]).decode() == expected, (
            language,
            data["summary"],
        )


def test_the_status_page_is_sent_with_the_snapshot(make_hub: Any) -> None:
    services = make_hub(public_url="https://vpn.example").services
    client = create_app(services).test_client()
    data = snapshot(1285, True)
    data["vpn_servers"][3]["name"] = "</script><script>alert(1)</script>"
    services.snapshot.server_status = Encoded.of(structure(data, ServerStatus))
    services.snapshot.users = 1285
    page = client.get("/fr/server-status").get_data(as_text=True)
    assert "__SLOT_" not in page and "skeleton" not in page
    assert page.count('<li class="server-row">') == 4 and page.count('<li class="server-row system">') == 3
    assert "<strong>Pays-Bas</strong>" in page and "ces serveurs sont simulés." in page
    assert "1\u202f285" in page
    carried = page.split('<script type="application/json" id="vpnsite-status">')[1].split("</script>")[0]
    assert json.loads(carried) == data
    assert "<script>alert" not in page
