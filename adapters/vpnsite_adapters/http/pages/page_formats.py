"""Counts, dates and counted texts ("{n} days", "{n} users") as the website's script writes them,
for the pages the server fills.

Numbers, dates and plural rules are the server's own (``vpnsite_adapters/texts/formatting.py``, held to
``Intl`` by ``tests/locale_vectors.json``); the texts that count something come from the same
dictionaries the script uses: the build writes each language's plural forms of them into
``site/forms/formats.json`` (``ui/src/prerender.tsx``: ``formats``), with the words said instead
of a count below the script's threshold (``FEW_USERS``, exported there too) and the markup of a
large count's two forms, so a page the server fills reads exactly as the script would render it.
Above a million each form is a whole text: the full count takes the plural its number picks
("1 000 001 пользователь"), the short one its ``millions`` form ("1 млн пользователей").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, ClassVar

from attrs import frozen

from vpnsite_adapters.http.pages.slot_manifest import Declared
from vpnsite_adapters.http.pages.slots import escape, fill
from vpnsite_adapters.texts.formatting import (
    PluralForms,
    format_date,
    format_number,
    format_short,
    millions_form,
    plural,
)
from vpnsite_adapters.texts.languages import DEFAULT_LANGUAGE


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
    # A count of users as the footer's texts say it ("1,000,000 users"), whatever the count.
    users: PluralForms
    few_users: int
    short_from: int
    # Each marker that holds a text counting users (``__SLOT_RAW_FOOTER_USERS__``…), by its name
    # (``FOOTER_USERS``), and its texts.
    counted_users: Mapping[str, CountedText]
    # A large count's markup, with ``__SLOT_FULL__`` and ``__SLOT_SHORT__``.
    count_forms: str
    # A percentage's pattern ("{n} %") and decimal sign; what the home page says (markup) instead
    # of an uptime not measured yet.
    percent: str = "{n}%"
    decimal: str = "."
    uptime_none: str = ""

    def count(self, value: int) -> str:
        return format_number(value, self.language)

    def uptime(self, permille: int | None) -> bytes:
        """The fleet's uptime as the home page writes it, as markup: one decimal ("99.9%",
        "99,9 %"), or the words for an uptime not measured yet."""
        if permille is None:
            return self.uptime_none.encode()
        return escape(percent_text(self.percent, self.decimal, f"{permille // 10}.{permille % 10}")).encode()

    def date(self, day: date) -> str:
        return format_date(day, self.language)

    def days_text(self, days: int) -> str:
        return plural(days, self.days, self.language)

    def users_text(self, users: int) -> str:
        return plural(users, self.users, self.language)

    def short(self, value: int) -> str:
        """The short form of a count from a million ("1.2m", "1,2 млн", "1,2 millones")."""
        return format_short(value, self.language)

    def counted(self, users: int) -> dict[str, bytes]:
        """Every marker for a user count, filled with markup: the words for a new service below
        the threshold, else the language's plural form with the count (above the short form's
        start, both texts: the full count's and the short one's)."""
        return {name: self._counted(users, text) for name, text in self.counted_users.items()}

    def _counted(self, users: int, text: CountedText) -> bytes:
        if users < self.few_users:
            return text.few.encode()
        full = plural(users, text.forms, self.language)
        if users <= self.short_from:
            return escape(full).encode()
        short = millions_form(text.forms).replace("{n}", self.short(users))
        return fill(self.count_forms.encode(), {"FULL": full, "SHORT": short})


class PageFormats:
    SLOTS: ClassVar[Declared] = {"count_forms": frozenset({"FULL", "SHORT"})}

    def __init__(self, tables: dict[str, Any]) -> None:
        self.languages = {
            language: LanguageFormats(
                language=language,
                days=dict(table["days"]),
                users=dict(table["users"]),
                few_users=int(table["few_users"]),
                short_from=int(table["short_from"]),
                counted_users={
                    name: CountedText(forms=dict(text["forms"]), few=text["few"])
                    for name, text in table["counted_users"].items()
                },
                count_forms=table["count_forms"],
                percent=table["percent"],
                decimal=table["decimal"],
                uptime_none=table["uptime_none"],
            )
            for language, table in tables.items()
        }

    @classmethod
    def load(cls, path: Path) -> PageFormats:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def __getitem__(self, language: str) -> LanguageFormats:
        return self.languages.get(language, self.languages[DEFAULT_LANGUAGE])
