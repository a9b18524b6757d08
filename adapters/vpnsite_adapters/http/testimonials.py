"""The home page's testimonials: the page the server sends shows a few of them, picked at random
for each page (spec: three of eight), so a visitor sees a fresh choice with or without the script.

The markup is the script's own (``ui/src/routes/home-sections.tsx``: TestimonialCard), prerendered
by the build for each testimonial in each language (``site/forms/testimonials.json``), with how
many a page shows.
"""

from __future__ import annotations

import random

from vpnsite_adapters.http.slots import BuildPieces

# Not a secret: which testimonials a page shows only has to vary.
_random = random.Random()


class Testimonials(BuildPieces):
    def pick(self, language: str) -> tuple[int, ...]:
        """Which of the language's testimonials a page shows (their places in the build's list),
        in the order shown."""
        parts = self.of(language)
        return tuple(_random.sample(range(len(parts["markup"])), parts["shown"]))

    def block(self, language: str, picked: tuple[int, ...]) -> bytes:
        markup: list[str] = self.of(language)["markup"]
        return "".join(markup[index] for index in picked).encode()
