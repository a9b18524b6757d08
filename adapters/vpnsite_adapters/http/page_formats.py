"""Counts, dates and counted texts ("{n} days", "{n} users") as the website's script writes them,
for the pages the server fills.

Numbers, dates and plural rules are the server's own (``vpnsite_adapters/formatting.py``, held to
``Intl`` by ``tests/locale_vectors.json``); the texts that count something come from the same
dictionaries the script uses: the build writes each language's plural forms of them into
``site/forms/formats.json`` (``ui/src/prerender.tsx``: ``formats``), with the words said instead
of a count below the script's threshold (``FEW_USERS``, exported there too) and the markup of a
large count's two forms, so a page the server fills reads exactly as the script would render it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from attrs import frozen

from vpnsite_adapters.formatting import PluralForms, format_date, format_number, plural, plural_form
from vpnsite_adapters.http.slots import escape, fill


def percent_text(pattern: str, decimal: str, number: str) -> str:
    """A number ("99.9") as the language writes a percentage: its pattern ("{n} %", from the
    build) and decimal sign."""
    return pattern.replace("{n}", number.replace(".", decimal))


def load_value(load: object) -> Decimal:
    """A load as the snapshot writes it ("29%", "69.5%") as a number."""
    return Decimal(str(float(str(load).rstrip("%") or 0)))


def load_percent(pattern: str, decimal: str, load: object) -> str:
    """A load as the script writes it: rounded to a whole percentage."""
    return percent_text(pattern, decimal, str(load_value(load).quantize(Decimal(1), ROUND_HALF_UP)))


@frozen
class CountedText:
    forms: PluralForms
    # Markup said instead of the count below the threshold, as the build rendered it.
    few: str


@frozen
class LanguageFormats:
    language: str
    days: PluralForms
    few_users: int
    short_from: int
    # Each marker that holds a text counting users (``__SLOT_RAW_FOOTER_USERS__``…), by its name
    # (``FOOTER_USERS``), and its texts.
    counted_users: Mapping[str, CountedText]
    # A large count's markup, with ``__SLOT_FULL__`` and ``__SLOT_SHORT__``.
    count_forms: str
    # Power of ten → (the power the short form counts in, its text around "{n}").
    short_patterns: Mapping[int, tuple[int, str]]
    decimal: str

    def count(self, value: int) -> str:
        return format_number(value, self.language)

    def date(self, day: date) -> str:
        return format_date(day, self.language)

    def days_text(self, days: int) -> str:
        return plural(days, self.days, self.language)

    def short(self, value: int) -> str:
        """The short form of a count from a million ("1.2M", "1,2 млн"), rounded as Intl rounds."""
        power = len(str(value)) - 1
        shift, pattern = self.short_patterns[power]
        scaled = Decimal(value).scaleb(-shift).quantize(Decimal("0.1"), ROUND_HALF_UP)
        if scaled >= Decimal(10) ** (power + 1 - shift) and power + 1 in self.short_patterns:
            shift, pattern = self.short_patterns[power + 1]
            scaled = Decimal(value).scaleb(-shift).quantize(Decimal("0.1"), ROUND_HALF_UP)
        whole, _, tenth = str(scaled).partition(".")
        number = self.count(int(whole)) + ("" if tenth in ("", "0") else self.decimal + tenth)
        return pattern.replace("{n}", number)

    def counted(self, users: int) -> dict[str, bytes]:
        """Every marker for a user count, filled with markup: the words for a new service below
        the threshold, else the language's plural form with the count (in both forms above the
        short form's start)."""
        return {name: self._counted(users, text) for name, text in self.counted_users.items()}

    def _counted(self, users: int, text: CountedText) -> bytes:
        if users < self.few_users:
            return text.few.encode()
        before, _, after = plural_form(users, text.forms, self.language).partition("{n}")
        if users <= self.short_from:
            number = escape(self.count(users)).encode()
        else:
            number = fill(self.count_forms.encode(), {"FULL": self.count(users), "SHORT": self.short(users)})
        return escape(before).encode() + number + escape(after).encode()


class PageFormats:
    def __init__(self, tables: dict[str, Any]) -> None:
        self.languages = {
            language: LanguageFormats(
                language=language,
                days=dict(table["days"]),
                few_users=int(table["few_users"]),
                short_from=int(table["short_from"]),
                counted_users={
                    name: CountedText(forms=dict(text["forms"]), few=text["few"])
                    for name, text in table["counted_users"].items()
                },
                count_forms=table["count_forms"],
                short_patterns={
                    int(power): (shift, text) for power, (shift, text) in table["short_patterns"].items()
                },
                decimal=table["decimal"],
            )
            for language, table in tables.items()
        }

    @classmethod
    def load(cls, path: Path) -> PageFormats:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def __getitem__(self, language: str) -> LanguageFormats:
        return self.languages.get(language, self.languages["en"])
