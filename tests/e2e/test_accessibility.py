"""axe-core (from the npm package) on every screen in every language: no serious or critical
violation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.site_map import LANGUAGES, ROUTES, localised

AXE = Path(__file__).resolve().parents[2] / "ui" / "node_modules" / "axe-core" / "axe.min.js"


def serious_violations(page: Any) -> list[str]:
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing at {AXE}: run `npm ci` in ui/")
    # Through the DevTools protocol, which the page's Content-Security-Policy rightly does not allow
    # a script tag to do.
    page.evaluate(AXE.read_text() + "\n;undefined")
    result = page.evaluate("async () => await axe.run(document, { resultTypes: ['violations'] })")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_passes_axe(page: Any, language: str) -> None:
    found = {}
    for route in [route for route in ROUTES if route != "/activation"] + ["/missing-page"]:
        path = localised(route, language)
        page.goto(path)
        page.wait_for_load_state("networkidle")
        if route == "/support":
            page.locator(".faq-item summary").first.click()
        problems = serious_violations(page)
        if problems:
            found[path] = problems
    assert not found, found


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_activation_and_dashboard_screens_pass_axe(page: Any, language: str) -> None:
    prefix = "" if language == "en" else f"/{language}"
    page.goto(prefix or "/")
    page.fill("#signup-email", f"axe-{language}@example.org")
    page.click("#signup button[type=submit]")
    expect(page.locator("#activation-code")).to_be_visible(timeout=15000)
    assert serious_violations(page) == []
    code = page.locator("#activation-code").inner_text()
    page.goto(f"{prefix}/license")
    page.fill("#licence-email", f"axe-{language}@example.org")
    page.fill("#licence-code", code)
    page.locator("form button[type=submit]").click()
    expect(page.locator(".big-number")).to_be_visible()
    assert serious_violations(page) == []
    assert re.search(r"/license$", page.url)
