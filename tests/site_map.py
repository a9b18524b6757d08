"""The website's routes and languages as the tests know them (the site's own list lives in
ui/src/lib/pages.ts; tests/integration/test_site.py checks the built site has exactly these)."""

from __future__ import annotations

ROUTES = [
    "/",
    "/activation",
    "/support",
    "/about",
    "/terms",
    "/privacy",
    "/cookie",
    "/license",
    "/server-status",
]
LANGUAGES = ["en", "ru", "es", "fr", "pt"]
# As HTML's lang and hreflang name them: the Portuguese is Brazilian (its prefix stays /pt).
HTML_LANG = {"en": "en", "ru": "ru", "es": "es", "fr": "fr", "pt": "pt-BR"}


def localised(route: str, language: str) -> str:
    if language == "en":
        return route
    return f"/{language}" if route == "/" else f"/{language}{route}"


def page_address(route: str, language: str) -> str:
    """Where a route's page is fetched: the activation page only for a tab the script showed an
    activation in (``?kept``); opened bare without the sign-up's answer, it redirects home."""
    path = localised(route, language)
    return path + "?kept" if route == "/activation" else path
