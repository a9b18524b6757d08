"""The home page's locations section: the countries the fleet's servers are in, each with its flag,
its name and its cities in the page's language, under a heading that counts them with the
language's plural rules ("Серверы в 2 странах"); while no server is listed, a plain sentence that
says so instead of a list.

Every listed server counts, online or not: the status page lists them all, and the proof block's
"Countries with servers" (``StatusSnapshot.countries``) counts the same countries.

The markup is the script's own (``ui/src/routes/home-sections.tsx``: LocationsBlock), prerendered
by the build in pieces with markers (``site/forms/locations.json``). Where the script draws the
home page itself it groups the servers of ``GET /api/server-status`` the same way
(``fleetCountries``); ``tests/integration/test_fleet_locations.py`` holds both equal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from attrs import frozen

from vpnsite.fleet import Location
from vpnsite_adapters.http.pages.slot_manifest import Declared
from vpnsite_adapters.http.pages.slots import BuildPieces, fill, fill_raw
from vpnsite_adapters.texts.formatting import plural

# Between the cities of one country.
CITY_SEPARATOR = ", "


@frozen
class FleetCountry:
    """A country of the fleet as the section shows it: its code, and its name and cities in the
    page's language (each city once, in the order its first server is listed)."""

    code: str
    name: str
    cities: str


class FleetLocations(BuildPieces):
    SLOTS: ClassVar[Declared] = {
        "markup/block": frozenset({"RAW_CARDS", "TITLE"}),
        "markup/card": frozenset({"CITIES", "NAME", "RAW_FLAG"}),
        "markup/flags/*": frozenset({"NAME"}),
    }

    def countries(self, language: str, locations: Sequence[Location]) -> list[FleetCountry]:
        """The fleet's countries, in the order each one's first server is listed."""
        parts = self.of(language)
        found: dict[str, tuple[str, list[str]]] = {}
        for location in locations:
            name, city = self.place(parts, location.country, location.name, location.city)
            cities = found.setdefault(location.country, (name, []))[1]
            if city not in cities:
                cities.append(city)
        return [
            FleetCountry(code, name, CITY_SEPARATOR.join(cities)) for code, (name, cities) in found.items()
        ]

    def block(self, language: str, locations: Sequence[Location]) -> bytes:
        """The section's content for the fleet's ``locations`` (``StatusSnapshot.locations``).
        Nothing the operator named is read as a marker by a later filling (``slots.escape``)."""
        parts = self.of(language)
        markup = parts["markup"]
        countries = self.countries(language, locations)
        if not countries:
            return str(markup["none"]).encode()
        cards = "".join(self._card(parts, country) for country in countries)
        title = plural(len(countries), parts["title"], language)
        return fill_raw(fill(str(markup["block"]).encode(), {"TITLE": title}), {"CARDS": cards.encode()})

    def _card(self, parts: dict[str, Any], country: FleetCountry) -> str:
        card = fill_raw(
            str(parts["markup"]["card"]).encode(), {"FLAG": self.flag(parts, country.code).encode()}
        )
        return fill(card, {"NAME": country.name, "CITIES": country.cities}).decode()
