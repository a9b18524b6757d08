"""How long to wait, as a person says it in each of the five languages: "in 45 seconds", "in 10
minutes", "in 1 hour", "через 21 минуту" — what a refusal tells the visitor instead of a count of
seconds.

The phrases are ``Intl.RelativeTimeFormat``'s for a time ahead, with a no-break space between the
number and its unit; ``tests/locale_vectors.json`` ("waits") holds what ``Intl`` writes, and the
server (``tests/unit/test_waits.py``) and the browser's ``Intl`` (``ui/tests/waits.test.ts``) are
both tested against it."""

from __future__ import annotations

from collections.abc import Mapping

from vpnsite_adapters.formatting import PluralForms, plural

NBSP = "\u00a0"

# Each unit, smallest first: its length in seconds, and the count of it from which a wait is said
# in the next unit (60 seconds, 60 minutes, 24 hours).
_UNITS: tuple[tuple[str, int, int | None], ...] = (
    ("second", 1, 60),
    ("minute", 60, 60),
    ("hour", 3600, 24),
    ("day", 86400, None),
)
# The phrase for a time ahead in each unit, by plural category, {n} the count.
_PHRASES: Mapping[str, Mapping[str, PluralForms]] = {
    "en": {
        "second": {"one": "in {n} second", "other": "in {n} seconds"},
        "minute": {"one": "in {n} minute", "other": "in {n} minutes"},
        "hour": {"one": "in {n} hour", "other": "in {n} hours"},
        "day": {"one": "in {n} day", "other": "in {n} days"},
    },
    "ru": {
        "second": {
            "one": "через {n} секунду",
            "few": "через {n} секунды",
            "many": "через {n} секунд",
            "other": "через {n} секунды",
        },
        "minute": {
            "one": "через {n} минуту",
            "few": "через {n} минуты",
            "many": "через {n} минут",
            "other": "через {n} минуты",
        },
        "hour": {
            "one": "через {n} час",
            "few": "через {n} часа",
            "many": "через {n} часов",
            "other": "через {n} часа",
        },
        "day": {
            "one": "через {n} день",
            "few": "через {n} дня",
            "many": "через {n} дней",
            "other": "через {n} дня",
        },
    },
    "es": {
        "second": {"one": "dentro de {n} segundo", "other": "dentro de {n} segundos"},
        "minute": {"one": "dentro de {n} minuto", "other": "dentro de {n} minutos"},
        "hour": {"one": "dentro de {n} hora", "other": "dentro de {n} horas"},
        "day": {"one": "dentro de {n} día", "other": "dentro de {n} días"},
    },
    "fr": {
        "second": {"one": "dans {n} seconde", "other": "dans {n} secondes"},
        "minute": {"one": "dans {n} minute", "other": "dans {n} minutes"},
        "hour": {"one": "dans {n} heure", "other": "dans {n} heures"},
        "day": {"one": "dans {n} jour", "other": "dans {n} jours"},
    },
    "pt": {
        "second": {"one": "em {n} segundo", "other": "em {n} segundos"},
        "minute": {"one": "em {n} minuto", "other": "em {n} minutos"},
        "hour": {"one": "em {n} hora", "other": "em {n} horas"},
        "day": {"one": "em {n} dia", "other": "em {n} dias"},
    },
}


def wait_in_units(seconds: int) -> tuple[int, str]:
    """A wait as a count of its largest sensible unit, rounded up so that nobody is told to come
    back before they may: 45 s is 45 seconds, 589 s is 10 minutes, 3,600 s is 1 hour, 3,601 s is
    2 hours, 86,400 s is 1 day."""
    for unit, length, next_from in _UNITS:
        count = -(-max(1, seconds) // length)
        if next_from is None or count < next_from:
            return count, unit
    raise AssertionError("the last unit has no next")


def format_wait(seconds: int, language: str) -> str:
    """A wait as the language says it ahead of time ("in 10 minutes", "через 10 минут"), the
    number held to its unit by a no-break space."""
    count, unit = wait_in_units(seconds)
    forms = _PHRASES.get(language, _PHRASES["en"])[unit]
    return plural(count, {form: text.replace("{n} ", "{n}" + NBSP) for form, text in forms.items()}, language)
