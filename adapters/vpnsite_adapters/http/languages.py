"""The caller's language, from ``Accept-Language``."""

from __future__ import annotations

LANGUAGES = ("en", "ru", "es", "fr", "pt")
DEFAULT_LANGUAGE = "en"


def pick_language(header: str | None) -> str:
    """The supported language the caller prefers most (by q-value, then by order); English if none."""
    best, best_q = DEFAULT_LANGUAGE, 0.0
    for item in (header or "").split(",")[:20]:
        tag, _, params = item.strip().partition(";")
        language = tag.strip().lower().split("-")[0]
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if language in LANGUAGES and q > best_q:
            best, best_q = language, q
    return best
