"""Numbers, dates and plurals as each language writes them (its catalogue: ``catalogue.py``), for
the texts the server writes (API details, e-mails, the pages it fills). The website formats the
same things with the browser's ``Intl`` (``ui/src/lib/format.ts``); ``tests/locale_vectors.json``
holds what the website writes, and both sides are tested against it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal

from vpnsite_adapters.texts.catalogue import catalogue

PluralForms = Mapping[str, str]


def format_number(value: int, language: str) -> str:
    texts = catalogue(language)
    digits = str(abs(value))
    if abs(value) >= texts.grouped_from:
        head = len(digits) % 3 or 3
        digits = texts.group_separator.join(
            [digits[:head], *(digits[i : i + 3] for i in range(head, len(digits), 3))]
        )
    return ("-" if value < 0 else "") + digits


def format_date(day: date, language: str) -> str:
    """A day as the language writes it in a sentence; French writes the first of a month "1er"."""
    texts = catalogue(language)
    number = texts.first_day if day.day == 1 else str(day.day)
    return texts.date.format(day=number, month=texts.months[day.month - 1], year=day.year)


def format_moment(seconds: int, language: str) -> str:
    """A moment as the pages write it: the day, the time and the zone it is in, here UTC
    ("1er mars 2027, 14:05 UTC"); the website's script writes the visitor's own time and zone
    the same way ("…, 15:05 UTC+1"; ui/src/lib/format.ts: formatMoment)."""
    moment = datetime.fromtimestamp(seconds, UTC)
    return f"{format_date(moment.date(), language)}, {moment:%H:%M} UTC"


def format_short(value: int, language: str) -> str:
    """A count from a million in its short form, to one decimal rounded half up as Intl rounds
    ("1,2 млн", "1 million", "2 millions"), in the next unit when rounding reaches a thousand
    (999,950,000 is "1bn")."""
    texts = catalogue(language)
    units = texts.short_units
    at = next((i for i, (power, _) in enumerate(units) if value >= 10**power), len(units) - 1)
    scaled = _scaled(value, units[at][0])
    if scaled >= 1000 and at > 0 and units[at - 1][0] == units[at][0] + 3:
        at -= 1
        scaled = _scaled(value, units[at][0])
    whole, tenth = int(scaled), int(scaled * 10) % 10
    # Intl groups a short number's digits from five on ("1000tn", "10,000tn").
    number = format_number(whole, language) if whole >= 10_000 else str(whole)
    if tenth:
        number += texts.decimal + str(tenth)
    forms = units[at][1]
    return forms.get(plural_category(scaled, language), forms["other"]).replace("{n}", number)


def _scaled(value: int, power: int) -> Decimal:
    return Decimal(value).scaleb(-power).quantize(Decimal("0.1"), ROUND_HALF_UP)


def plural_category(count: int | float | Decimal, language: str) -> str:
    """The CLDR plural category of a whole number, or of a number with decimals such as the
    short form's "1,2" (what ``Intl.PluralRules`` selects)."""
    rule = catalogue(language).plural_rule
    if not isinstance(count, int):
        count = Decimal(str(count))
    if isinstance(count, Decimal) and count != count.to_integral_value():
        # With decimals: "one" below 2 where 0 and 1 are "one" (1,2 million), else "other".
        return "one" if rule == "zero-one-millions" and abs(count) < 2 else "other"
    n = abs(int(count))
    if rule == "one-few-many":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    if rule in ("one-millions", "zero-one-millions") and n != 0 and n % 1_000_000 == 0:
        return "many"
    if rule == "zero-one-millions":
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
