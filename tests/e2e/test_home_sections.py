"""The home page's later sections (what the service does, its servers' countries, what users say,
how it keeps them safe): the page the server sends has them, the script that takes the page over
leaves them as they are and fetches nothing for them; the home page the script draws after a link
has every one of them, in the page's language. Real browser, real server."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.site_map import localised

# Each section and how many cards it holds.
SECTIONS = {".feature": 9, ".location": 8, ".testimonial": 3}


def expect_every_section(page: Any) -> None:
    for selector, count in SECTIONS.items():
        expect(page.locator(f"main {selector}")).to_have_count(count)
    quoted = page.locator(".testimonial strong").all_inner_texts()
    assert len(set(quoted)) == 3, quoted
    assert "__SLOT_" not in page.locator("main").inner_text()


def expect_cards_revealed_as_they_show(page: Any) -> None:
    last = page.locator("main .feature").last
    last.scroll_into_view_if_needed()
    expect(last).to_have_class(re.compile(r"\bvisible\b"))
    expect(last).to_have_css("opacity", "1")


def test_the_page_sent_keeps_its_sections_and_the_script_fetches_nothing_for_them(
    page: Any, server: Any
) -> None:
    scripts: list[str] = []
    page.on(
        "request", lambda request: scripts.append(request.url) if request.resource_type == "script" else None
    )
    sent = page.goto("/").text()
    named = set(re.findall(r'(?:src|href)="(/assets/[^"]+\.js)"', sent))
    assert {url.removeprefix(server.base) for url in scripts} <= named, "a script the page does not name"
    expect_every_section(page)
    # The page has settled (no request for half a second): the three the server picked are still
    # there, the script did not pick again.
    assert page.locator(".testimonial strong").all_inner_texts() == re.findall(
        r'<li class="card testimonial">.*?<strong>(.*?)</strong>', sent
    )
    expect_cards_revealed_as_they_show(page)


@pytest.mark.parametrize(
    ("language", "home", "features", "title"),
    [
        ("en", "Home", "Everything a VPN should do", "Free VPN — private, fast, no logs | vpnsite"),
        (
            "ru",
            "Главная",
            "Всё, что должен уметь VPN",
            "Бесплатный VPN — приватно, быстро, без логов | vpnsite",
        ),
    ],
)
def test_the_home_page_drawn_after_a_link_has_every_section_in_its_language(
    page: Any, language: str, home: str, features: str, title: str
) -> None:
    page.goto(localised("/support", language))
    page.locator(".desktop-nav").get_by_role("link", name=home, exact=True).click()
    page.wait_for_url(re.compile(localised("/", language) + "$"))
    expect(page.get_by_role("heading", name=features)).to_be_visible()
    expect(page).to_have_title(title)
    expect_every_section(page)
    expect_cards_revealed_as_they_show(page)
    # Each testimonial reads in the page's language, never as a dictionary key.
    assert "testimonials." not in page.locator("main").inner_text()
