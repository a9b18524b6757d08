"""How long to wait, as a person says it in each language (its catalogue: ``catalogue.py``): "in 45
seconds", "in 10 minutes", "in 1 hour", "через 21 минуту" — what a refusal tells the visitor
instead of a count of seconds.

The phrases are ``Intl.RelativeTimeFormat``'s for a time ahead, with a no-break space between the
number and its unit; ``tests/locale_vectors.json`` ("waits") holds what ``Intl`` writes, and the
server (``tests/unit/test_waits.py``) and the browser's ``Intl`` (``ui/tests/waits.test.ts``) are
both tested against it."""

from __future__ import annotations

from vpnsite_adapters.texts.catalogue import catalogue
from vpnsite_adapters.texts.formatting import plural

NBSP = "\u00a0"

# Each unit, smallest first: its length in seconds, and the count of it from which a wait is said
# in the next unit (60 seconds, 60 minutes, 24 hours).
_UNITS: tuple[tuple[str, int, int | None], ...] = (
    ("second", 1, 60),
    ("minute", 60, 60),
    ("hour", 3600, 24),
    ("day", 86400, None),
)


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
    forms = catalogue(language).waits[unit]
    return plural(count, {form: text.replace("{n} ", "{n}" + NBSP) for form, text in forms.items()}, language)
