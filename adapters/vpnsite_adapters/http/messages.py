"""Human-readable texts of API errors in the caller's language (its catalogue: ``catalogue.py``).

Clients match on ``code``; the English texts keep the phrases "Too many requests" and "already
been used" that older clients looked for. Numbers and dates in a detail are written as the
language writes them, and a wait (``seconds``) as a person says it, in ``{wait}`` ("in 10 minutes").
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from vpnsite_adapters.texts.catalogue import catalogue
from vpnsite_adapters.texts.formatting import format_date, format_number
from vpnsite_adapters.texts.waits import format_wait


def _localised(params: Mapping[str, object], language: str) -> dict[str, object]:
    def one(value: object) -> object:
        if isinstance(value, date):
            return format_date(value, language)
        if isinstance(value, int) and not isinstance(value, bool):
            return format_number(value, language)
        return value

    localised = {name: one(value) for name, value in params.items()}
    seconds = params.get("seconds")
    if isinstance(seconds, int):
        # A rate limit's wait as a person says it: "in 10 minutes", never "in 589 s".
        localised["wait"] = format_wait(seconds, language)
    return localised


def detail_text(code: str, language: str, **params: object) -> str:
    details = catalogue(language).details
    return details.get(code, details["internal_error"]).format(**_localised(params, language))


def field_text(kind: str, language: str, **params: object) -> str:
    texts = catalogue(language)
    if "expected" in params:
        params = {**params, "expected": texts.type_names[str(params["expected"])]}
    return texts.field_errors[kind].format(**_localised(params, language))
