"""Where a visitor lands after a form, on a phone (390 px) and a desktop (1280 px), with and without
JavaScript (issue 30): a sent ticket's confirmation takes the focus in view, above the FAQ; the
activation result's heading takes the focus after a sign-up; the dashboard survives a language
switch without the code going into an address or the browser's storage; a refusal says how long to
wait in words; the FAQ's search box shows only where it works; a menu closes when the focus leaves."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.conftest import page_in

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
SCRIPT = {"script": True, "no script": False}

WHOLLY_IN_VIEW = """(element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight && box.height > 0;
}"""
# What has the focus: the element's tag and its text.
FOCUSED = "() => [document.activeElement.tagName, document.activeElement.textContent.trim()]"
STORAGE = """() => JSON.stringify([
    Object.entries(localStorage), Object.entries(sessionStorage), document.cookie, location.href
])"""


@pytest.fixture(params=list(WIDTHS), ids=list(WIDTHS))
def width(request: pytest.FixtureRequest) -> dict[str, int]:
    return WIDTHS[request.param]


@pytest.fixture(params=list(SCRIPT), ids=list(SCRIPT))
def script(request: pytest.FixtureRequest) -> bool:
    return SCRIPT[request.param]


@contextmanager
def opened(browser: Any, server: Any, viewport: dict[str, int], javascript: bool) -> Iterator[Any]:
    phone = viewport["width"] < 500
    context = browser.new_context(
        base_url=server.base,
        java_script_enabled=javascript,
        viewport=viewport,
        is_mobile=phone,
        has_touch=phone,
    )
    with page_in(context) as page:
        yield page


@pytest.fixture
def visitor(browser: Any, server: Any, width: dict[str, int], script: bool) -> Iterator[Any]:
    with opened(browser, server, width, script) as page:
        yield page


def focused(page: Any) -> list[str]:
    found: list[str] = page.evaluate(FOCUSED)
    return found


def wholly_in_view(page: Any, selector: str) -> bool:
    return bool(page.locator(selector).evaluate(WHOLLY_IN_VIEW))


def sign_up(page: Any, email: str, path: str = "/") -> str:
    page.goto(path)
    page.fill("#signup-email", email)
    page.click("#signup button[type=submit]")
    groups = page.locator("#activation-code .code-group")
    expect(groups).to_have_count(5, timeout=15000)
    code = "".join(groups.all_inner_texts())
    assert re.fullmatch(r"\d{20}", code), code
    return code


def test_a_sent_tickets_confirmation_has_the_focus_in_view(visitor: Any, server: Any) -> None:
    visitor.goto("/support")
    visitor.fill("#support-email", "sent@example.org")
    visitor.fill("#support-message", "The app says the licence has ended.")
    send = visitor.locator("#contact button[type=submit]")
    send.scroll_into_view_if_needed()
    send.click()
    expect(visitor.get_by_role("heading", name="Ticket submitted")).to_be_focused()
    assert focused(visitor) == ["H2", "Ticket submitted"]
    # Neither thirteen questions above it nor the sticky header over it.
    visitor.wait_for_function(
        """() => {
            const box = document.querySelector(".sent").getBoundingClientRect();
            const header = document.querySelector(".site-header").getBoundingClientRect();
            return box.top >= header.bottom && box.bottom <= innerHeight;
        }""",
        timeout=5000,
    )
    # In one column it comes before the FAQ, not under its thirteen questions.
    above_the_faq = visitor.evaluate(
        "() => document.querySelector('.sent').getBoundingClientRect().bottom"
        " <= document.querySelector('.faq').getBoundingClientRect().top"
    )
    assert above_the_faq is (visitor.viewport_size["width"] <= 960)
    number = re.search(r"T-[0-9]{8}", visitor.locator(".sent").inner_text())
    assert number is not None and number.group(0) in server.tickets()


def test_the_activation_results_heading_has_the_focus_after_a_sign_up(visitor: Any) -> None:
    sign_up(visitor, "focus-after-sign-up@example.org", "/ru")
    expect(visitor.get_by_role("heading", name="VPN активирован")).to_be_focused()
    assert focused(visitor) == ["H1", "VPN активирован"]
    assert wholly_in_view(visitor, "h1")


def licence_in(page: Any) -> dict[str, str]:
    return {
        "heading": page.locator("h1").inner_text(),
        "code": "".join(page.locator(".dashboard .code-group").all_inner_texts()),
        "lang": page.evaluate("document.documentElement.lang"),
    }


def test_switching_language_on_the_dashboard_keeps_the_licence(visitor: Any, script: bool) -> None:
    email = f"switch-dashboard-{'js' if script else 'nojs'}-{visitor.viewport_size['width']}@example.org"
    code = sign_up(visitor, email)
    visitor.goto("/license")
    visitor.fill("#licence-email", email)
    visitor.fill("#licence-code", code)
    visitor.locator("form.form button[type=submit]").click()
    expect(visitor.get_by_role("heading", name="Your licence", exact=True)).to_be_focused()

    for language, name, heading in (("fr", "Français", "Votre licence"), ("es", "Español", "Tu licencia")):
        visitor.locator("summary.language-button").click()
        visitor.locator(".language-list").get_by_role("button", name=name).click()
        visitor.wait_for_url(re.compile(rf"/{language}/license$"))
        expect(visitor.get_by_role("heading", name=heading, exact=True)).to_be_focused()
        assert licence_in(visitor) == {"heading": heading, "code": code, "lang": language}
        assert focused(visitor) == ["H1", heading]
        expect(visitor.locator(".dashboard")).to_contain_text(email)
        # The code went in the post's body: not in an address, not in the browser's storage.
        kept = visitor.evaluate(STORAGE)
        assert code not in kept and code not in visitor.url, kept


def test_without_a_dashboard_the_language_menu_links_to_the_page(visitor: Any) -> None:
    visitor.goto("/license")
    visitor.locator("summary.language-button").click()
    expect(visitor.locator(".language-list button")).to_have_count(0)
    visitor.locator(".language-list").get_by_role("link", name="Français").click()
    visitor.wait_for_url(re.compile(r"/fr/license$"))
    expect(visitor.locator("#licence-code")).to_have_value("")


@pytest.fixture(scope="module")
def limited(make_server: Callable[..., Any]) -> Any:
    """A server that takes one ticket per address in ten minutes, the one a test sends first."""
    server = make_server(rate_limits="support:ip=1/10m", demo="true")
    first = requests.post(
        server.base + "/api/support",
        json={"email": "first@example.org", "activation_code": "", "message": "Hello."},
        timeout=10,
    )
    assert first.status_code == 200, first.text
    return server


@pytest.mark.parametrize(
    ("path", "wait"),
    [
        ("/support", r"Too many requests\. Please try again in (9|10)\u00a0minutes\."),
        ("/ru/support", r"Слишком много запросов\. Повторите попытку через (9|10)\u00a0минут\."),
    ],
)
def test_a_refusal_says_how_long_to_wait_in_words(
    browser: Any, limited: Any, width: dict[str, int], script: bool, path: str, wait: str
) -> None:
    with opened(browser, limited, width, script) as page:
        page.goto(path)
        page.fill("#support-email", "second@example.org")
        page.fill("#support-message", "Hello again.")
        page.locator("#contact button[type=submit]").click()
        alert = page.get_by_role("alert")
        expect(alert).to_have_text(re.compile(f"^{wait}$"))
        assert not re.search(r"\d+\s*(s|с)\.", alert.inner_text())


def test_the_faq_search_shows_only_where_it_works(visitor: Any, script: bool) -> None:
    visitor.goto("/support")
    search = visitor.locator("#faq-search")
    if script:
        expect(search).to_be_visible()
        search.fill("WireGuard")
        expect(visitor.locator(".faq-item")).not_to_have_count(13)
    else:
        expect(search).to_be_hidden()
        expect(visitor.locator(".faq-item")).to_have_count(13)


@pytest.mark.parametrize("menu", ["language", "mobile"])
def test_a_menu_closes_when_the_focus_leaves_it(
    browser: Any, server: Any, width: dict[str, int], menu: str
) -> None:
    with opened(browser, server, width, True) as page:
        page.goto("/support")
        if menu == "mobile" and width["width"] > 760:
            # Wide screens show the links themselves: there is no mobile menu to leave open.
            expect(page.locator("details.mobile-menu summary")).to_be_hidden()
            return
        details = page.locator(f"details.{menu}-menu")
        details.locator("summary").focus()
        page.keyboard.press("Enter")
        expect(details).to_have_attribute("open", "")
        items = details.locator("a, button").count()
        for _ in range(items):
            page.keyboard.press("Tab")
            expect(details).to_have_attribute("open", "")
        # Past its last item the focus leaves the menu, and the menu closes.
        page.keyboard.press("Tab")
        expect(details).not_to_have_attribute("open", "")
        assert not page.evaluate("(menu) => menu.contains(document.activeElement)", details.element_handle())
