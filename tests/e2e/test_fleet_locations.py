"""The home page's locations section in a browser, on a phone and a desktop, with and without the
script: the countries and cities of the fleet's servers (a fleet of our own: three servers in two
countries, registered with `vpn add-server`; the demo's eight), the heading counting them in the
page's language, the same number as the proof block's figure; a plain sentence for an empty fleet.
A link to the home page draws the same section. Screenshots go to VPNSITE_SHOTS when it is set."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server
from tests.e2e.test_social_proof import close, figures, open_home
from tests.integration.processes import free_port, vpnsite
from tests.support.serve import serve, stop

WIDTHS = (390, 1280)
SERVERS = {
    "nl-ams-1": ("nl", "Amsterdam", "Netherlands"),
    "ca-tor-1": ("ca", "Toronto", "Canada"),
    "nl-ams-2": ("nl", "Amsterdam", "Netherlands"),
}
OURS = {
    "/": (
        "Servers in 2 countries",
        ["Netherlands", "Canada"],
        ["Amsterdam", "Toronto"],
        "Countries with servers",
    ),
    "/ru": ("Серверы в 2 странах", ["Нидерланды", "Canada"], ["Амстердам", "Toronto"], "Стран с серверами"),
}
SHOTS = os.environ.get("VPNSITE_SHOTS")


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("locations")
    data_dir = tmp / "data"
    env = {**os.environ, "VPNSITE_DATA_DIR": str(data_dir), "VPNSITE_ACCESS_LOG": "false"}
    env.pop("VPNSITE_DATABASE_URL", None)
    assert vpnsite("vpn", "init", env=env).returncode == 0
    for name, (country, city, display) in SERVERS.items():
        added = vpnsite(
            "vpn", "add-server", name, "--country", country, "--city", city, "--host", f"{name}.example.com",
            "--display-name", display, env=env,
        )  # fmt: skip
        assert added.returncode == 0, added.stderr
    served = serve(env, tmp / "serve.log", port=free_port())
    yield Server(served.base, data_dir, served.process)
    stop(served.process)
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def empty(make_server: Callable[..., Server]) -> Server:
    return make_server(seed_default_fleet="false")


def locations(page: Any) -> Any:
    return page.locator("section.alt").first


def shown(page: Any) -> tuple[str, list[str], list[str], list[str]]:
    """The heading, the countries, their cities and their flags' labels, as a visitor meets them."""
    block = locations(page)
    block.scroll_into_view_if_needed()
    cards = block.locator(".location")
    return (
        block.locator("h2").inner_text(),
        cards.locator("h3").all_inner_texts(),
        cards.locator("p").all_inner_texts(),
        [str(label) for label in cards.locator("svg.flag").evaluate_all("els => els.map(e => e.ariaLabel)")],
    )


def shoot(page: Any, name: str) -> None:
    if SHOTS:
        block = locations(page)
        block.scroll_into_view_if_needed()
        # Cards fade in as they scroll into view (components/reveal.ts): shoot them once shown.
        page.wait_for_timeout(700)
        block.screenshot(path=str(Path(SHOTS) / f"locations-{name}.png"))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("script", [True, False])
def test_the_section_lists_our_fleets_countries(
    browser: Any, fleet: Server, width: int, script: bool
) -> None:
    for path, (title, names, cities, label) in OURS.items():
        page = open_home(browser, fleet, path, width, script)
        assert shown(page) == (title, names, cities, names)
        assert figures(page)[label] == str(len(names))
        expect(locations(page).locator(".location").first).to_be_visible()
        shoot(page, f"ours-{path.strip('/') or 'en'}-{width}{'' if script else '-nojs'}")
        close(page)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("script", [True, False])
def test_the_demo_shows_its_eight(browser: Any, server: Server, width: int, script: bool) -> None:
    for path, title, label in (
        ("/", "Servers in 8 countries", "Countries with servers"),
        ("/ru", "Серверы в 8 странах", "Стран с серверами"),
    ):
        page = open_home(browser, server, path, width, script)
        heading, names, _, flags = shown(page)
        assert heading == title and len(names) == 8 and flags == names
        assert figures(page)[label] == "8"
        shoot(page, f"{path.strip('/') or 'en'}-{width}{'' if script else '-nojs'}")
        close(page)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("script", [True, False])
def test_an_empty_fleet_says_so(browser: Any, empty: Server, width: int, script: bool) -> None:
    page = open_home(browser, empty, "/ru", width, script)
    assert shown(page) == ("Где наши серверы", [], [], [])
    expect(locations(page)).to_contain_text("Пока нет ни одного сервера.")
    assert figures(page)["Стран с серверами"] == "0"
    shoot(page, f"empty-ru-{width}{'' if script else '-nojs'}")
    close(page)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_link_to_the_home_page_draws_the_same_section(browser: Any, fleet: Server, width: int) -> None:
    for path, brand in (("/about", "/"), ("/ru/about", "/ru")):
        title, names, cities, _ = OURS[brand]
        page = open_home(browser, fleet, path, width, True)
        page.locator("a.brand").click()
        page.wait_for_url(f"**{brand}")
        expect(locations(page).locator("h2")).to_have_text(title)
        assert shown(page) == (title, names, cities, names)
        close(page)
