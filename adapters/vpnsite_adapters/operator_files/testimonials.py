"""The home page's testimonials: what the operator's customers said, from a file the operator writes
(``VPNSITE_TESTIMONIALS``), read and checked when the settings are read. Without one the home page
shows none, heading included; the demo shows the specification's eight, labelled as examples
(``example_testimonials.json``, in the same format).

The file is JSON: for each of the website's languages (``languages.json``) that has any, a list
of testimonials, each ``{"name": …, "role": …, "place": …, "text": …, "stars": 1-5}`` (``role`` and
``place`` may be left out). A language the file leaves out shows none."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

from attrs import frozen

from vpnsite_adapters.operator_files.json_files import read_operator_json
from vpnsite_adapters.texts.languages import LANGUAGES

EXAMPLES_FILE = Path(__file__).with_name("example_testimonials.json")
MAX_PER_LANGUAGE = 50
MAX_FILE_BYTES = 1_000_000
_LIMITS = {"name": 60, "role": 60, "place": 60, "text": 600}
_REQUIRED = ("name", "text", "stars")


class TestimonialsError(ValueError):
    __test__ = False  # not a test class, for pytest


@frozen
class Testimonial:
    __test__ = False

    name: str
    text: str
    stars: int
    role: str = ""
    place: str = ""

    @property
    def about(self) -> str:
        """Who they are, as the card says it under the name: "Journalist · Riga, Latvia"."""
        return " · ".join(part for part in (self.role, self.place) if part)

    @property
    def initials(self) -> str:
        """The avatar: the first letters of the first two words of the name, never a photo."""
        return "".join(word[0] for word in self.name.split()[:2]).upper()


@frozen
class TestimonialSet:
    """Testimonials per language; ``examples``: invented ones, to be labelled so."""

    __test__ = False

    by_language: dict[str, tuple[Testimonial, ...]]
    examples: bool = False

    def of(self, language: str) -> tuple[Testimonial, ...]:
        return self.by_language.get(language, ())


NONE = TestimonialSet({})


def read_testimonials(path: Path, examples: bool = False) -> TestimonialSet:
    """The testimonials in the file at ``path``; an error that says what is wrong and where."""
    where = f"VPNSITE_TESTIMONIALS ({path})"
    data = read_operator_json(path, where, TestimonialsError, MAX_FILE_BYTES)
    if not isinstance(data, dict):
        raise TestimonialsError(f'{where}: the file must hold an object of languages, e.g. {{"en": [...]}}')
    unknown = sorted(set(data) - set(LANGUAGES))
    if unknown:
        raise TestimonialsError(
            f"{where}: unknown language {', '.join(map(repr, unknown))} (one of {', '.join(LANGUAGES)})"
        )
    by_language: dict[str, tuple[Testimonial, ...]] = {}
    for language, items in data.items():
        if not isinstance(items, list):
            raise TestimonialsError(f"{where}: {language} must be a list of testimonials")
        if len(items) > MAX_PER_LANGUAGE:
            raise TestimonialsError(f"{where}: {language}: at most {MAX_PER_LANGUAGE} testimonials")
        read = tuple(_testimonial(item, f"{where}: {language}[{n}]") for n, item in enumerate(items))
        if read:
            by_language[language] = read
    return TestimonialSet(by_language, examples)


def shown_testimonials(configured: TestimonialSet | None, demo: bool) -> TestimonialSet:
    """What the home page shows: the operator's, else the examples in the demo, else none."""
    if configured is not None:
        return configured
    return example_testimonials() if demo else NONE


def example_testimonials() -> TestimonialSet:
    """The demo's: the specification's eight in every language, labelled as examples."""
    return read_testimonials(EXAMPLES_FILE, examples=True)


def _testimonial(item: Any, where: str) -> Testimonial:
    if not isinstance(item, dict):
        raise TestimonialsError(f"{where}: each testimonial is an object with name, text and stars")
    unknown = sorted(set(item) - {*_LIMITS, "stars"})
    if unknown:
        raise TestimonialsError(f"{where}: unknown field {', '.join(map(repr, unknown))}")
    missing = [name for name in _REQUIRED if name not in item]
    if missing:
        raise TestimonialsError(f"{where}: missing {', '.join(missing)}")
    stars = item["stars"]
    if isinstance(stars, bool) or not isinstance(stars, int) or not 1 <= stars <= 5:
        raise TestimonialsError(f"{where}: stars must be a whole number from 1 to 5, not {stars!r}")
    texts = {name: _text(item.get(name, ""), name, where) for name in _LIMITS}
    for name in ("name", "text"):
        if not texts[name]:
            raise TestimonialsError(f"{where}: {name} must not be empty")
    return Testimonial(texts["name"], texts["text"], stars, texts["role"], texts["place"])


def _text(value: Any, name: str, where: str) -> str:
    if not isinstance(value, str):
        raise TestimonialsError(f"{where}: {name} must be text")
    text = " ".join(str(value).split())
    if len(text) > _LIMITS[name]:
        raise TestimonialsError(f"{where}: {name} is longer than {_LIMITS[name]} characters")
    if any(unicodedata.category(char)[0] == "C" for char in text):
        raise TestimonialsError(f"{where}: {name} holds a control or invisible formatting character")
    return text
