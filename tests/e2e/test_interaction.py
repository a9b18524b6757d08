"""What the visitor's hands and eyes meet: the floating bar, focus and alerts after a check, the
result surviving a language switch, the code in groups, the navigation's current page, the About
page's headings and the home page's layout on a phone. Real browser, real server."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import page_in

PHONE = {"width": 390, "height": 844}
# A code with a correct check digit that no licence holds.
UNKNOWN_CODE = "12345678901234567894"


def open_page(browser: Any, server: Any, javascript: bool = True, **options: Any) -> Iterator[Any]:
    context = browser.new_context(base_url=server.base, java_script_enabled=javascript, **options)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    with page_in(context) as opened:
        yield opened


@pytest.fixture
def phone(browser: Any, server: Any) -> Iterator[Any]:
    yield from open_page(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)


@pytest.fixture
def no_script(browser: Any, server: Any) -> Iterator[Any]:
    yield from open_page(browser, server, javascript=False, viewport=PHONE)


def sign_up(page: Any, email: str, path: str = "/") -> str:
    page.goto(path)
    page.fill("#signup-email", email)
    page.click("#signup button[type=submit]")
    code = page.locator("#activation-code")
    expect(code).to_be_visible(timeout=15000)
    digits = str(code.inner_text())
    assert re.fullmatch(r"\d{20}", digits)
    return digits


WHOLLY_IN_VIEW = """(selector) => {
    const box = document.querySelector(selector).getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight;
}"""


def in_viewport(page: Any, selector: str) -> bool:
    return bool(page.evaluate(WHOLLY_IN_VIEW, selector))


def comes_into_view(page: Any, selector: str) -> None:
    """The page scrolls smoothly: wait, within a deadline, for where the scroll ends."""
    page.wait_for_function(WHOLLY_IN_VIEW, arg=selector, timeout=5000)


def settle(page: Any) -> None:
    """Two frames: scroll events and intersection observers have had their say."""
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def covered(page: Any, selector: str) -> bool:
    """Whether the floating bar, if shown, overlaps the element."""
    return bool(
        page.evaluate(
            """(selector) => {
                const bar = document.querySelector(".floating-cta");
                if (!bar) return false;
                const a = bar.getBoundingClientRect();
                const b = document.querySelector(selector).getBoundingClientRect();
                return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
            }""",
            selector,
        )
    )


SEND = "#contact button[type=submit]"


def assert_the_send_button_is_uncovered(phone: Any) -> None:
    """The bar shows once the visitor has scrolled; it must not sit on the support form's button."""
    phone.mouse.wheel(0, 600)
    phone.locator(SEND).evaluate("(button) => button.scrollIntoView({ block: 'end' })")
    expect(phone.locator(SEND)).to_be_in_viewport()
    phone.wait_for_function("() => scrollY > 300")
    settle(phone)
    expect(phone.locator(".floating-cta")).to_have_count(0)
    assert not covered(phone, SEND)


def test_the_floating_bar_leaves_the_send_button_and_the_footer_uncovered(phone: Any) -> None:
    phone.goto("/support")
    assert_the_send_button_is_uncovered(phone)

    phone.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    last_line = ".site-footer .copyright p:last-child"
    expect(phone.locator(last_line)).to_be_in_viewport()
    settle(phone)
    expect(phone.locator(".floating-cta")).to_have_count(0)
    assert not covered(phone, last_line)

    # Between the form and the footer, the bar is there to be used.
    phone.goto("/")
    phone.locator(".section.alt").first.evaluate("(section) => section.scrollIntoView()")
    expect(phone.locator(".floating-cta")).to_be_visible()


def test_the_floating_bar_leaves_a_form_that_came_after_a_navigation_uncovered(phone: Any) -> None:
    """Followed by a link, the support screen (and its form) loads after the address changes: the
    bar still keeps away from its Send button."""
    phone.goto("/", wait_until="networkidle")
    phone.locator(".site-footer").get_by_role("link", name="Support", exact=True).click()
    phone.wait_for_url("**/support")
    expect(phone.locator(SEND)).to_have_count(1)
    assert_the_send_button_is_uncovered(phone)


def test_a_visitor_who_scrolls_before_the_script_runs_stays_where_they_are(phone: Any) -> None:
    """The page is whole before its script runs; a visitor may scroll it then. Hydrating leaves
    them there (and the floating bar comes, as for any scrolled page)."""
    held: list[Any] = []
    phone.route("**/assets/app-*.js", lambda route: held.append(route))
    phone.goto("/", wait_until="commit")
    expect(phone.locator(".section.alt").first).to_be_attached()
    phone.locator(".section.alt").first.evaluate(
        "(section) => section.scrollIntoView({ behavior: 'instant' })"
    )
    scrolled = phone.evaluate("scrollY")
    assert scrolled > 300
    for _ in range(50):  # the request is handed over while Playwright waits
        if held:
            break
        phone.wait_for_timeout(100)
    assert held, "the page asked for its script"
    held[0].continue_()
    expect(phone.locator(".floating-cta")).to_be_visible()
    assert phone.evaluate("scrollY") == scrolled


def test_check_another_licence_brings_the_form_heading_into_view_with_focus(phone: Any) -> None:
    code = sign_up(phone, "another@example.org")
    phone.goto("/license")
    expect(phone.locator("#licence-email")).to_have_value("another@example.org")
    phone.fill("#licence-code", code)
    phone.get_by_role("button", name="Check licence").click()
    # The dashboard has taken the form's place, and the focus with it, at the top of the page.
    expect(phone.get_by_role("heading", name="Your licence", exact=True)).to_be_focused()
    assert phone.evaluate("scrollY") == 0
    again = phone.get_by_role("button", name="Check another licence")
    again.scroll_into_view_if_needed()
    again.click()
    heading = phone.get_by_role("heading", name="Check your licence")
    expect(heading).to_be_focused()
    expect(heading).to_be_in_viewport()
    comes_into_view(phone, "h1")


def test_the_dashboard_comes_whole_with_its_devices(phone: Any) -> None:
    """Nothing arrives after the dashboard to push its buttons from under the visitor's finger: it
    shows once the licence's devices are known (held back here until the check is waiting)."""
    code = sign_up(phone, "whole@example.org")
    phone.goto("/license")
    expect(phone.locator("#licence-email")).to_have_value("whole@example.org")
    phone.fill("#licence-code", code)
    held: list[Any] = []
    phone.route("**/api/devices", lambda route: held.append(route))
    phone.get_by_role("button", name="Check licence").click()
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the check never asked for the devices"
        phone.wait_for_timeout(50)
    dashboard = phone.get_by_role("heading", name="Your licence", exact=True)
    expect(dashboard).to_have_count(0)
    held[0].continue_()
    expect(dashboard).to_be_focused()
    assert phone.locator(".devices-count").inner_text() == "0 of 8 devices connected"


def test_a_failed_checks_alert_is_in_view_announced_and_tied_to_the_fields(phone: Any) -> None:
    phone.goto("/license")
    phone.fill("#licence-email", "nobody@example.org")
    phone.fill("#licence-code", UNKNOWN_CODE)
    # The visitor has scrolled down to the button: the form's top, where the alert goes, is above
    # the viewport.
    phone.evaluate(
        """() => {
            const button = document.querySelector("form.form button[type=submit]");
            scrollTo({ top: button.getBoundingClientRect().top + scrollY - 120, behavior: "instant" });
        }"""
    )
    assert not in_viewport(phone, "form.form")
    phone.locator("form.form button[type=submit]").click()
    alert = phone.get_by_role("alert")
    expect(alert).to_be_visible()
    expect(alert).to_have_attribute("id", "licence-error")
    expect(alert).to_be_in_viewport()
    comes_into_view(phone, "#licence-error")
    for field in ("#licence-email", "#licence-code"):
        expect(phone.locator(field)).to_have_attribute("aria-invalid", "true")
        expect(phone.locator(field)).to_have_attribute("aria-describedby", "licence-error")

    # A mistyped code is the code's fault alone.
    phone.fill("#licence-code", UNKNOWN_CODE[:-1] + "0")
    phone.locator("form.form button[type=submit]").click()
    expect(alert).to_contain_text("typo")
    expect(phone.locator("#licence-code")).to_have_attribute("aria-invalid", "true")
    expect(phone.locator("#licence-email")).not_to_have_attribute("aria-invalid", "true")


def test_the_served_failed_check_is_announced_and_tied_to_the_fields(no_script: Any) -> None:
    no_script.goto("/license")
    no_script.fill("#licence-email", "nobody@example.org")
    no_script.fill("#licence-code", UNKNOWN_CODE)
    no_script.locator("form.form button[type=submit]").click()
    alert = no_script.get_by_role("alert")
    expect(alert).to_have_attribute("id", "licence-error")
    expect(alert).to_be_in_viewport()
    for field in ("#licence-email", "#licence-code"):
        expect(no_script.locator(field)).to_have_attribute("aria-invalid", "true")
        expect(no_script.locator(field)).to_have_attribute("aria-describedby", "licence-error")


def test_switching_language_on_the_activation_page_keeps_the_result(page: Any, server: Any) -> None:
    sign_up(page, "switch@example.org")
    count = server.licences()
    page.locator("summary.language-button").click()
    page.get_by_role("link", name="Русский").click()
    page.wait_for_url(re.compile(r"/ru/activation(\?kept)?$"))
    expect(page.get_by_role("heading", name="VPN активирован")).to_be_visible()
    # The code is not kept for the new page: the screen says where it is (test_browser_storage.py).
    expect(page.locator(".details .notice")).to_contain_text("в письме с лицензией")
    expect(page.get_by_text("switch@example.org")).to_be_visible()
    assert server.licences() == count


def test_the_code_shows_in_groups_of_four_and_copies_as_digits(page: Any, server: Any) -> None:
    code = sign_up(page, "groups@example.org")
    assert re.fullmatch(r"\d{20}", code)
    groups = page.locator("#activation-code .code-group")
    expect(groups).to_have_text([code[i : i + 4] for i in range(0, 20, 4)])
    # Shown apart: each group starts right of the one before, on the same line.
    lefts = [box["x"] for box in (group.bounding_box() for group in groups.all())]
    widths = [box["width"] for box in (group.bounding_box() for group in groups.all())]
    assert all(lefts[i + 1] > lefts[i] + widths[i] + 2 for i in range(4))
    page.get_by_role("button", name="Copy").click()
    expect(page.get_by_role("button", name="Copied!")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == code

    # Typed as shown, with its spaces, the code opens the dashboard, with and without the script.
    page.goto("/license")
    expect(page.locator("#licence-email")).to_have_value("groups@example.org")
    page.fill("#licence-email", "groups@example.org")
    page.fill("#licence-code", " ".join(code[i : i + 4] for i in range(0, 20, 4)))
    page.get_by_role("button", name="Check licence").click()
    expect(page.locator(".dashboard .code-group")).to_have_count(5)
    expect(page.locator(".dashboard code")).to_have_text(code)


def test_the_served_pages_show_the_code_in_groups_and_take_it_with_spaces(no_script: Any) -> None:
    no_script.goto("/")
    no_script.fill("#signup-email", "groups-nojs@example.org")
    no_script.locator("#signup button[type=submit]").click()
    groups = no_script.locator("#activation-code .code-group")
    expect(groups).to_have_count(5)
    code = "".join(groups.all_inner_texts())
    assert re.fullmatch(r"\d{20}", code)
    no_script.goto("/license")
    no_script.fill("#licence-email", "groups-nojs@example.org")
    no_script.fill("#licence-code", " ".join(code[i : i + 4] for i in range(0, 20, 4)))
    no_script.locator("form.form button[type=submit]").click()
    expect(no_script.locator(".dashboard .code-group")).to_have_text(
        [code[i : i + 4] for i in range(0, 20, 4)]
    )


def test_the_licence_page_marks_login_as_the_current_page(page: Any, phone: Any) -> None:
    page.goto("/license")
    expect(page.locator(".header-actions .login")).to_have_attribute("aria-current", "page")
    expect(page.locator(".desktop-nav [aria-current=page]")).to_have_count(0)
    page.goto("/support")
    expect(page.locator(".header-actions .login")).not_to_have_attribute("aria-current", "page")
    phone.goto("/fr/license")
    phone.locator("summary.menu-button").click()
    expect(phone.locator("#mobile-nav .button")).to_have_attribute("aria-current", "page")


@pytest.mark.parametrize(
    ("path", "heading"), [("/about", "About vpnsite"), ("/ru/about", "О компании vpnsite")]
)
def test_the_about_page_says_what_it_is(page: Any, path: str, heading: str) -> None:
    page.goto(path)
    expect(page.locator("h1")).to_have_text(heading)
    assert page.title().endswith("| vpnsite")
    expect(page.locator(".roadmap")).not_to_contain_text("Done ·")


def test_the_location_cards_stand_two_to_a_row_on_a_phone(phone: Any) -> None:
    phone.goto("/")
    cards = phone.locator(".location")
    expect(cards).to_have_count(8)
    # Each card fades in with a transform (.reveal), which moves its bounding box for half a second:
    # the rows are read from the layout, every card in the same frame.
    tops = cards.evaluate_all("cards => cards.map((card) => card.offsetTop)")
    rows = sorted(set(tops))
    assert len(rows) == 4, tops
    for row in rows:
        assert tops.count(row) == 2, tops
