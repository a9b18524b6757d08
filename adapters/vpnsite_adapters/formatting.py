"""Numbers, dates and plurals as each of the five languages writes them, for the texts the server
writes (API details, e-mails, the pages it fills). The website formats the same things with the
browser's ``Intl`` (``ui/src/lib/format.ts``); ``tests/locale_vectors.json`` holds what the website
writes, and both sides are tested against it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal

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
    """A day as the language writes it in a sentence; French writes the first of a month "1er"."""
    month = MONTHS.get(language, MONTHS["en"]).split()[day.month - 1]
    number = "1er" if language == "fr" and day.day == 1 else str(day.day)
    return _DATE.get(language, _DATE["en"]).format(day=number, month=month, year=day.year)


def format_moment(seconds: int, language: str) -> str:
    """A moment as the pages write it: the day, the time and the zone it is in, here UTC
    ("1er mars 2027, 14:05 UTC"); the website's script writes the visitor's own time and zone
    the same way ("…, 15:05 UTC+1"; ui/src/lib/format.ts: formatMoment)."""
    moment = datetime.fromtimestamp(seconds, UTC)
    return f"{format_date(moment.date(), language)}, {moment:%H:%M} UTC"


# How a count from a million is shortened, largest unit first: the power of ten the number counts
# in, and the unit by the number's plural category. British English and Russian abbreviate
# ("1.2m", "1,2 млн"); Spanish, French and Portuguese write the word ("1,2 millones", "1,2 million",
# "1,2 milhão"). What Intl's compact notation writes (ui/src/lib/format.ts: shortCount).
_SHORT: dict[str, tuple[tuple[int, dict[str, str]], ...]] = {
    "en": ((12, {"other": "{n}tn"}), (9, {"other": "{n}bn"}), (6, {"other": "{n}m"})),
    "ru": (
        (12, {"other": f"{{n}}{NBSP}трлн"}),
        (9, {"other": f"{{n}}{NBSP}млрд"}),
        (6, {"other": f"{{n}}{NBSP}млн"}),
    ),
    "es": (
        (12, {"one": "{n} billón", "other": "{n} billones"}),
        (9, {"other": "{n} mil millones"}),
        (6, {"one": "{n} millón", "other": "{n} millones"}),
    ),
    "fr": (
        (12, {"one": "{n} billion", "other": "{n} billions"}),
        (9, {"one": "{n} milliard", "other": "{n} milliards"}),
        (6, {"one": "{n} million", "other": "{n} millions"}),
    ),
    "pt": (
        (12, {"one": "{n} trilhão", "other": "{n} trilhões"}),
        (9, {"one": "{n} bilhão", "other": "{n} bilhões"}),
        (6, {"one": "{n} milhão", "other": "{n} milhões"}),
    ),
}
_DECIMAL = {"en": ".", "ru": ",", "es": ",", "fr": ",", "pt": ","}


def format_short(value: int, language: str) -> str:
    """A count from a million in its short form, to one decimal rounded half up as Intl rounds
    ("1,2 млн", "1 million", "2 millions"), in the next unit when rounding reaches a thousand
    (999,950,000 is "1bn")."""
    units = _SHORT.get(language, _SHORT["en"])
    at = next((i for i, (power, _) in enumerate(units) if value >= 10**power), len(units) - 1)
    scaled = _scaled(value, units[at][0])
    if scaled >= 1000 and at > 0 and units[at - 1][0] == units[at][0] + 3:
        at -= 1
        scaled = _scaled(value, units[at][0])
    whole, tenth = int(scaled), int(scaled * 10) % 10
    # Intl groups a short number's digits from five on ("1000tn", "10,000tn").
    number = format_number(whole, language) if whole >= 10_000 else str(whole)
    if tenth:
        number += _DECIMAL.get(language, ".") + str(tenth)
    forms = units[at][1]
    return forms.get(plural_category(scaled, language), forms["other"]).replace("{n}", number)


def _scaled(value: int, power: int) -> Decimal:
    return Decimal(value).scaleb(-power).quantize(Decimal("0.1"), ROUND_HALF_UP)


def plural_category(count: int | float | Decimal, language: str) -> str:
    """The CLDR plural category of a whole number, or of a number with decimals such as the
    short form's "1,2" (what ``Intl.PluralRules`` selects)."""
    if not isinstance(count, int):
        count = Decimal(str(count))
    if isinstance(count, Decimal) and count != count.to_integral_value():
        # With decimals: "one" in French and Portuguese below 2 (1,2 million), else "other".
        return "one" if language in ("fr", "pt") and abs(count) < 2 else "other"
    n = abs(int(count))
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


def millions_form(forms: PluralForms) -> str:
    """The form for a count in its short form, a number of millions or more ("{n} пользователей",
    "{n} de usuarios"): the text's ``millions`` form, else ``other`` (ui/src/lib/format.ts)."""
    return forms.get("millions", forms["other"])
