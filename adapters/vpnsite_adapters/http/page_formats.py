"""Counts, dates and "{n} days" as the website's script writes them, for the pages the server fills.

The build writes the tables (``site/forms/formats.json``) from the same ``Intl`` formats and
dictionaries the script uses (``ui/src/prerender.tsx``: ``formats``), so a page the server fills
reads exactly as the script would render it.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from attrs import frozen


@frozen
class LanguageFormats:
    group: str
    group_four_digits: bool
    months: tuple[str, ...]
    plurals: tuple[str, ...]
    days: dict[str, str]

    def count(self, value: int) -> str:
        digits = str(value)
        if len(digits) < (4 if self.group_four_digits else 5):
            return digits
        head = len(digits) % 3 or 3
        groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
        return self.group.join(groups)

    def date(self, day: date) -> str:
        return self.months[day.month - 1].format(day=day.day, year=day.year)

    def days_text(self, days: int) -> str:
        # The table holds 0…999; past it the category repeats with the last two digits, which is
        # what the five languages' rules look at for whole numbers of that size.
        category = self.plurals[days if days < len(self.plurals) else 100 + days % 100]
        return self.days.get(category, self.days["other"]).replace("{n}", self.count(days))


class PageFormats:
    def __init__(self, tables: dict[str, Any]) -> None:
        self.languages = {
            language: LanguageFormats(
                group=table["group"],
                group_four_digits=table["group_four_digits"],
                months=tuple(table["months"]),
                plurals=tuple(table["plurals"]),
                days=dict(table["days"]),
            )
            for language, table in tables.items()
        }

    @classmethod
    def load(cls, path: Path) -> PageFormats:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def __getitem__(self, language: str) -> LanguageFormats:
        return self.languages.get(language, self.languages["en"])
