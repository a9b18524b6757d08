"""The About page and the terms in a browser (issue 39): the operator's facts stay after the script
takes the page over and come back when the script draws the page after a link; neither page
scrolls sideways on a phone or a desktop, in Russian or French."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import page_in

# Where the pages' screenshots go when asked for (VPNSITE_SCREENSHOTS=folder), to be looked at.
SHOTS = os.environ.get("VPNSITE_SCREENSHOTS")


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("path", ["/ru/about", "/ru/terms", "/fr/about", "/fr/terms"])
def test_about_and_terms_do_not_scroll_sideways(browser: Any, server: Any, path: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900}, base_url=server.base)
    with page_in(context) as page:
        page.goto(path)
        root = "document.documentElement"
        overflow = page.evaluate(f"{root}.scrollWidth - {root}.clientWidth")
        assert overflow <= 0, f"{path} at {width} px scrolls sideways by {overflow} px"
        wide = page.evaluate(
            """() => [...document.querySelectorAll('main *')]
                .filter((node) => node.getBoundingClientRect().right > innerWidth + 1)
                .map((node) => node.tagName + '.' + node.className)"""
        )
        assert wide == [], f"{path} at {width} px: {wide[:5]}"
        if SHOTS:
            name = path.strip("/").replace("/", "-")
            page.screenshot(path=str(Path(SHOTS) / f"{name}-{width}.png"), full_page=True)
            for section in ("founder", "investment", "roadmap", "licences", "renewal", "law"):
                shot = Path(SHOTS) / f"{name}-{width}-{section}.png"
                if page.locator(f"#{section}").count():
                    page.locator(f"#{section}").screenshot(path=str(shot))


def test_the_facts_stay_after_the_script_and_come_after_a_link(page: Any) -> None:
    page.goto("/ru/about")
    notice = page.locator("#investment .notice")
    assert "не предложение" in notice.inner_text()
    assert page.locator(".roadmap > li").count() == 9
    assert "15" in page.locator("#founder").inner_text()
    assert page.locator("#technologies a").get_attribute("href") == "/source/vpnsite-source.tar.gz"
    page.goto("/fr")
    page.locator(".site-footer").get_by_role("link", name="À propos").first.click()
    page.wait_for_url("**/fr/about")
    page.locator(".roadmap > li").first.wait_for()
    assert page.locator(".roadmap > li").count() == 9
    assert "ne propose ni actions" in page.locator("#investment .notice").inner_text()
    assert "$US + " in page.locator("#investment").inner_text()
    assert page.locator("#ready li").count() == 5
    page.locator(".site-footer").get_by_role("link", name="Conditions d’utilisation").first.click()
    page.wait_for_url("**/fr/terms")
    page.locator("#access").wait_for()
    assert "Un seul spécialiste" in page.locator("#access").inner_text()
