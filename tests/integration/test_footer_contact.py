"""The footer's contact column is the operator's: its e-mail (VPNSITE_OPERATOR_EMAIL) and its social
links (VPNSITE_SOCIAL_LINKS, validated when the settings are read), none when none are set. A real
`vpnsite serve` writes them into every page it sends, in every language, as the script draws them;
nothing of ours (an address at vpnsite.example, our own accounts) is left in any page."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.integration.processes import free_port, vpnsite
from tests.integration.test_status_page import rendered_by_the_script
from tests.site_map import LANGUAGES, ROUTES, localised, page_address
from tests.support.serve import OPERATOR_ENV, serve, stop
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.http.pages.footer_contact import FooterContact
from vpnsite_adapters.http.pages.site import SITE_DIR
from vpnsite_adapters.operator_files.facts import default_operator_facts
from vpnsite_adapters.operator_files.social_links import KNOWN_NETWORKS, SocialLink, read_social_links
from vpnsite_adapters.settings import SettingsError, load_settings

if not (SITE_DIR / "pages" / "index.html").is_file():
    if os.environ.get("CI") == "true":
        raise RuntimeError("the website is not built (python build_ui.py); under CI=true this test must run")
    pytest.skip("the website is not built (python build_ui.py)", allow_module_level=True)

PRERENDER = Path(__file__).parents[2] / "ui" / "dist-ssr" / "prerender.mjs"
HARD_CODED = ("vpnsite.example", "x.com/vpnsite", "t.me/vpnsite")
SETTING = "x=https://x.com/example_vpn, telegram=https://t.me/examplevpn, Our forum=https://forum.example.org/t?a=1&b=2"
CONFIGURED = [
    "https://x.com/example_vpn",
    "https://t.me/examplevpn",
    "https://forum.example.org/t?a=1&b=2",
]
EMAIL = OPERATOR_ENV["VPNSITE_OPERATOR_EMAIL"]
# Where the operator's facts say the source code is (the shipped default here).
SOURCE = default_operator_facts().source_code
FOLLOW = {"en": "Follow us", "ru": "Мы в соцсетях", "es": "Síguenos", "fr": "Suivez-nous", "pt": "Siga-nos"}
CONTACT = {"en": "Contact", "ru": "Контакты", "es": "Contacto", "fr": "Contact", "pt": "Contato"}
_COLUMN = re.compile(
    r'<div><h2 class="footer-title">([^<]*)</h2><div class="social">(.*?)</div></div></div>'
    r'<div class="container copyright">'
)


def column(html: str) -> tuple[str, list[str]]:
    """The footer's contact column: its heading and where its links go."""
    found = _COLUMN.search(html)
    assert found, "the footer's contact column"
    return found.group(1), [unescape(href) for href in re.findall(r'href="([^"]*)"', found.group(2))]


def pages(base: str) -> Iterator[tuple[str, str, str]]:
    """(language, what, html) of every route in every language, a 404, and a form's answer."""
    for language in LANGUAGES:
        for route in ROUTES:
            response = requests.get(base + page_address(route, language), timeout=10)
            assert response.status_code == 200, (route, language)
            yield language, route, response.text
        missing = requests.get(base + localised("/no-such-page", language), timeout=10)
        assert missing.status_code == 404
        yield language, "404", missing.text
        answer = requests.post(
            base + localised("/license", language),
            data={"email": "nobody@example.org", "activation_code": "1" * 20},
            headers={"Origin": base},
            timeout=10,
        )
        assert answer.headers["Content-Type"].startswith("text/html"), answer.status_code
        yield language, "answer", answer.text


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    tmp = tmp_path_factory.mktemp("footer")
    bases: dict[str, str] = {}
    processes = []
    for name, links in (("with", SETTING), ("without", "")):
        env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp / name), "VPNSITE_ACCESS_LOG": "false"}
        env.pop("VPNSITE_DATABASE_URL", None)
        env["VPNSITE_SOCIAL_LINKS"] = links
        served = serve(env, tmp / f"{name}.log")
        processes.append(served.process)
        bases[name] = served.base
    try:
        yield bases
    finally:
        for process in processes:
            stop(process)


def test_every_page_names_the_operators_links_and_email(started: dict[str, str]) -> None:
    seen = 0
    for language, what, html in pages(started["with"]):
        heading, hrefs = column(html)
        assert heading == FOLLOW[language], (language, what)
        assert hrefs == [*CONFIGURED, f"mailto:{EMAIL}", SOURCE], (language, what)
        assert not any(ours in html for ours in HARD_CODED), (language, what)
        seen += 1
    assert seen == len(LANGUAGES) * (len(ROUTES) + 2)


def test_without_links_the_footer_shows_only_the_operators_email(started: dict[str, str]) -> None:
    for language, what, html in pages(started["without"]):
        heading, hrefs = column(html)
        assert (heading, hrefs) == (CONTACT[language], [f"mailto:{EMAIL}", SOURCE]), (language, what)
        body = html.split("<body>", 1)[1]
        assert "x.com" not in body and "t.me" not in body, (language, what)
        assert not any(ours in html for ours in HARD_CODED), (language, what)


def test_a_link_that_looks_like_a_marker_stays_a_link(make_hub: Any) -> None:
    """What the operator wrote goes into pages the server fills afterwards: nothing in it is read
    as one of the build's markers."""
    links = "x=https://x.com/__SLOT_USERS__, Forum=https://f.example/__OPERATOR_NAME__"
    client = create_app(make_hub(social_links=links).services).test_client()
    for path in ("/", "/ru/server-status", "/fr/no-such-page"):
        html = client.get(path).get_data(as_text=True)
        assert column(html)[1][:2] == ["https://x.com/__SLOT_USERS__", "https://f.example/__OPERATOR_NAME__"]


@pytest.mark.skipif(
    shutil.which("node") is None or not PRERENDER.is_file(), reason="Node.js or the prerender is missing"
)
def test_the_server_puts_the_column_together_as_the_script_draws_it() -> None:
    pieces = FooterContact.load(SITE_DIR / "forms" / "footer.json")
    assert set(pieces.of("en")["links"]) == {*KNOWN_NETWORKS, "link"}, "an icon for each known network"
    sets = [
        (),
        read_social_links(SETTING),
        read_social_links("telegram=https://t.me/a, Mastodon=https://m.example/@a?x=\"<b>\"&y='1'"),
        (SocialLink("link", "L'équipe + co.", "https://é.example/ü"),),
    ]
    # With the link to the source code (the operator's facts: source_code) and without.
    cases = [
        (
            "renderFooterContact",
            [{"kind": link.kind, "label": link.label, "url": link.url} for link in links],
            language,
            source,
        )
        for links in sets
        for language in LANGUAGES
        for source in ("", "https://code.example/vpnsite?a=1&b='2'")
    ]
    for (_, links, language, source), expected in zip(cases, rendered_by_the_script(cases), strict=True):
        given = tuple(SocialLink(**link) for link in links)
        assert pieces.block(language, given, source or None).decode() == expected, (language, links, source)


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("", ()),
        (" , ", ()),
        ("X=https://www.x.com/a", (SocialLink("x", "x", "https://www.x.com/a"),)),
        ("telegram=https://telegram.me/a,", (SocialLink("telegram", "telegram", "https://telegram.me/a"),)),
        (
            "Our forum = https://forum.example/?a=b",
            (SocialLink("link", "Our forum", "https://forum.example/?a=b"),),
        ),
    ],
)
def test_social_links_are_read_as_given(
    tmp_path: Path, setting: str, expected: tuple[SocialLink, ...]
) -> None:
    settings = load_settings({"VPNSITE_SOCIAL_LINKS": setting}, env_file=None, data_dir=tmp_path)
    assert settings.social_links == expected


@pytest.mark.parametrize(
    ("setting", "says"),
    [
        ("x=http://x.com/a", "must be an https:// URL"),
        ("x=javascript:alert(1)", "must be an https:// URL"),
        ("Forum=//forum.example/", "must be an https:// URL"),
        ("Forum=https://forum", "with a host name"),
        ("Forum=https://user:pass@forum.example/", "no user name, password or port"),
        ("Forum=https://forum.example:8443/", "no user name, password or port"),
        ("Forum=https://forum.example/a b", "no spaces"),
        ("x=https://t.me/a", "must be on x.com or twitter.com"),
        ("telegram=https://evil-t.me/a", "must be on t.me or telegram.me"),
        ("https://x.com/a", "is not name=https://address"),
        ("x=", "is not name=https://address"),
        ("<b>=https://forum.example/", "neither a known network"),
        ("A label far too long to show=https://forum.example/", "neither a known network"),
        ("x=https://x.com/a, X=https://x.com/b", "x given more than once"),
        (",".join(f"L{i}=https://l{i}.example/" for i in range(7)), "at most 6 links"),
    ],
)
def test_a_wrong_social_link_is_a_clear_settings_error(tmp_path: Path, setting: str, says: str) -> None:
    with pytest.raises(SettingsError, match="VPNSITE_SOCIAL_LINKS") as raised:
        load_settings({"VPNSITE_SOCIAL_LINKS": setting}, env_file=None, data_dir=tmp_path)
    assert says in str(raised.value)


def test_serve_refuses_to_start_with_a_wrong_social_link(environment: dict[str, str]) -> None:
    result = vpnsite(
        "serve",
        "--port",
        str(free_port()),
        env={**environment, **OPERATOR_ENV, "VPNSITE_SOCIAL_LINKS": "x=http://x.com/a"},
    )
    assert result.returncode == 2
    assert "VPNSITE_SOCIAL_LINKS" in result.stderr and "https://" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_source_code_is_linked_from_every_footer_and_the_security_policy(make_hub: Any) -> None:
    """Where the operator's facts say the source code is (VPNSITE_OPERATOR_FACTS, or the shipped
    default): in every page's footer and in the security policy."""
    source = default_operator_facts().source_code
    assert source.startswith("/source/"), "the shipped default is the tarball the site serves"
    client = create_app(make_hub(public_url="https://vpn.example").services).test_client()
    for language in LANGUAGES:
        page = client.get(localised("/about", language)).get_data(as_text=True)
        assert f'<a href="{source}" rel="noopener noreferrer" class="social-label">' in page, language
    policy = client.get("/.well-known/security-policy.txt").get_data(as_text=True)
    assert f"The site's source code: https://vpn.example{source}\n" in policy
