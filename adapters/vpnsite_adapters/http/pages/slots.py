"""The markers the build leaves in the website's pages (``__SLOT_NAME__``) and their filling.

A marker's value is text, HTML-escaped as it goes in; a ``__SLOT_RAW_NAME__`` marker takes markup
the server has put together from the build's own pieces (``fill_raw``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Self

from vpnsite_adapters.http.pages.slot_manifest import Declared
from vpnsite_adapters.texts.languages import DEFAULT_LANGUAGE

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", '"': "&quot;"})
# A name is words joined by single underscores, so two markers side by side stay two.
_NAME = rb"([A-Z0-9]+(?:_[A-Z0-9]+)*)__"
_SLOT = re.compile(rb"__SLOT_(?!RAW_)" + _NAME)
_RAW = re.compile(rb"__SLOT_RAW_" + _NAME)


def escape(text: str) -> str:
    """Text made safe for an element's content or a double-quoted attribute, escaped as the build's
    renderer escapes it (so a filled page reads as the script would draw it); and, unlike it, with
    no two underscores side by side, the way every marker begins (``__SLOT_X__``, the operator's
    ``__OPERATOR_NAME__``), so that a later filling of the markup it went into never reads a
    visitor's or the operator's text as a marker (an e-mail such as ``__SLOT_X__@example.org``).
    ``&#95;`` reads as ``_`` everywhere HTML is parsed."""
    return text.translate(_ESCAPES).replace("__", "_&#95;")


def fill(body: bytes, values: Mapping[str, str]) -> bytes:
    """``body`` with each text marker replaced by its value, escaped; a marker without a value is
    a bug (a visitor would see it), so it raises ``KeyError``."""

    def value(match: re.Match[bytes]) -> bytes:
        return escape(values[match.group(1).decode()]).encode()

    return _SLOT.sub(value, body)


def fill_raw(body: bytes, values: Mapping[str, bytes]) -> bytes:
    return _RAW.sub(lambda match: values[match.group(1).decode()], body)


class BuildPieces:
    """Markup the build prerendered in pieces with markers, per language, with the texts and tables
    that go with them (a JSON file in ``site/forms``); a subclass puts a block together from them,
    and declares the slots it fills in each piece (``SLOTS``, held against the build's manifest)."""

    SLOTS: ClassVar[Declared] = {}

    def __init__(self, parts: dict[str, Any]) -> None:
        self.parts = parts

    @classmethod
    def load(cls, path: Path) -> Self:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def of(self, language: str) -> dict[str, Any]:
        """A language's pieces; the default language's for one the build does not know."""
        found: dict[str, Any] = self.parts.get(language, self.parts[DEFAULT_LANGUAGE])
        return found

    @staticmethod
    def place(parts: dict[str, Any], country: str | None, name: str, city: str) -> tuple[str, str]:
        """A server's country and city in the page's language: the dictionary's name for the
        country of its flag, and its city's name where the dictionary translates that city (by its
        English name); else the server's own (``ui/src/i18n/places.ts``: placeOf does the same)."""
        countries: dict[str, str] = parts["places"]["countries"]
        cities: dict[str, str] = parts["places"]["cities"]
        return countries.get(country or "", name), cities.get(city, city)

    @staticmethod
    def flag(parts: dict[str, Any], country: str) -> str:
        """A country's flag (its label a ``NAME`` slot), or the one for every other country."""
        flags: dict[str, str] = parts["markup"]["flags"]
        return flags.get(country, flags["other"])
