"""What a visitor does, in a real browser against a real server."""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.site_map import ROUTES


def sign_up(page: Any, email: str, path: str = "/") -> None:
    page.goto(path)
    page.fill("#signup-email", email)
    page.click("#signup button[type=submit]")


def test_sign_up_copy_and_check_the_licence(page: Any, server: Any) -> None:
    before = server.licences()
    sign_up(page, "browser@example.org")
    expect(page.get_by_role("heading", name="VPN activated")).to_be_visible(timeout=15000)
    assert re.search(r"/activation(\?kept)?$", page.url)
    code = page.locator("#activation-code").inner_text()
    assert re.fullmatch(r"[0-9]{20}", code)
    expect(page.get_by_text("90 days")).to_be_visible()
    page.get_by_role("button", name="Copy").click()
    expect(page.get_by_role("button", name="Copied!")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == code
    expect(page.get_by_role("button", name="Copy")).to_be_visible(timeout=5000)
    archive = page.get_by_role("link", name="Download your configuration archive")
    assert "/api/config/" in archive.get_attribute("href")
    assert server.licences() == before + 1

    page.get_by_role("link", name="My licence").first.click()
    # The form fills itself from the activation this page showed; typing while it does would interleave.
    expect(page.locator("#licence-code")).to_have_value(code)
    page.fill("#licence-email", "browser@example.org")
    page.fill("#licence-code", code)
    page.get_by_role("button", name="Check licence").click()
    # The dashboard comes whole, devices included, at the top of the page with the focus on its
    # heading (the form that had it is gone): nothing moves under the next click.
    expect(page.get_by_role("heading", name="Your licence", exact=True)).to_be_focused()
    expect(page.locator(".big-number")).to_have_text("90")
    expect(page.locator(".devices-count")).to_have_text("0 of 8 devices connected")
    page.get_by_role("button", name="Check another licence").click()
    expect(page.get_by_role("heading", name="Check your licence")).to_be_visible()


def test_reloading_the_activation_page_shows_the_result_and_creates_nothing(page: Any, server: Any) -> None:
    sign_up(page, "reload@example.org", "/ru")
    expect(page.get_by_role("heading", name="VPN активирован")).to_be_visible(timeout=15000)
    expect(page.locator("#activation-code")).to_be_visible()
    count = server.licences()
    page.reload()
    # The result again, but the code only from the licence e-mail: the tab does not keep it
    # (test_browser_storage.py).
    expect(page.get_by_text("reload@example.org")).to_be_visible()
    expect(page.locator(".details .notice")).to_contain_text("в письме с лицензией")
    expect(page.locator("#activation-code")).to_have_count(0)
    assert server.licences() == count
    # Another tab has no activation of its own to show: it goes home.
    other = page.context.new_page()
    other.goto("/activation")
    other.wait_for_url(re.compile(r"127\.0\.0\.1:\d+/$"))
    other.close()


def test_a_double_submit_creates_one_licence(page: Any, server: Any) -> None:
    before = server.licences()
    page.goto("/")
    page.fill("#signup-email", "double@example.org")
    page.evaluate(
        """() => { const form = document.getElementById('signup');
                   form.requestSubmit(); form.requestSubmit(); form.requestSubmit(); }"""
    )
    expect(page.get_by_role("heading", name="VPN activated")).to_be_visible(timeout=15000)
    page.wait_for_timeout(500)
    assert server.licences() == before + 1


def test_a_mistyped_code_is_caught_before_any_request(page: Any) -> None:
    calls: list[str] = []
    page.on("request", lambda request: calls.append(request.url) if "check-license" in request.url else None)
    page.goto("/fr/license")
    page.fill("#licence-email", "x@example.org")
    page.fill("#licence-code", "12345678901234567890")
    page.get_by_role("button", name="Vérifier la licence").click()
    expect(page.get_by_role("alert")).to_contain_text("faute de frappe")
    assert calls == []


def test_a_wrong_code_shows_the_servers_message(page: Any) -> None:
    page.goto("/es/license")
    page.fill("#licence-email", "nobody@example.org")
    page.fill("#licence-code", "00000000000000000000")
    page.get_by_role("button", name="Comprobar licencia").click()
    expect(page.get_by_role("alert")).to_have_text(
        "No se encontró el código de activación o el correo electrónico."
    )


def test_switching_language_keeps_the_route(page: Any) -> None:
    for route in ROUTES:
        if route == "/activation":
            continue
        page.goto(route)
        page.locator("summary.language-button").click()
        page.get_by_role("link", name="Português (Brasil)").click()
        expected = "/pt" if route == "/" else f"/pt{route}"
        page.wait_for_url(re.compile(re.escape(expected) + "$"))
        assert page.evaluate("document.documentElement.lang") == "pt-BR"
        page.locator("summary.language-button").click()
        page.get_by_role("link", name="English").click()
        page.wait_for_url(re.compile(re.escape(route if route != "/" else "/") + "$"))
        assert page.evaluate("document.documentElement.lang") == "en"


def test_client_navigation_updates_title_and_scrolls_to_top(page: Any) -> None:
    page.goto("/ru")
    page.mouse.wheel(0, 2000)
    page.wait_for_timeout(300)
    page.get_by_role("navigation", name="Меню").get_by_role("link", name="Поддержка").click()
    page.wait_for_url(re.compile(r"/ru/support$"))
    expect(page).to_have_title("Поддержка и вопросы | vpnsite")
    assert page.evaluate("window.scrollY") == 0


def test_the_status_page_shows_the_live_fleet_and_updates(page: Any, server: Any) -> None:
    page.goto("/server-status")
    rows = page.locator("[data-testid=vpn-servers] li")
    expect(rows).to_have_count(8, timeout=10000)
    expect(page.locator("[data-testid=vpn-servers] .pill-online")).to_have_count(8, timeout=15000)
    # A service past the threshold below which pages say it is new instead of counting.
    server.set_users(1285)
    count = page.locator("[data-testid=user-count]")
    expect(count).to_have_text("1,285", timeout=10000)
    before = 1285
    form = requests.post(server.base + "/api/submit-email", json={"email": "status@example.org"}).json()[
        "form_data"
    ]
    requests.post(server.base + "/api/create-user", json={"email": form.pop("user_email"), **form})
    expect(count).to_have_text(f"{before + 1:,}", timeout=10000)
    expect(page.get_by_text("Demo: these servers are simulated.")).to_be_visible()


def test_the_faq_filters_and_opens_one_item_at_a_time(page: Any) -> None:
    page.goto("/support")
    items = page.locator(".faq-item")
    expect(items).to_have_count(13)
    page.fill("#faq-search", "WIREGUARD")
    expect(items).to_have_count(1)
    page.fill("#faq-search", "nothing matches this")
    expect(page.get_by_text("No answers match your search.")).to_be_visible()
    page.fill("#faq-search", "")
    first, second = items.nth(0), items.nth(1)
    first.locator("summary").click()
    expect(first.locator(".faq-answer")).to_be_visible()
    second.locator("summary").click()
    expect(second.locator(".faq-answer")).to_be_visible()
    expect(first.locator(".faq-answer")).to_be_hidden()


def test_a_support_ticket_is_sent(page: Any, server: Any) -> None:
    page.goto("/support")
    page.fill("#support-email", "help@example.org")
    page.fill("#support-message", "The Riga server does not answer over UDP.")
    page.get_by_role("button", name="Send message").click()
    expect(page.get_by_role("heading", name="Ticket submitted")).to_be_visible()
    found = re.search(r"T-[0-9]{8}", page.locator(".sent").inner_text())
    assert found is not None
    number = found.group(0)
    assert number in server.tickets()
    page.get_by_role("button", name="Submit another ticket").click()
    expect(page.locator("#support-email")).to_have_value("")


def test_a_rate_limited_activation_shows_request_denied(browser: Any, make_server: Any) -> None:
    limited = make_server(rate_limits="create-user:ip=1/10m")
    context = browser.new_context(base_url=limited.base)
    page = context.new_page()
    sign_up(page, "first@example.org")
    expect(page.get_by_role("heading", name="VPN activated")).to_be_visible(timeout=15000)
    sign_up(page, "second@example.org")
    expect(page.get_by_role("heading", name="Request denied")).to_be_visible(timeout=15000)
    expect(page.get_by_text("Too many requests from your device. Please try again later.")).to_be_visible()
    expect(page.get_by_role("link", name="Check my licence")).to_be_visible()
    context.close()


def test_phone_navigation(browser: Any, server: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server.base)
    page = context.new_page()
    page.goto("/es")
    expect(page.locator(".desktop-nav")).to_be_hidden()
    page.locator("summary.menu-button").click()
    page.locator("#mobile-nav").get_by_role("link", name="Soporte").click()
    page.wait_for_url(re.compile(r"/es/support$"))
    expect(page.locator("#mobile-nav")).to_be_hidden()
    # The screen loads after the address changes: scroll its page, not the short one before it;
    # and only past the questions, short of the contact form, which the bar keeps away from.
    expect(page.get_by_role("heading", name="¿En qué podemos ayudarte?")).to_be_visible()
    page.mouse.wheel(0, 450)
    page.wait_for_function("() => scrollY > 400")
    expect(page.locator("#contact")).not_to_be_in_viewport()
    expect(page.get_by_role("link", name="Consigue tu VPN gratis")).to_be_visible()
    context.close()


def test_the_floating_button_focuses_the_form_on_the_home_page(page: Any) -> None:
    page.goto("/")
    floating = page.locator(".floating-cta")
    expect(floating).to_have_count(0)
    # Past the form, among the features: nothing there it could cover (it stays away from the
    # testimonials and the closing call: test_phone_screens.py).
    page.mouse.wheel(0, 700)
    expect(floating).to_be_visible()
    floating.click()
    expect(page.locator("#signup-email")).to_be_focused()


def test_the_keyboard_reaches_menus_faq_and_forms(page: Any) -> None:
    page.goto("/support")
    page.locator("body").press("Tab")
    expect(page.locator(".skip-link")).to_be_focused()
    language = page.locator("summary.language-button")
    language.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("link", name="Русский")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("link", name="Русский")).to_be_hidden()
    expect(language).to_be_focused()
    question = page.locator(".faq-item summary").first
    question.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".faq-item").first.locator(".faq-answer")).to_be_visible()
    page.locator("#support-email").focus()
    page.keyboard.type("kb@example.org")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.type("Typed with the keyboard only.")
    expect(page.locator("#support-message")).to_have_value("Typed with the keyboard only.")


def test_the_hz_id_cookie(page: Any) -> None:
    sign_up(page, "cookie@example.org")
    page.wait_for_url(re.compile(r"/activation(\?kept)?$"))
    cookie = next(c for c in page.context.cookies() if c["name"] == "hz_id")
    assert re.fullmatch(r"[0-9a-f]{32}", cookie["value"])
    assert cookie["path"] == "/" and cookie["sameSite"] == "Lax"
    assert 364 * 86400 < cookie["expires"] - __import__("time").time() <= 365 * 86400


# Every layout shift since the page loaded, with what moved (so a failure says where to look).
LAYOUT_SHIFTS = """() => new Promise((done) => {
  const shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      const moved = entry.sources.map((source) => {
        const node = source.node;
        const element = node && node.nodeType === 1 ? node : node?.parentElement;
        const where = element ? `${element.tagName}.${element.className}` : "?";
        return `${where}: ${JSON.stringify(source.previousRect)} -> ${JSON.stringify(source.currentRect)}`;
      });
      shifts.push({ value: entry.value, moved });
    }
  }).observe({ type: "layout-shift", buffered: true });
  requestAnimationFrame(() => requestAnimationFrame(() => done(shifts)));
})"""


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("path", ["/server-status", "/"])
def test_pages_come_laid_out_and_keep_their_layout(browser: Any, server: Any, width: int, path: str) -> None:
    """The snapshot is in the HTML: no skeleton is replaced, the script's refreshes move nothing,
    and neither does a new count (past a million: both forms are in the HTML, the stylesheet picks)."""
    server.set_users(1_234_567)
    context = browser.new_context(viewport={"width": width, "height": 844}, base_url=server.base)
    page = context.new_page()
    page.goto(path, wait_until="networkidle")
    if path == "/server-status":
        for _ in range(2):
            with page.expect_response(lambda response: "/api/server-status" in response.url, timeout=10000):
                pass
    # The footer in view, so a shift there would count.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    server.set_users(1_234_568)
    # The footer polls every three seconds: the new count is the page's own redraw.
    expect(page.locator(".user-badge .count-full")).to_have_text("1,234,568 users", timeout=10000)
    shifts = page.evaluate(LAYOUT_SHIFTS)
    assert sum(shift["value"] for shift in shifts) == 0, shifts
    context.close()


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize(
    ("language", "slow"), [("", "1,999 ms"), ("/ru", "1\u00a0999 мс"), ("/fr", "1\u202f999 ms")]
)
def test_a_slow_servers_ping_keeps_its_row_on_a_phone(
    browser: Any, server: Any, width: int, language: str, slow: str
) -> None:
    """The probe gives up at 2 s, so a ping has at most four digits; written in full it stays on
    one line, clear of the load beside it, and its row keeps its height (a wrapped "1,043 ms"
    moved the row's load: a layout shift the refresh test above caught on a loaded machine)."""
    context = browser.new_context(
        viewport={"width": width, "height": 844}, base_url=server.base, java_script_enabled=False
    )
    page = context.new_page()
    page.goto(language + "/server-status")
    measured = page.evaluate(
        """(slow) => {
          const row = document.querySelector('.server-row:not(.system)');
          const before = row.getBoundingClientRect().height;
          const value = row.querySelector('.metric-ping').lastChild;
          value.textContent = ' ' + slow;
          const text = document.createRange();
          text.selectNodeContents(value);
          const load = row.querySelector('.metric-load').getBoundingClientRect();
          return { before, after: row.getBoundingClientRect().height, lines: text.getClientRects().length,
                   gap: load.left - text.getBoundingClientRect().right };
        }""",
        slow,
    )
    assert measured["before"] == measured["after"] and measured["lines"] == 1 and measured["gap"] > 0, (
        measured
    )
    context.close()
