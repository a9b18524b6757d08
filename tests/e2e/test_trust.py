"""What a visitor sees of the operator and of the fleet is true (issue 30): the footer's contacts are
the operator's (its e-mail, and its social links only when it has set some), on a phone and a
computer, with and without the script; the status page lists no service that is not configured,
draws popularity in colours that never contradict the load, gives no share of the free tier below
the threshold of the counts, and the demo's pings read like pings."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.serve import OPERATOR_ENV
from vpnsite_adapters.operator_files.facts import default_operator_facts

EMAIL = OPERATOR_ENV["VPNSITE_OPERATOR_EMAIL"]
SETTING = (
    "x=https://x.com/example_vpn, telegram=https://t.me/examplevpn, Our forum=https://forum.example.org/"
)
CONFIGURED = ["https://x.com/example_vpn", "https://t.me/examplevpn", "https://forum.example.org/"]
WIDTHS = [390, 1280]


def open_page(browser: Any, base: str, path: str, width: int, script: bool) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": 844}, base_url=base, java_script_enabled=script
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path, wait_until="networkidle")
    page.errors = errors
    return page


def contact_column(page: Any) -> Any:
    return page.locator(".site-footer .social")


def check_in_view(page: Any, width: int) -> None:
    column = contact_column(page)
    column.scroll_into_view_if_needed()
    for link in column.locator("a").all():
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box


@pytest.fixture(scope="module")
def linked(make_server: Any) -> Any:
    return make_server(rate_limits="off", demo="true", social_links=SETTING)


MAIL_LABEL = {"/": "E-mail support", "/ru/server-status": "Написать в поддержку"}
SOURCE_LABEL = {"/": "Source code", "/ru/server-status": "Исходный код"}
# Where the operator's facts say the source code is (the shipped default here).
SOURCE = default_operator_facts().source_code


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("script", [True, False])
def test_the_footer_names_the_operators_accounts_and_email(
    browser: Any, linked: Any, width: int, script: bool
) -> None:
    for path, follow in (("/", "Follow us"), ("/ru/server-status", "Мы в соцсетях")):
        page = open_page(browser, linked.base, path, width, script)
        links = contact_column(page).locator("a")
        expect(links).to_have_count(5)
        hrefs = [link.get_attribute("href") for link in links.all()]
        assert hrefs == [*CONFIGURED, f"mailto:{EMAIL}", SOURCE], hrefs
        expect(page.locator(".site-footer h2.footer-title").last).to_have_text(follow)
        expect(contact_column(page).locator(".social-label")).to_have_text(
            ["Our forum", MAIL_LABEL[path], SOURCE_LABEL[path]]
        )
        expect(links.nth(0)).to_have_attribute("aria-label", re.compile(r"X$"))
        check_in_view(page, width)
        html = page.content()
        assert "vpnsite.example" not in html and "x.com/vpnsite" not in html and "t.me/vpnsite" not in html
        if script:
            # The script keeps the server's column through its re-renders and its own navigation.
            page.locator(".site-footer .footer-links a").nth(2).click()
            expect(page.locator("h1")).to_have_text(re.compile(r"help|aider|помочь"))
            hrefs = [link.get_attribute("href") for link in contact_column(page).locator("a").all()]
            assert hrefs == [*CONFIGURED, f"mailto:{EMAIL}", SOURCE], hrefs
        assert not page.errors, page.errors
        page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("script", [True, False])
def test_without_accounts_the_footer_shows_only_the_operators_email(
    browser: Any, server: Any, width: int, script: bool
) -> None:
    page = open_page(browser, server.base, "/fr/support", width, script)
    links = contact_column(page).locator("a")
    expect(links).to_have_count(2)
    expect(links.first).to_have_attribute("href", f"mailto:{EMAIL}")
    # The e-mail by name, not a lone envelope; then the source code.
    expect(links).to_have_text(["Écrire à l’assistance", "Code source"])
    expect(links.last).to_have_attribute("href", SOURCE)
    expect(page.locator(".site-footer h2.footer-title").last).to_have_text("Contact")
    check_in_view(page, width)
    assert (
        page.locator(".site-footer a[href^='https://x.com'], .site-footer a[href^='https://t.me']").count()
        == 0
    )
    page.context.close()


@pytest.fixture
def young(make_server: Any) -> Any:
    """A demo service nobody has signed up to yet."""
    return make_server(rate_limits="off", demo="true")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("script", [True, False])
def test_the_status_page_claims_nothing_it_cannot_back(
    browser: Any, young: Any, width: int, script: bool
) -> None:
    young.set_users(42)
    page = open_page(browser, young.base, "/server-status", width, script)
    card = page.locator(".users-card")
    expect(card.locator("[data-testid=user-count]")).to_have_text("Just launched")
    expect(card.locator("[data-testid=free-tier]")).to_have_text("Free for the first 1,000,000 users")
    expect(card.locator("[role=progressbar]")).to_have_count(0)
    assert "%" not in card.inner_text()
    # Billing is not configured here: not listed.
    expect(page.locator("[data-testid=system-servers] li")).to_have_count(2)
    expect(page.locator(".status-live")).not_to_contain_text("Billing")
    expect(page.locator(".status-live")).not_to_contain_text("Not configured")
    # Popularity never takes the colours the load (and the status) speak in.
    health = page.evaluate(
        """() => ["load-low", "load-medium", "load-high"].map((level) => {
            const probe = document.createElement("span");
            probe.className = `load ${level}`;
            document.body.append(probe);
            const colour = getComputedStyle(probe).color;
            probe.remove();
            return colour;
        })"""
    )
    ranks = page.locator("[data-testid=vpn-servers] .rank")
    expect(ranks).to_have_count(8)
    for rank in ranks.all():
        painted = rank.evaluate("(e) => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
        assert not set(painted) & set(health), (painted, health)
        assert re.fullmatch(r"rank rank-(deep|mid|pale|plain)", rank.get_attribute("class") or "")
    page.context.close()


def test_the_demos_pings_read_like_pings(browser: Any, young: Any) -> None:
    page = open_page(browser, young.base, "/server-status", 1280, True)
    pings = page.locator("[data-testid=vpn-servers] .metric-ping")
    # The hub pings every ten seconds; until its first round a ping reads "—".
    for index in range(8):
        expect(pings.nth(index)).to_have_text(re.compile(r"\d+ ms$"), timeout=30_000)
    shown = [int(re.search(r"(\d+) ms$", text).group(1)) for text in pings.all_inner_texts()]  # type: ignore[union-attr]
    assert min(shown) >= 5 and len(set(shown)) > 3, shown
    page.context.close()
