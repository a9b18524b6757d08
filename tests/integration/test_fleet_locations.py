"""The home page's locations section follows the fleet (issue 30: no sentence claims more than the
numbers beside it): the countries of the listed servers, online or not, each with its cities, under
a heading that counts them in the language's plural form, the same number as the proof block's
"Countries with servers"; a plain sentence while no server is listed. The server's markup is the
script's, byte for byte (http/pages/fleet_locations.py)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest

from tests.integration.test_site_forms import SAME_SITE
from tests.integration.test_social_proof import stats
from tests.integration.test_status_page import rendered_by_the_script
from tests.site_map import LANGUAGES, localised
from vpnsite.fleet import SPEC_LOCATIONS, Location
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.http.pages.fleet_locations import FleetLocations
from vpnsite_adapters.http.pages.site import SITE_DIR

PIECES = FleetLocations.load(SITE_DIR / "forms" / "locations.json")
COUNTRIES_LABEL = {
    "en": "Countries with servers",
    "ru": "Стран с серверами",
    "es": "Países con servidores",
    "fr": "Pays couverts",
    "pt": "Países com servidores",
}
# Three servers in two countries: two in Amsterdam, one in a country the dictionaries do not name.
OURS = (
    Location("nl-ams-1", "Netherlands", "nl", "Amsterdam"),
    Location("ca-tor-1", "Canada", "ca", "Toronto"),
    Location("nl-ams-2", "Netherlands", "nl", "Amsterdam"),
)


def section(html: str) -> tuple[str, list[tuple[str, str]], str]:
    """The locations section: its heading, its cards (name, cities) and its lead."""
    # The first "alt" section; the build's markers of a lazily drawn part (<!--$s-->) around it.
    pattern = (
        r'<section class="section alt">(?:<!--\$s-->)?<div class="container">(.*?)</div>(?:<!--/\$s-->)?'
    )
    found = re.search(pattern + "</section>", html, re.S)
    assert found, "the locations section"
    inner = found.group(1)
    heading = re.search(r'<h2 class="section-title">(.*?)</h2>', inner)
    lead = re.search(r'<p class="section-lead">(.*?)</p>', inner)
    assert heading and lead
    cards = re.findall(
        r'<li class="reveal card location">.*?<h3>(.*?)</h3><p class="small muted">(.*?)</p>', inner
    )
    return unescape(heading.group(1)), [(unescape(n), unescape(c)) for n, c in cards], unescape(lead.group(1))


def own_fleet(make_hub: Any, locations: tuple[Location, ...]) -> Any:
    hub = make_hub(public_url="https://vpn.example", seed_default_fleet="false")
    with hub.store.unit_of_work.atomic():
        hub.store.fleet.add_locations(locations)
    hub.services.snapshot.refresh()
    return hub


def test_the_demo_fleet_shows_its_eight_countries_and_the_same_count_as_the_figures(make_hub: Any) -> None:
    client = create_app(make_hub(public_url="https://vpn.example").services).test_client()
    titles = {
        "en": "Servers in 8 countries",
        "ru": "Серверы в 8 странах",
        "es": "Servidores en 8 países",
        "fr": "Des serveurs dans 8 pays",
        "pt": "Servidores em 8 países",
    }
    for language in LANGUAGES:
        html = client.get(localised("/", language)).get_data(as_text=True)
        heading, cards, _ = section(html)
        assert heading == titles[language]
        assert len(cards) == int(stats(html)[COUNTRIES_LABEL[language]]) == 8
    heading, cards, _ = section(client.get("/ru").get_data(as_text=True))
    assert cards[0] == ("Нидерланды", "Амстердам") and cards[-1] == ("США", "Нью-Йорк")
    assert [name for name, _ in section(client.get("/").get_data(as_text=True))[1]] == [
        location.name for location in SPEC_LOCATIONS
    ]


def test_a_fleet_of_three_servers_in_two_countries(make_hub: Any) -> None:
    client = create_app(own_fleet(make_hub, OURS).services).test_client()
    expected = {
        "en": ("Servers in 2 countries", [("Netherlands", "Amsterdam"), ("Canada", "Toronto")]),
        "ru": ("Серверы в 2 странах", [("Нидерланды", "Амстердам"), ("Canada", "Toronto")]),
        "fr": ("Des serveurs dans 2 pays", [("Pays-Bas", "Amsterdam"), ("Canada", "Toronto")]),
    }
    for language, (title, cards) in expected.items():
        html = client.get(localised("/", language)).get_data(as_text=True)
        assert section(html)[:2] == (title, cards), language
        figures = stats(html)
        # None of them has reported yet: offline, and listed all the same (as the status page does).
        assert figures[COUNTRIES_LABEL[language]] == "2" and "0" in figures.values()
        words = re.sub(r"<style>.*?</style>|<[^>]+>", " ", html, flags=re.S)
        assert not re.search(r"\b(eight|восьми|huit)\b", words), language
    for language in LANGUAGES:
        html = client.get(localised("/", language)).get_data(as_text=True)
        assert len(section(html)[1]) == int(stats(html)[COUNTRIES_LABEL[language]]), language
    # A country the dictionaries do not name has the flag drawn for every other country.
    html = client.get("/").get_data(as_text=True)
    assert 'aria-label="Canada"' in html


def test_the_page_follows_the_fleet_as_it_changes(make_hub: Any) -> None:
    hub = own_fleet(make_hub, OURS[:1])
    client = create_app(hub.services).test_client()
    assert section(client.get("/").get_data(as_text=True))[:2] == (
        "Servers in 1 country",
        [("Netherlands", "Amsterdam")],
    )
    assert section(client.get("/ru").get_data(as_text=True))[0] == "Серверы в 1 стране"
    with hub.store.unit_of_work.atomic():
        hub.store.fleet.add_locations([Location("de-fra-1", "Germany", "de", "Frankfurt")])
    hub.services.snapshot.refresh()
    assert section(client.get("/").get_data(as_text=True))[:2] == (
        "Servers in 2 countries",
        [("Netherlands", "Amsterdam"), ("Germany", "Frankfurt")],
    )


def test_a_city_the_dictionaries_do_not_translate_is_shown_as_the_operator_wrote_it(make_hub: Any) -> None:
    # A server in Berlin is in Germany, not in Frankfurt: the country's name comes from the flag,
    # a city's only where the dictionary translates that very city.
    german = (Location("de-ber-1", "DE", "de", "Berlin"), Location("de-fra-1", "DE", "de", "Frankfurt"))
    client = create_app(own_fleet(make_hub, german).services).test_client()
    for language, card in (
        ("en", ("Germany", "Berlin, Frankfurt")),
        ("ru", ("Германия", "Berlin, Франкфурт")),
        ("fr", ("Allemagne", "Berlin, Francfort")),
    ):
        assert section(client.get(localised("/", language)).get_data(as_text=True))[1] == [card], language


def test_an_empty_fleet_says_so_plainly(make_hub: Any) -> None:
    client = create_app(
        make_hub(public_url="https://vpn.example", seed_default_fleet="false").services
    ).test_client()
    for language, title, text in (
        ("en", "Where our servers are", "No server is listed yet."),
        ("ru", "Где наши серверы", "Пока нет ни одного сервера."),
    ):
        html = client.get(localised("/", language)).get_data(as_text=True)
        heading, cards, lead = section(html)
        assert (heading, cards) == (title, []) and lead.startswith(text)
        assert stats(html)[COUNTRIES_LABEL[language]] == "0"


def test_a_form_answer_that_shows_the_home_page_shows_the_fleet_too(make_hub: Any) -> None:
    client = create_app(own_fleet(make_hub, OURS).services).test_client()
    answer = client.post("/ru/activation", data={"email": "not an address"}, headers=SAME_SITE)
    html = answer.get_data(as_text=True)
    assert section(html)[:2] == ("Серверы в 2 странах", [("Нидерланды", "Амстердам"), ("Canada", "Toronto")])


def test_the_heading_counts_in_each_languages_plural_form() -> None:
    def fleet(count: int) -> list[Location]:
        return [Location(f"x{n}", f"Land {n}", f"x{n}", "City") for n in range(count)]

    for count, language, title in (
        (1, "en", "Servers in 1 country"),
        (2, "ru", "Серверы в 2 странах"),
        (5, "ru", "Серверы в 5 странах"),
        (21, "ru", "Серверы в 21 стране"),
        (22, "ru", "Серверы в 22 странах"),
        (1, "es", "Servidores en 1 país"),
        (3, "pt", "Servidores em 3 países"),
        (1, "pt", "Servidores em 1 país"),
    ):
        block = PIECES.block(language, fleet(count)).decode()
        assert f'<h2 class="section-title">{title}</h2>' in block, (count, language)


def test_a_name_shaped_like_a_marker_stays_text(make_hub: Any) -> None:
    odd = (Location("odd-1", "__SLOT_USERS__ & <b>", "zz", "__OPERATOR_NAME__"),)
    html = create_app(own_fleet(make_hub, odd).services).test_client().get("/").get_data(as_text=True)
    assert section(html)[1] == [("__SLOT_USERS__ & <b>", "__OPERATOR_NAME__")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_server_puts_the_section_together_as_the_script_draws_it(language: str) -> None:
    fleets = [
        SPEC_LOCATIONS,
        OURS,
        (),
        (
            Location("a", 'O\'Brien "Land" & <co>', "zz", "Saint-Denis, Réunion"),
            Location("b", "Deutschland", "de", "Berlin"),
            Location("c", "Germany", "de", "Frankfurt"),
            Location("d", "Other", "zz", "Elsewhere"),
        ),
    ]
    cases = [
        (
            "renderLocations",
            [{"id": loc.id, "name": loc.name, "flag": loc.country, "location": loc.city} for loc in fleet],
            language,
        )
        for fleet in fleets
    ]
    for fleet, drawn in zip(fleets, rendered_by_the_script(cases), strict=True):
        assert PIECES.block(language, fleet).decode() == drawn, fleet
