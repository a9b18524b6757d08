"""The status page's labels in the visitor's language, system services as up or down, and social
proof that tells the truth at every size of service: the words for a new one below the threshold,
counts in both forms above a million (phones show the short one). That nothing moves when the
script takes over or a count changes is test_flows.py's layout test."""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

NBSP = "\u00a0"


def open_page(browser: Any, server: Any, path: str, width: int = 1280, script: bool = True) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": 844}, base_url=server.base, java_script_enabled=script
    )
    page = context.new_page()
    page.goto(path, wait_until="networkidle")
    return page


@pytest.fixture
def young(make_server: Any) -> Any:
    """A demo service nobody has signed up to yet."""
    return make_server(rate_limits="off", demo="true")


@pytest.mark.parametrize("script", [True, False])
def test_a_young_service_says_it_is_new_instead_of_a_small_number(
    browser: Any, young: Any, script: bool
) -> None:
    for users in (0, 1, 99):
        young.set_users(users)
        for prefix, launched, words, join in (
            ("", "Just launched", "New: be among the first users", "Be one of our first users today"),
            (
                "/fr",
                "Tout juste lancé",
                f"Nouveau{NBSP}: soyez parmi les premiers",
                "Soyez dès aujourd’hui parmi nos premiers utilisateurs",
            ),
        ):
            home = open_page(browser, young, prefix or "/", script=script)
            expect(home.locator("[data-testid=home-user-count]")).to_have_text(launched)
            expect(home.locator(".user-badge")).to_have_text(words)
            # The servers online are the snapshot's, not a number typed into the page.
            servers = requests.get(young.base + "/api/server-status", timeout=5).json()["summary"]
            shown = home.locator("[data-testid=home-servers]").inner_text()
            assert int(shown) <= servers["vpn_servers_count"]
            home.context.close()
            status = open_page(browser, young, f"{prefix}/server-status", script=script)
            expect(status.locator("[data-testid=user-count]")).to_have_text(launched)
            expect(status.locator(".user-badge")).to_have_text(words)
            expect(status.locator(".closing h2")).to_have_text(join)
            assert not re.search(r"\d", status.locator(".user-badge").inner_text())
            status.context.close()


LABELS = {
    "ru": {
        "ranks": {"Очень высокая", "Высокая", "Средняя", "Низкая"},
        "ping": "Пинг",
        "load": "Нагрузка",
        "up": "Работает",
        "response": "Время отклика",
        "billing": "Не настроен",
        "ms": "мс",
    },
    "fr": {
        "ranks": {"Très élevée", "Élevée", "Moyenne", "Faible"},
        "ping": "Ping",
        "load": "Charge",
        "up": "Opérationnel",
        "response": "Temps de réponse",
        "billing": "Non configuré",
        "ms": "ms",
    },
}


@pytest.mark.parametrize("language", ["ru", "fr"])
def test_the_status_page_speaks_the_language_and_shows_services_up_or_down(
    browser: Any, server: Any, language: str
) -> None:
    labels = LABELS[language]
    page = open_page(browser, server, f"/{language}/server-status")
    vpn = page.locator("[data-testid=vpn-servers] li")
    expect(vpn).to_have_count(8)
    expect(page.locator("[data-testid=vpn-servers] .pill-online")).to_have_count(8, timeout=15000)
    for row in vpn.all():
        expect(row.locator(".metric-ping .muted")).to_have_text(labels["ping"])
        expect(row.locator(".metric-ping")).to_have_text(re.compile(rf"\d+ {labels['ms']}$"), timeout=15000)
        expect(row.locator(".metric-load .muted")).to_have_text(labels["load"])
        # "89 %": a no-break space before the sign, as the language writes a percentage.
        expect(row.locator(".load")).to_have_text(re.compile(rf"^\d{{1,3}}{NBSP}%$"))
        assert row.locator(".rank").inner_text() in labels["ranks"]
    system = page.locator("[data-testid=system-servers] li")
    # Billing is not configured on this server: not listed, rather than "not configured".
    expect(system).to_have_count(2)
    expect(page.locator(".status-live")).not_to_contain_text(labels["billing"])
    # No load beside a service: up or down, and how fast it answers.
    expect(page.locator("[data-testid=system-servers] .metric-load")).to_have_count(0)
    activation = system.nth(0)
    expect(activation.locator(".pill")).to_have_text(labels["up"])
    expect(activation.locator(".metric-ping .muted")).to_have_text(labels["response"])
    expect(activation.locator(".metric-ping")).to_have_text(re.compile(rf"\d+ {labels['ms']}$"))
    # Both lists share their columns: the status pills and the ping start at the same x.
    for selector in (".pill", ".metric-ping"):
        vpn_x = vpn.first.locator(selector).bounding_box()["x"]
        assert system.first.locator(selector).bounding_box()["x"] == pytest.approx(vpn_x, abs=0.5), selector
    page.context.close()


def test_phones_show_a_large_count_short_in_the_html_and_after_the_script(browser: Any, young: Any) -> None:
    young.set_users(1_234_567)
    for script in (False, True):
        phone = open_page(browser, young, "/", width=390, script=script)
        # What the visitor sees: the full form is in the page, hidden on phones.
        expect(phone.locator(".user-badge")).to_have_text("1.2m users", use_inner_text=True)
        expect(phone.locator("[data-testid=home-user-count]")).to_have_text("1.2m", use_inner_text=True)
        expect(phone.locator(".user-badge .count-full")).to_have_text("1,234,567 users")
        phone.context.close()
    wide = open_page(browser, young, "/ru/server-status")
    expect(wide.locator(".user-badge")).to_have_text(
        f"1{NBSP}234{NBSP}567 пользователей", use_inner_text=True
    )
    expect(wide.locator("[data-testid=user-count]")).to_have_text(f"1{NBSP}234{NBSP}567", use_inner_text=True)
    wide.context.close()
