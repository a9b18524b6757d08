"""Numbers, dates and plurals as each of the five languages writes them, for the texts the server
writes (API details, e-mails). The website formats the same things with the browser's ``Intl``;
``tests/locale_vectors.json`` holds what ``Intl`` answers, and both sides are tested against it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

NBSP = "\u00a0"
NNBSP = "\u202f"

# (group separator, smallest number that is grouped): Spanish groups from five digits on.
_GROUPING = {
    "en": (",", 1000),
    "ru": (NBSP, 1000),
    "es": (".", 10000),
    "fr": (NNBSP, 1000),
    "pt": (".", 1000),
}

MONTHS = {
    "en": "January February March April May June July August September October November December",
    "ru": "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
}
_DATE = {
    "en": "{day} {month} {year}",
    "ru": "{day} {month} {year} г.",
    "es": "{day} de {month} de {year}",
    "fr": "{day} {month} {year}",
    "pt": "{day} de {month} de {year}",
}

PluralForms = Mapping[str, str]


def format_number(value: int, language: str) -> str:
    separator, grouped_from = _GROUPING.get(language, _GROUPING["en"])
    digits = str(abs(value))
    if abs(value) >= grouped_from:
        head = len(digits) % 3 or 3
        digits = separator.join([digits[:head], *(digits[i : i + 3] for i in range(head, len(digits), 3))])
    return ("-" if value < 0 else "") + digits


def format_date(day: date, language: str) -> str:
    month = MONTHS.get(language, MONTHS["en"]).split()[day.month - 1]
    return _DATE.get(language, _DATE["en"]).format(day=day.day, month=month, year=day.year)


def plural_category(count: int, language: str) -> str:
    """The CLDR plural category of a whole number (what ``Intl.PluralRules`` selects)."""
    n = abs(count)
    if language == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    if language in ("es", "fr", "pt") and n != 0 and n % 1_000_000 == 0:
        return "many"
    if language in ("fr", "pt"):
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


def plural_form(count: int, forms: PluralForms, language: str) -> str:
    """The form the language's rules pick for ``count``, with {n} left in."""
    return forms.get(plural_category(count, language), forms["other"])


def plural(count: int, forms: PluralForms, language: str) -> str:
    """The form the language's rules pick for ``count``, with {n} the formatted count."""
    return plural_form(count, forms, language).replace("{n}", format_number(count, language))
