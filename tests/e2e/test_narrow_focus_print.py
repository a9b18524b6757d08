"""What the eye catches (issue 39, point 9): no page in any language scrolls sideways on a 390 px
phone; the focus ring stands out at 3:1 or more against whatever it sits on (WCAG 1.4.11); and on
paper every section of a page shows, whether or not it had scrolled into view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import page_in
from tests.site_map import LANGUAGES, ROUTES, page_address

# The elements wider than the page, for the message when one is.
WIDER = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll("body *")]
    .filter((element) => element.getBoundingClientRect().right > width + 0.5)
    .slice(0, 5)
    .map((element) => `${element.tagName}.${element.className}: ${element.textContent.slice(0, 30)}`);
}"""

SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"

# The contrast of the focused element's outline against the first opaque background behind it.
RING_CONTRAST = """() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const linear = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const focused = document.activeElement;
  const ring = getComputedStyle(focused);
  if (ring.outlineStyle === "none" || parseFloat(ring.outlineWidth) < 2) return { ring: "none", contrast: 0 };
  let element = focused.parentElement;
  let background = "rgb(255, 255, 255)";
  while (element) {
    const colour = getComputedStyle(element).backgroundColor;
    const parts = rgb(colour);
    if (parts.length === 3 || (parts.length === 4 && parts[3] === 1)) { background = colour; break; }
    element = element.parentElement;
  }
  const [a, b] = [luminance(rgb(ring.outlineColor)), luminance(rgb(background))];
  return { ring: ring.outlineColor, background, contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
}"""


@pytest.mark.parametrize("javascript", [True, False])
def test_no_page_scrolls_sideways_on_a_390_px_phone(browser: Any, server: Any, javascript: bool) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, base_url=server.base, java_script_enabled=javascript
    )
    wide = []
    with page_in(context) as page:
        for language in LANGUAGES:
            for route in [*ROUTES, "/no-such-page"]:
                page.goto(page_address(route, language))
                overflow = page.evaluate(
                    "document.documentElement.scrollWidth - document.documentElement.clientWidth"
                )
                if overflow > 0:
                    wide.append((language, route, overflow, page.evaluate(WIDER)))
    assert wide == []


def test_the_focus_ring_stands_out_at_3_to_1_everywhere(browser: Any, server: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server.base)
    with page_in(context) as page:
        page.goto("/")
        seen = 0
        for _ in range(80):
            page.keyboard.press("Tab")
            found = page.evaluate(RING_CONTRAST)
            if found["ring"] == "none":
                continue
            seen += 1
            assert found["contrast"] >= 3, found
        assert seen > 20, "the keyboard reached the header, the page and the footer"
        # The footer's links sit on its dark background.
        page.locator(".site-footer a").first.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        assert page.evaluate(RING_CONTRAST)["contrast"] >= 3


@pytest.mark.parametrize("route", ["/", "/about", "/server-status"])
def test_print_shows_every_section(browser: Any, server: Any, route: str, tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server.base)
    with page_in(context) as page:
        page.goto("/ru" + ("" if route == "/" else route))
        page.emulate_media(media="print")
        hidden = page.evaluate(
            """() => [...document.querySelectorAll(".reveal")]
                 .filter((element) => getComputedStyle(element).opacity !== "1")
                 .map((element) => element.className)"""
        )
        assert hidden == []
        expect(page.locator(".site-footer")).to_be_visible()
        page.pdf(path=str(tmp_path / "printed.pdf"))
