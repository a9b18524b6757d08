"""The home page's proof block in a browser, on a phone and a desktop, with and without the script:
the figures are the fleet's (countries of its servers, uptime measured or said to be not yet), the
testimonials the operator's file's, the demo's examples labelled so, and none at all (heading
included) without either. A link to the home page draws the same block."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.conftest import Server

WIDTHS = (390, 1280)
OURS = {
    "en": [
        {
            "name": "Ada Lovelace",
            "role": "Analyst",
            "place": "London",
            "text": "Works <b>well</b>.",
            "stars": 4,
        }
    ],
    "ru": [{"name": "Анна Петрова", "place": "Казань", "text": "Подключилась за минуту.", "stars": 5}],
}
SHOTS = os.environ.get("VPNSITE_SHOTS")


@pytest.fixture(scope="module")
def configured(make_server: Callable[..., Server], tmp_path_factory: pytest.TempPathFactory) -> Server:
    path = tmp_path_factory.mktemp("proof") / "testimonials.json"
    path.write_text(json.dumps(OURS), encoding="utf-8")
    return make_server(rate_limits="off", testimonials=str(path))


@pytest.fixture(scope="module")
def bare(make_server: Callable[..., Server]) -> Server:
    return make_server(rate_limits="off")


def open_home(browser: Any, server: Server, path: str, width: int, script: bool) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": 900}, base_url=server.base, java_script_enabled=script
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path, wait_until="networkidle")
    page.errors = errors
    return page


def figures(page: Any) -> dict[str, str]:
    labels = page.locator(".stats dt").all_inner_texts()
    return dict(zip(labels, page.locator(".stats dd").all_inner_texts(), strict=True))


def close(page: Any) -> None:
    errors = page.errors
    page.context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("script", [True, False])
def test_the_demo_shows_three_examples_labelled_so(
    browser: Any, server: Server, width: int, script: bool
) -> None:
    for path, heading, note in (
        ("/", "What our users say", "Example testimonials, written for this demo"),
        ("/ru", "Отзывы пользователей", "Примеры отзывов, написанные для демонстрации"),
    ):
        page = open_home(browser, server, path, width, script)
        block = page.locator(".testimonials")
        expect(block.locator("h3")).to_have_text(heading)
        expect(block.locator(".examples-note")).to_contain_text(note)
        expect(block.locator(".testimonial")).to_have_count(3)
        expect(block.locator(".examples-note")).to_be_visible()
        if SHOTS:
            page.locator(".stats").scroll_into_view_if_needed()
            name = f"proof-demo-{path.strip('/') or 'en'}-{width}{'' if script else '-nojs'}.png"
            page.locator("section:has(.stats)").screenshot(path=str(Path(SHOTS) / name))
        close(page)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("script", [True, False])
def test_a_configured_file_shows_its_testimonials_and_only_them(
    browser: Any, configured: Server, width: int, script: bool
) -> None:
    page = open_home(browser, configured, "/", width, script)
    cards = page.locator(".testimonials .testimonial")
    expect(cards).to_have_count(1)
    expect(cards.locator("blockquote")).to_have_text("Works <b>well</b>.")
    expect(cards.locator("strong")).to_have_text("Ada Lovelace")
    expect(cards.locator(".stars")).to_have_attribute("aria-label", "4/5")
    expect(page.locator(".examples-note")).to_have_count(0)
    if SHOTS:
        page.locator("section:has(.stats)").screenshot(
            path=str(Path(SHOTS) / f"proof-configured-en-{width}{'' if script else '-nojs'}.png")
        )
    close(page)
    page = open_home(browser, configured, "/ru", width, script)
    expect(page.locator(".testimonials .testimonial strong")).to_have_text("Анна Петрова")
    close(page)
    page = open_home(browser, configured, "/es", width, script)
    expect(page.locator(".testimonials *")).to_have_count(0)
    close(page)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("script", [True, False])
def test_without_a_file_there_is_no_testimonials_block(
    browser: Any, bare: Server, width: int, script: bool
) -> None:
    page = open_home(browser, bare, "/", width, script)
    expect(page.locator(".testimonials *")).to_have_count(0)
    expect(page.get_by_text("What our users say")).to_have_count(0)
    if SHOTS:
        page.locator("section:has(.stats)").screenshot(
            path=str(Path(SHOTS) / f"proof-none-en-{width}{'' if script else '-nojs'}.png")
        )
    close(page)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("script", [True, False])
def test_the_figures_are_the_fleets(browser: Any, server: Server, width: int, script: bool) -> None:
    fleet = requests.get(server.base + "/api/server-status", timeout=5).json()["vpn_servers"]
    page = open_home(browser, server, "/", width, script)
    shown = figures(page)
    assert shown["Countries with servers"] == str(len({entry["flag"] for entry in fleet}))
    # The demo started a moment ago: less than a day of heartbeats, no figure.
    assert shown["Uptime, last 30 days"] == "Not measured yet"
    assert int(shown["Servers online"]) <= len(fleet)
    assert "Trusted by" not in page.content() and "50+" not in page.content()
    close(page)
    page = open_home(browser, server, "/fr", width, script)
    assert figures(page)["Disponibilité sur 30 jours"] == "Pas encore mesurée"
    close(page)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_link_to_the_home_page_draws_the_same_block(
    browser: Any, configured: Server, server: Server, width: int
) -> None:
    for served, cards, note in ((configured, ["Ada Lovelace"], 0), (server, None, 1)):
        page = open_home(browser, served, "/about", width, True)
        page.locator("a.brand").click()
        page.wait_for_url("**/")
        block = page.locator(".testimonials")
        if cards is None:
            expect(block.locator(".testimonial")).to_have_count(3)
        else:
            expect(block.locator(".testimonial strong")).to_have_text(cards)
        expect(block.locator(".examples-note")).to_have_count(note)
        expect(page.locator(".stats dd").nth(2)).to_have_text("Not measured yet")
        close(page)
