"""Counts, dates and counted texts ("{n} days", "{n} users") as the website's script writes them,
for the pages the server fills.

Numbers, dates and plural rules are the server's own (``vpnsite_adapters/formatting.py``, held to
``Intl`` by ``tests/locale_vectors.json``); the texts that count something come from the same
dictionaries the script uses: the build writes each language's plural forms of them into
``site/forms/formats.json`` (``ui/src/prerender.tsx``: ``formats``), so a page the server fills
reads exactly as the script would render it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from attrs import frozen

from vpnsite_adapters.formatting import PluralForms, format_date, format_number, plural


@frozen
class LanguageFormats:
    language: str
    days: PluralForms
    # Each marker that holds a text counting users (``__SLOT_FOOTER_USERS__``…) and its plural forms.
    counted_users: Mapping[str, PluralForms]

    def count(self, value: int) -> str:
        return format_number(value, self.language)

    def date(self, day: date) -> str:
        return format_date(day, self.language)

    def days_text(self, days: int) -> str:
        return plural(days, self.days, self.language)

    def counted(self, users: int) -> dict[str, str]:
        """Every marker for a user count, filled: the count, and each text that counts users."""
        texts = {name: plural(users, forms, self.language) for name, forms in self.counted_users.items()}
        return {"USERS": self.count(users), **texts}


class PageFormats:
    def __init__(self, tables: dict[str, Any]) -> None:
        self.languages = {
            language: LanguageFormats(
                language=language,
                days=dict(table["days"]),
                counted_users={name: dict(forms) for name, forms in table["counted_users"].items()},
            )
            for language, table in tables.items()
        }

    @classmethod
    def load(cls, path: Path) -> PageFormats:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def __getitem__(self, language: str) -> LanguageFormats:
        return self.languages.get(language, self.languages["en"])
