"""The website with JavaScript turned off (Tor Browser at "Safest"): the forms post to the server
and its answers are the screens the script would show, the menus and the FAQ open as <details>,
and the status page and the user counts come in the HTML the server sends. English and Russian."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

TEXTS = {
    "en": {
        "prefix": "",
        "activated": "VPN activated",
        "dashboard": "Your licence",
        "typo": "This activation code contains a typo. Please check the 20 digits.",
        "sent": "Ticket submitted",
    },
    "ru": {
        "prefix": "/ru",
        "activated": "VPN активирован",
        "dashboard": "Ваша лицензия",
        "typo": "В коде активации опечатка. Проверьте все 20 цифр.",
        "sent": "Обращение отправлено",
    },
}
GROUP = {"en": ",", "ru": "\u00a0"}


@pytest.fixture
def page(browser: Any, server: Any) -> Iterator[Any]:
    context = browser.new_context(
        java_script_enabled=False, base_url=server.base, viewport={"width": 1280, "height": 900}
    )
    opened = context.new_page()
    yield opened
    context.close()


def users_now(server: Any) -> int:
    return int(requests.get(server.base + "/api/user-count", timeout=5).json()["user_count"])


def grouped(count: int, language: str) -> str:
    return f"{count:,}".replace(",", GROUP[language])


@pytest.mark.parametrize("language", ["en", "ru"])
def test_sign_up_shows_the_code_and_the_code_opens_the_dashboard(
    page: Any, server: Any, language: str
) -> None:
    texts = TEXTS[language]
    before = server.licences()
    page.goto(texts["prefix"] or "/")
    page.fill("#signup-email", f"nojs-{language}@example.org")
    page.locator("#signup button[type=submit]").click()
    expect(page.get_by_role("heading", name=texts["activated"])).to_be_visible()
    assert page.url.endswith(f"{texts['prefix']}/activation")
    code = page.locator("#activation-code").inner_text()
    assert re.fullmatch(r"\d{20}", code)
    assert server.licences() == before + 1
    expect(page.get_by_text(f"nojs-{language}@example.org")).to_be_visible()

    page.locator(".header-actions .login").click()
    page.fill("#licence-email", f"nojs-{language}@example.org")
    page.fill("#licence-code", code)
    page.locator("form.form button[type=submit]").click()
    expect(page.get_by_role("heading", name=texts["dashboard"])).to_be_visible()
    expect(page.locator(".dashboard code")).to_have_text(code)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_wrong_code_shows_the_servers_message(page: Any, server: Any, language: str) -> None:
    texts = TEXTS[language]
    page.goto(f"{texts['prefix']}/license")
    page.fill("#licence-email", "nobody@example.org")
    page.fill("#licence-code", "1234 5678 9012 3456 7890")
    page.locator("form.form button[type=submit]").click()
    expect(page.get_by_role("alert")).to_have_text(texts["typo"])
    expect(page.locator("#licence-email")).to_have_value("nobody@example.org")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_support_ticket_is_sent(page: Any, server: Any, language: str) -> None:
    texts = TEXTS[language]
    page.goto(f"{texts['prefix']}/support")
    page.fill("#support-email", f"help-{language}@example.org")
    page.fill("#support-message", "The app says the licence has ended.")
    page.locator("#contact button[type=submit]").click()
    expect(page.get_by_role("heading", name=texts["sent"])).to_be_visible()
    number = re.search(r"T-[0-9]{8}", page.locator(".sent").inner_text())
    assert number is not None and number.group(0) in server.tickets()


def test_the_language_menu_navigates(page: Any) -> None:
    page.goto("/server-status")
    page.locator("summary.language-button").click()
    page.get_by_role("link", name="Русский").click()
    page.wait_for_url(re.compile(r"/ru/server-status$"))
    assert page.evaluate("document.documentElement.lang") == "ru"


def test_the_mobile_menu_navigates(browser: Any, server: Any) -> None:
    context = browser.new_context(
        java_script_enabled=False, base_url=server.base, viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    page.goto("/ru")
    expect(page.locator("#mobile-nav")).to_be_hidden()
    page.locator("summary.menu-button").click()
    page.locator("#mobile-nav").get_by_role("link", name="Поддержка").click()
    page.wait_for_url(re.compile(r"/ru/support$"))
    context.close()


def test_an_faq_answer_opens(page: Any) -> None:
    page.goto("/ru/support")
    first = page.locator(".faq-item").first
    expect(first.locator(".faq-answer")).to_be_hidden()
    first.locator("summary").click()
    expect(first.locator(".faq-answer")).to_be_visible()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_status_page_and_the_counts_are_in_the_html(page: Any, server: Any, language: str) -> None:
    texts = TEXTS[language]
    # A service past the threshold below which pages say it is new instead of counting.
    server.set_users(4321)
    page.goto(f"{texts['prefix']}/server-status")
    expect(page.locator("[data-testid=vpn-servers] li")).to_have_count(8)
    expect(page.locator("[data-testid=vpn-servers] .pill-online")).to_have_count(8)
    expect(page.locator(".skeleton")).to_have_count(0)
    count = users_now(server)
    expect(page.locator("[data-testid=user-count]")).to_have_text(grouped(count, language))
    # The footer's words around the count are the dictionary's; the number is the snapshot's.
    shown = re.escape(grouped(count, language))
    expect(page.locator(".user-badge")).to_have_text(re.compile(rf"(^|\D){shown}(\D|$)"))
    page.goto(texts["prefix"] or "/")
    expect(page.locator("[data-testid=home-user-count]")).to_have_text(grouped(users_now(server), language))
    html = page.content()
    assert "1,285" not in html and "1,200" not in html and "__SLOT_" not in html


def test_an_answer_pages_form_posts_again(page: Any, server: Any) -> None:
    """A refused sign-up answers the home page with its form: corrected, it posts from there."""
    page.goto("/ru")
    page.fill("#signup-email", "dot.@example.org")
    page.locator("#signup button[type=submit]").click()
    expect(page.get_by_role("alert")).to_have_text("Введите корректный адрес e-mail.")
    expect(page.locator("#signup-email")).to_have_value("dot.@example.org")
    page.fill("#signup-email", "corrected@example.org")
    page.locator("#signup button[type=submit]").click()
    expect(page.get_by_role("heading", name=TEXTS["ru"]["activated"])).to_be_visible()
