"""The caller's language, from ``Accept-Language``."""

from __future__ import annotations

from vpnsite_adapters.http.weighted_header import weighted
from vpnsite_adapters.texts.languages import DEFAULT_LANGUAGE, LANGUAGES


def pick_language(header: str | None) -> str:
    """The supported language the caller prefers most (by q-value, then by order); English if none."""
    best, best_q = DEFAULT_LANGUAGE, 0.0
    for tag, q in weighted(header):
        language = tag.split("-")[0]
        if language in LANGUAGES and q > best_q:
            best, best_q = language, q
    return best
