"""Issue 30, items 8 and 10, as a visitor meets them in a real browser at 390 and 1280 px, with and
without JavaScript: the phone's own app first and one recommended server on the activation screen,
the devices before the server rows on the dashboard, the floating bar off the testimonials, the
hero's title without a lone last word, the same wrong-code message either way, the focus after
"Submit another ticket", and the device limit said for the real fleet."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.test_interaction import PHONE, UNKNOWN_CODE, open_page
from tests.e2e.test_one_tap_setup import BEAT, Fleet, check_licence, fleet  # noqa: F401

IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"
ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36"
DESKTOP = {"width": 1280, "height": 900}
# The check digit of UNKNOWN_CODE, changed: a typo the code's own rule catches.
MISTYPED = UNKNOWN_CODE[:-1] + str((int(UNKNOWN_CODE[-1]) + 1) % 10)


def beat(fleet: Fleet, loads: dict[str, float]) -> None:  # noqa: F811
    """Both servers online, with these loads; the status snapshot is refreshed on its own."""
    for server, load in loads.items():
        auth = {"Authorization": f"Bearer {fleet.tokens[server]}"}
        sent = requests.post(
            fleet.base + "/api/node/heartbeat", json={**BEAT, "cpu_load": load}, headers=auth, timeout=10
        )
        assert sent.ok, sent.text


def wait_until_online(fleet: Fleet, server: str) -> None:  # noqa: F811
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        status = requests.get(fleet.base + "/api/server-status", timeout=10).json()
        online = {s["id"] for s in status["vpn_servers"] if s["status"] == "online"}
        if len(online) == 2:
            return
        time.sleep(0.5)
    raise AssertionError(f"the fleet never came online (waiting to recommend {server})")


@pytest.fixture
def online_fleet(fleet: Fleet) -> Fleet:  # noqa: F811
    beat(fleet, {"nl-ams-1": 60, "us-nyc-1": 7})
    wait_until_online(fleet, "us-nyc-1")
    return fleet


def phone_page(browser: Any, base: str, agent: str, javascript: bool = True) -> Iterator[Any]:
    yield from open_page(
        browser,
        type("S", (), {"base": base})(),
        javascript=javascript,
        viewport=PHONE,
        user_agent=agent,
        is_mobile=True,
        has_touch=True,
    )


def tiles_in_reading_order(page: Any) -> list[str]:
    """Each tile's platform (its first line; the second says whose app it is)."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('.download-tiles .tile')]
                .map((tile) => ({
                  box: tile.getBoundingClientRect(),
                  name: tile.querySelector("span").textContent,
                }))
                .sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left)
                .map((tile) => tile.name)"""
        )
    )


def assert_phone_activation(page: Any, first: str, second: str) -> None:
    """The phone's own app first, then the other phone's; one primary button, on the recommended
    (least loaded) server, listed first; the archive below the list, secondary."""
    assert tiles_in_reading_order(page)[:2] == [first, second]
    buttons = page.get_by_role("link", name="Open in OpenVPN Connect")
    expect(buttons).to_have_count(2)
    primary = page.locator(".import-button:not(.button-secondary)")
    expect(primary).to_have_count(1)
    rows = page.locator(".profile-row")
    expect(rows.first).to_have_attribute("data-server", "us-nyc-1")
    expect(rows.first).to_contain_text("Recommended")
    expect(rows.nth(1)).not_to_contain_text("Recommended")
    assert rows.first.locator(".import-button").get_attribute("class") == "button phone-only import-button"
    assert "button-secondary" in (rows.nth(1).locator(".import-button").get_attribute("class") or "")
    archive = page.locator(".archive a[download]:visible")
    expect(archive).to_have_count(1)
    assert "button-secondary" in (archive.get_attribute("class") or "")
    assert archive.bounding_box()["y"] > rows.last.bounding_box()["y"], "the ZIP comes after the servers"


@pytest.mark.parametrize(
    ("agent", "first", "second"), [(IPHONE, "iOS", "Android"), (ANDROID, "Android", "iOS")]
)
def test_a_phone_gets_its_app_first_and_one_recommended_server(
    browser: Any, online_fleet: Fleet, agent: str, first: str, second: str
) -> None:
    for javascript in (True, False):
        for page in phone_page(browser, online_fleet.base, agent, javascript):
            page.goto("/")
            page.fill("#signup-email", f"{first.lower()}-{javascript}@example.org")
            page.click("#signup button[type=submit]")
            expect(page.get_by_role("heading", name="VPN activated")).to_be_visible(timeout=15000)
            assert_phone_activation(page, first, second)


def test_the_dashboard_shows_the_devices_before_the_server_rows_with_and_without_script(
    browser: Any, online_fleet: Fleet
) -> None:
    email = "dash@example.org"
    for page in phone_page(browser, online_fleet.base, IPHONE):
        page.goto("/")
        page.fill("#signup-email", email)
        page.click("#signup button[type=submit]")
        code = re.sub(r"\D", "", page.locator("#activation-code").inner_text(timeout=15000))
        check_licence(page, email, code)
        shown = page.locator(".devices")
        assert shown.bounding_box()["y"] < page.locator(".profile-row").first.bounding_box()["y"]
        assert shown.bounding_box()["y"] < page.locator(".download-tiles").bounding_box()["y"]
        expect(shown.locator(".devices-count")).to_have_text("0 of 2 devices connected")
        expect(shown).to_contain_text("Up to 2 devices at once — one on each of our 2 servers.")
        scripted = shown.inner_text()
    for page in phone_page(browser, online_fleet.base, IPHONE, javascript=False):
        page.goto("/license")
        page.fill("#licence-email", email)
        page.fill("#licence-code", code)
        page.locator("form.card button[type=submit]").click()
        shown = page.locator(".devices")
        assert shown.bounding_box()["y"] < page.locator(".profile-row").first.bounding_box()["y"]
        assert shown.inner_text() == scripted, "the same card, word for word"
        assert tiles_in_reading_order(page)[:2] == ["iOS", "Android"], "an iPhone's app first"


COVERED = """(selector) => {
    const bar = document.querySelector('.floating-cta');
    const covered = [];
    for (const element of document.querySelectorAll(selector)) {
        for (const rect of element.getClientRects()) {
            if (rect.bottom < 0 || rect.top > innerHeight) continue;
            for (const x of [rect.left + 2, (rect.left + rect.right) / 2, rect.right - 2]) {
                for (const y of [rect.top + 2, rect.bottom - 2]) {
                    if (y < 0 || y > innerHeight) continue;
                    const top = document.elementFromPoint(x, y);
                    if (bar && top && bar.contains(top)) covered.push(element.textContent.slice(0, 40));
                }
            }
        }
    }
    return covered;
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_the_floating_bar_never_covers_the_testimonials_or_the_closing_call(
    browser: Any, server: Any, viewport: dict[str, int]
) -> None:
    for page in open_page(browser, server, viewport=viewport):
        page.goto("/")
        texts = ".testimonials blockquote, .testimonials .person, .closing h2, .closing p, .closing a"
        assert page.locator(texts).count() >= 3
        height = page.evaluate("document.documentElement.scrollHeight")
        seen_bar = False
        for y in range(0, height, viewport["height"] // 4):
            page.evaluate(f"window.scrollTo(0, {y})")
            page.wait_for_timeout(120)
            seen_bar = seen_bar or page.locator(".floating-cta").count() > 0
            assert page.evaluate(COVERED, texts) == [], f"covered at scroll {y}"
        assert seen_bar, "the bar still shows where it covers nothing"


LAST_LINE_WORDS = """() => {
    const title = document.querySelector('.hero h1');
    const text = title.firstChild;
    const words = [];
    const re = /\\S+/g;
    let found;
    while ((found = re.exec(text.data))) {
        const range = document.createRange();
        range.setStart(text, found.index);
        range.setEnd(text, found.index + found[0].length);
        words.push({ word: found[0], top: Math.round(range.getBoundingClientRect().top) });
    }
    const last = Math.max(...words.map((w) => w.top));
    const lines = new Set(words.map((w) => w.top)).size;
    return { lines, last: words.filter((w) => w.top === last).map((w) => w.word) };
}"""


@pytest.mark.parametrize("language", ["", "/ru", "/es", "/fr", "/pt"])
def test_the_hero_title_leaves_no_word_alone_at_1280(browser: Any, server: Any, language: str) -> None:
    for javascript in (True, False):
        for page in open_page(browser, server, javascript=javascript, viewport=DESKTOP):
            page.goto(f"{language}/")
            shape = page.evaluate(LAST_LINE_WORDS)
            assert shape["lines"] == 1 or len(shape["last"]) > 1, shape


def test_a_mistyped_code_reads_the_same_with_and_without_script(browser: Any, server: Any) -> None:
    said = []
    for javascript in (True, False):
        for page in open_page(browser, server, javascript=javascript, viewport=PHONE):
            page.goto("/license")
            page.fill("#licence-email", "someone@example.org")
            page.fill("#licence-code", MISTYPED)
            page.locator("form.card button[type=submit]").click()
            alert = page.get_by_role("alert")
            expect(alert).to_be_visible()
            said.append(alert.inner_text())
    assert said == ["This activation code contains a typo. Please check the 20 digits."] * 2


def test_submit_another_ticket_puts_the_focus_on_the_form(browser: Any, server: Any) -> None:
    for javascript in (True, False):
        for page in open_page(browser, server, javascript=javascript, viewport=PHONE):
            page.goto("/support")
            page.fill("#support-email", "focus@example.org")
            page.fill("#support-message", "The app does not connect on my phone.")
            page.get_by_role("button", name="Send").click()
            another = page.get_by_role("button" if javascript else "link", name="Submit another ticket")
            expect(another).to_be_visible()
            another.click()
            if not javascript:
                # A page without script cannot move the focus: the form is where the next Tab starts.
                expect(page.locator("#support-email")).to_be_visible()
                assert page.evaluate("document.activeElement.id") != "support-email"
                page.keyboard.press("Tab")
            expect(page.locator("#support-email")).to_be_focused()
            assert page.evaluate("document.activeElement.id") == "support-email"


def test_the_limit_is_said_for_the_real_fleet_and_the_menu_names_the_licence_page(
    browser: Any, server: Any
) -> None:
    servers = requests.get(server.base + "/api/server-status", timeout=10).json()["summary"][
        "vpn_servers_count"
    ]
    assert 0 < servers < 10, "the demo fleet is smaller than the limit"
    for javascript in (True, False):
        for page in open_page(browser, server, javascript=javascript, viewport=DESKTOP):
            page.goto("/")
            expect(page.locator(".hero .trust")).to_have_text(
                f"No credit card · Up to {servers} devices at once · OpenVPN UDP and TCP"
            )
            expect(page.locator(".site-header").get_by_role("link", name="My licence")).to_be_visible()
            page.goto("/ru/support")
            answer = page.locator("#faq-devices")
            expect(answer).to_contain_text(
                f"До {servers} устройств одновременно — по одному на каждом из наших {servers} серверов."
            )
