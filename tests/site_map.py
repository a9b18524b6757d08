"""The website's routes as the tests know them (the site's own list lives in ui/src/lib/pages.ts;
tests/integration/test_site.py checks the built site has exactly these), and its languages as the
list names them (texts/languages.json): a language added there is tested everywhere."""

from __future__ import annotations

from vpnsite_adapters.texts import languages

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
LANGUAGES = list(languages.LANGUAGES)
# As HTML's lang and hreflang name them: the Portuguese is Brazilian (its prefix stays /pt).
HTML_LANG = dict(languages.HTML_LANG)


def localised(route: str, language: str) -> str:
    if language == languages.DEFAULT_LANGUAGE:
        return route
    return f"/{language}" if route == "/" else f"/{language}{route}"


def page_address(route: str, language: str) -> str:
    """Where a route's page is fetched: the activation page only for a tab the script showed an
    activation in (``?kept``); opened bare without the sign-up's answer, it redirects home."""
    path = localised(route, language)
    return path + "?kept" if route == "/activation" else path
