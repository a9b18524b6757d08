"""The home page's testimonials (``testimonials_file.py``: the operator's, the demo's examples, or
none): the page the server sends shows a few of the language's, picked at random for each page
(three, or all when fewer), under their heading; with none for the language, neither.

The markup is the script's own (``ui/src/routes/home-sections.tsx``: TestimonialsBlock), prerendered
by the build in pieces with markers (``site/forms/testimonials.json``); what the operator wrote is
text, escaped as it goes in. Where the script draws the home page itself (after a link) it asks
``GET /api/testimonials`` for a pick of its own and draws the same markup from it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, ClassVar

from flask import Blueprint, Response, request

from vpnsite_adapters.http.described import Call, described, route
from vpnsite_adapters.http.pages.slot_manifest import Declared
from vpnsite_adapters.http.pages.slots import BuildPieces, fill, fill_raw
from vpnsite_adapters.http.wire import answer
from vpnsite_adapters.operator_files.testimonials import Testimonial, TestimonialSet
from vpnsite_adapters.texts.languages import DEFAULT_LANGUAGE, LANGUAGES
from vpnsite_contract import website

# Not a secret: which testimonials a page shows only has to vary.
_random = random.Random()


class Testimonials(BuildPieces):
    SLOTS: ClassVar[Declared] = {
        "block*": frozenset({"RAW_CARDS"}),
        "card": frozenset({"ABOUT", "INITIALS", "NAME", "RAW_STARS", "STARS_LABEL", "TEXT"}),
    }

    __test__ = False  # not a test class, for pytest

    def __init__(self, parts: dict[str, Any], shown: TestimonialSet) -> None:
        super().__init__(parts)
        self.shown = shown

    @classmethod
    def read(cls, path: Path, shown: TestimonialSet) -> Testimonials:
        return cls(json.loads(path.read_text(encoding="utf-8")), shown)

    def pick(self, language: str) -> tuple[int, ...]:
        """Which of the language's testimonials a page shows (their places in the list), in the
        order shown; none when the language has none."""
        count = len(self.shown.of(language))
        return tuple(_random.sample(range(count), min(count, self.of(language)["shown"])))

    def block(self, language: str, picked: tuple[int, ...]) -> bytes:
        """The heading and the cards picked (with the examples' note in the demo); nothing for
        none. Nothing in it is read as a marker by a later filling (``slots.escape``)."""
        if not picked:
            return b""
        parts = self.of(language)
        items = self.shown.of(language)
        cards = "".join(self._card(parts, items[index]) for index in picked)
        block = parts["block_examples" if self.shown.examples else "block"]
        return fill_raw(str(block).encode(), {"CARDS": cards.encode()})

    @staticmethod
    def _card(parts: dict[str, Any], item: Testimonial) -> str:
        values = {
            "NAME": item.name,
            "ABOUT": item.about,
            "TEXT": item.text,
            "INITIALS": item.initials,
            "STARS_LABEL": f"{item.stars}/5",
        }
        card = fill_raw(str(parts["card"]).encode(), {"STARS": str(parts["star"]).encode() * item.stars})
        return fill(card, values).decode()

    def data(self, language: str, picked: tuple[int, ...]) -> website.Testimonials:
        """The same pick for the script: what it draws the block from."""
        items = self.shown.of(language)
        return website.Testimonials(self.shown.examples, [card_data(items[index]) for index in picked])


def card_data(item: Testimonial) -> website.Testimonial:
    return website.Testimonial(item.name, item.about, item.text, item.stars, item.initials)


PICK = described(
    Call(
        "/api/testimonials",
        "A few of the operator's testimonials in a language, picked at random",
        website.Testimonials,
        method="get",
        answered="The pick (never cached)",
        query=("language",),
    )
)


def testimonials_api(testimonials: Testimonials) -> Blueprint:
    blueprint = Blueprint("testimonials", __name__)

    @route(blueprint, PICK)
    def pick() -> Response:
        language = request.args.get("language", DEFAULT_LANGUAGE)
        language = language if language in LANGUAGES else DEFAULT_LANGUAGE
        response = answer(testimonials.data(language, testimonials.pick(language)))
        response.headers["Cache-Control"] = "no-store"
        return response

    return blueprint
