"""The prerendered website as vpnsite serves it: every route in every language, the localized
404, caching, compression and security headers, sitemap and robots."""

from __future__ import annotations

import gzip
import os
import re
from typing import Any

import pytest

from tests.site_map import HTML_LANG, LANGUAGES, ROUTES, localised, page_address
from vpnsite.archives import LINK_LIFETIME
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.http.pages.site import SITE_DIR
from vpnsite_adapters.operator_files.facts import default_operator_facts
from vpnsite_adapters.texts.catalogue import CATALOGUES

if not (SITE_DIR / "pages" / "index.html").is_file():
    reason = f"the website is not built in {SITE_DIR} (run `python build_ui.py`)"
    if os.environ.get("CI") == "true":
        raise RuntimeError(reason + "; under CI=true the website tests must run")
    pytest.skip(reason, allow_module_level=True)


@pytest.fixture
def site(make_hub: Any) -> Any:
    return create_app(make_hub(public_url="https://vpn.example").services).test_client()


def test_every_route_in_every_language_is_its_own_page(site: Any) -> None:
    titles: dict[str, dict[str, str]] = {language: {} for language in LANGUAGES}
    for language in LANGUAGES:
        for route in ROUTES:
            path = localised(route, language)
            response = site.get(page_address(route, language))
            assert response.status_code == 200, path
            html = response.get_data(as_text=True)
            assert f'<html lang="{HTML_LANG[language]}">' in html, path
            found = re.search(r"<title>(.*?)</title>", html)
            assert found is not None, path
            title = found.group(1)
            titles[language][route] = title
            assert f'<link rel="canonical" href="https://vpn.example{path}">' in html
            for other in LANGUAGES:
                assert (
                    f'hreflang="{HTML_LANG[other]}" href="https://vpn.example{localised(route, other)}"'
                    in html
                )
            assert 'hreflang="x-default"' in html
            for tag in (
                'property="og:title"',
                'property="og:description"',
                'name="twitter:card"',
                'name="description"',
            ):
                assert tag in html, (path, tag)
    for language in LANGUAGES:
        assert len(set(titles[language].values())) == len(ROUTES), f"{language}: each page has its own title"
        if language != "en":
            assert all(titles[language][route] != titles["en"][route] for route in ROUTES), language


def test_pages_are_readable_without_javascript(site: Any) -> None:
    home = site.get("/ru").get_data(as_text=True)
    assert "Приватный, быстрый и бесплатный VPN" in home
    assert 'id="signup-email"' in home
    support = site.get("/support").get_data(as_text=True)
    assert "How many devices can I use?" in support
    terms = site.get("/fr/terms").get_data(as_text=True)
    assert "tribunaux d’Angleterre et du pays de Galles" in terms


@pytest.mark.parametrize(
    "path, language", [("/nothing-here", "en"), ("/ru/nothing", "ru"), ("/pt/a/b/c", "pt")]
)
def test_an_unknown_path_gets_the_localized_404(site: Any, path: str, language: str) -> None:
    response = site.get(path)
    assert response.status_code == 404
    assert f'<html lang="{HTML_LANG[language]}">' in response.get_data(as_text=True)
    assert response.mimetype == "text/html"


def test_api_paths_keep_their_json_404(site: Any) -> None:
    response = site.get("/api/nothing")
    assert response.status_code == 404 and response.get_json()["code"] == "not_found"


def test_html_is_revalidated_and_assets_are_immutable(site: Any) -> None:
    page = site.get("/")
    assert page.headers["Cache-Control"] == "no-cache"
    assert site.get("/", headers={"If-None-Match": page.headers["ETag"]}).status_code == 304
    script = re.search(r'src="(/assets/[^"]+\.js)"', page.get_data(as_text=True))
    assert script is not None
    asset = script.group(1)
    response = site.get(asset)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert site.get("/assets/nope.js").status_code == 404


def people_quoted(html: str) -> list[str]:
    """Who says each testimonial the page shows."""
    return re.findall(r'<li class="card testimonial">.*?<strong>(.*?)</strong>', html)


@pytest.fixture
def demo_site(make_hub: Any) -> Any:
    """The demo: the specification's eight testimonials, labelled as examples."""
    return create_app(make_hub(public_url="https://vpn.example", demo="true").services).test_client()


@pytest.mark.parametrize("path", ["/", "/ru"])
def test_each_home_page_sent_shows_three_of_the_eight_testimonials_picked_afresh(
    demo_site: Any, path: str
) -> None:
    site = demo_site
    shown = [people_quoted(site.get(path).get_data(as_text=True)) for _ in range(40)]
    assert all(len(names) == len(set(names)) == 3 for names in shown), shown[0]
    assert len({tuple(names) for names in shown}) > 1, "every page showed the same three"
    # Forty pages leave one of the eight out once in twenty million runs.
    assert len({name for names in shown for name in names}) == 8


def test_a_visitor_who_holds_the_home_page_keeps_its_testimonials(demo_site: Any) -> None:
    site = demo_site
    first = site.get("/")
    for _ in range(10):
        assert site.get("/", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    assert site.get("/", headers={"If-None-Match": '"another"'}).status_code == 200


def test_gzip_is_served_when_accepted(site: Any) -> None:
    plain = site.get("/about")
    packed = site.get("/about", headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert "Accept-Encoding" in plain.headers["Vary"]


def test_html_carries_the_security_headers(site: Any) -> None:
    response = site.get("/license")
    policy = response.headers["Content-Security-Policy"]
    script = next(part for part in policy.split(";") if part.strip().startswith("script-src"))
    assert "unsafe-inline" not in script
    assert "frame-ancestors 'none'" in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "Strict-Transport-Security" not in response.headers
    assert "Strict-Transport-Security" in site.get("/license", base_url="https://vpn.example").headers


def test_no_page_loads_anything_from_another_host(site: Any) -> None:
    for language in LANGUAGES:
        html = site.get(localised("/", language)).get_data(as_text=True)
        for url in re.findall(r'(?:src|href)="([^"]+)"', html):
            assert (
                url.startswith(("/", "#", "https://vpn.example", "mailto:"))
                or "openvpn" in url
                or url.startswith(
                    ("https://x.com", "https://t.me", "https://play.google", "https://apps.apple")
                )
                # The footer's link to the source code (the operator's facts): a link, not a load.
                or url == default_operator_facts().source_code
            ), url
        loaded = re.findall(
            r'<script[^>]+src="([^"]+)"|<link rel="(?:stylesheet|icon)"[^>]+href="([^"]+)"', html
        )
        assert loaded and all((src or href).startswith("/") for src, href in loaded)


def test_sitemap_and_robots(site: Any) -> None:
    sitemap = site.get("/sitemap.xml").get_data(as_text=True)
    assert sitemap.count("<url>") == (len(ROUTES) - 1) * len(LANGUAGES)
    assert "<loc>https://vpn.example/ru/server-status</loc>" in sitemap
    assert 'hreflang="pt-BR" href="https://vpn.example/pt/support"' in sitemap
    robots = site.get("/robots.txt").get_data(as_text=True)
    assert "Sitemap: https://vpn.example/sitemap.xml" in robots


def test_the_api_and_the_website_speak_the_same_languages() -> None:
    from vpnsite_adapters.texts.languages import LANGUAGES as API_LANGUAGES

    assert set(API_LANGUAGES) == set(LANGUAGES) == set(CATALOGUES)


LINK_LIFETIME_WORDS = {"en": "7 days", "ru": "7 дней", "es": "7 días", "fr": "7\u00a0jours", "pt": "7 dias"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_faq_and_the_licence_e_mail_say_how_long_an_archive_link_works(site: Any, language: str) -> None:
    words = LINK_LIFETIME_WORDS[language]
    assert words.startswith(f"{LINK_LIFETIME.days}")
    page = site.get(localised("/support", language)).get_data(as_text=True)
    assert words in page
    assert words in CATALOGUES[language].licence.archive


OG_LOCALE = {"en": "en_GB", "ru": "ru_RU", "es": "es_ES", "fr": "fr_FR", "pt": "pt_BR"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_home_page_declares_its_locale_and_writes_numbers_its_way(site: Any, language: str) -> None:
    home = site.get(localised("/", language)).get_data(as_text=True)
    assert f'<meta property="og:locale" content="{OG_LOCALE[language]}">' in home
    if language in ("ru", "fr"):
        text = re.sub(r"<[^>]+>", " ", home.split("<body>", 1)[1])
        assert not re.search(r"\d [\d%]", text), "numbers keep together with no-break spaces"


_STATIC_IMPORT = re.compile(r'(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?"\./([^"]+)"')


@pytest.mark.parametrize("route", ["/", "/license", "/server-status", "/about"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_preloads_every_script_it_runs_first_in_a_few_files(language: str, route: str) -> None:
    """What a page runs before it is interactive (its entry and every static import, and its
    screen's chunks) is all named in its head, so nothing is found one file at a time; and the
    home page's is four files, not a chain of small ones (ui/src/first-load.ts)."""
    page = (SITE_DIR / "pages" / localised(route, language).strip("/") / "index.html").read_text()
    entry = re.search(r'<script type="module" src="/assets/([^"]+)"', page)
    assert entry
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/assets/([^"]+)"', page))
    pending, loaded = [entry.group(1)], set()
    while pending:
        name = pending.pop()
        if name not in loaded:
            loaded.add(name)
            pending += _STATIC_IMPORT.findall((SITE_DIR / "assets" / name).read_text())
    assert loaded - {entry.group(1)} <= preloaded
    if route == "/":
        assert len(loaded) <= 4, sorted(loaded)
