"""An operator's settings and a visitor's text are data, never markup, a page's marker, a redirect
or a terminal's control code (issue 38, points 10–12): through a real `vpnsite serve` and the real
`vpnsite` CLI."""

from __future__ import annotations

import http.client
import json
import os
import re
import unicodedata
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import requests
from hypothesis import given
from hypothesis import strategies as st

from tests.integration.processes import free_port, vpnsite
from tests.site_map import LANGUAGES, ROUTES, page_address
from tests.support.serve import OPERATOR_ENV, Served, serve, serving, signed_form, stop
from vpnsite_adapters.http.app import create_app, redact
from vpnsite_adapters.http.pages.site import SITE_DIR
from vpnsite_adapters.http.pages.slots import escape
from vpnsite_adapters.runtime.log_lines import escape_controls, escape_controls_in_json
from vpnsite_adapters.texts.links import PublicUrlError, public_origin

if not (SITE_DIR / "pages" / "index.html").is_file():
    if os.environ.get("CI") == "true":
        raise RuntimeError("the website is not built (python build_ui.py); under CI=true this test must run")
    pytest.skip("the website is not built (python build_ui.py)", allow_module_level=True)

# Every operator setting a page shows, each holding a marker of the pages it goes into (the name
# is the issue's own), markup, or another setting's placeholder.
OPERATOR = {
    "VPNSITE_OPERATOR_NAME": "Acme __SLOT_NOPE__ Ltd",
    "VPNSITE_OPERATOR_NUMBER": "12345678",
    "VPNSITE_OPERATOR_ADDRESS": "1 __SLOT_RAW_STATUS__ Street & <b>Co</b>, London",
    "VPNSITE_OPERATOR_EMAIL": "__SLOT_USER_COUNT__@example.org",
    "VPNSITE_OPERATOR_FOUNDER": "__OPERATOR_NAME__ Jones",
}
SOCIAL_LINKS = "x=https://x.com/__SLOT_RAW_LINKS__, __SLOT_LABEL__=https://mastodon.example/@__SLOT_URL__"
TESTIMONIALS = {
    "en": [
        {
            "name": "__SLOT_NAME__ Lovelace",
            "role": "__SLOT_RAW_CARDS__",
            "place": "__SLOT_ABOUT__",
            "text": "Fast __SLOT_TEXT__ & <script>alert(1)</script>",
            "stars": 5,
        }
    ],
    "ru": [{"name": "Анна __SLOT_NAME__", "text": "Работает __SLOT_RAW_STARS__.", "stars": 4}],
}
CITY = "__SLOT_CITY__ <i>Town</i>"
# What each page must show, as text, of the settings above (the footer is on every page).
FOOTER = ["Acme __SLOT_NOPE__ Ltd", "__SLOT_LABEL__", "https://x.com/__SLOT_RAW_LINKS__"]
SHOWN = {
    "/about": [
        "Acme __SLOT_NOPE__ Ltd",
        "1 __SLOT_RAW_STATUS__ Street & <b>Co</b>, London",
        "__SLOT_USER_COUNT__@example.org",
        "__OPERATOR_NAME__ Jones",
    ],
    "/server-status": ["__SLOT_CITY__ <i>Town</i>"],
}
TESTIMONIALS_SHOWN = {
    "en": ["__SLOT_NAME__ Lovelace", "Fast __SLOT_TEXT__ & <script>alert(1)</script>"],
    "ru": ["Анна __SLOT_NAME__", "Работает __SLOT_RAW_STARS__."],
}
# What none of them may become in a page: markup.
MARKUP = ["<b>Co</b>", "<i>Town</i>", "<script>alert(1)</script>"]


class Site(NamedTuple):
    served: Served
    env: dict[str, str]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("marked")
    testimonials = folder / "testimonials.json"
    testimonials.write_text(json.dumps(TESTIMONIALS), encoding="utf-8")
    env = {
        **os.environ,
        "VPNSITE_DATA_DIR": str(folder / "data"),
        "VPNSITE_RATE_LIMITS": "off",
        "VPNSITE_SIGNUP_CHALLENGE": "off",
        "VPNSITE_SOCIAL_LINKS": SOCIAL_LINKS,
        "VPNSITE_TESTIMONIALS": str(testimonials),
        **OPERATOR,
    }
    env.pop("VPNSITE_DATABASE_URL", None)
    assert vpnsite("vpn", "init", env=env).returncode == 0
    added = vpnsite(
        "vpn",
        "add-server",
        "nl-marked-1",
        "--country",
        "nl",
        "--city",
        CITY,
        "--host",
        "vpn.example",
        env=env,
    )
    assert added.returncode == 0, added.stderr
    served = serve(env, folder / "serve.log")
    try:
        yield Site(served, {**env, "VPNSITE_PUBLIC_URL": served.base})
    finally:
        stop(served.process)


def text_of(html: str) -> str:
    """What a reader sees of a page (and what its attributes say), its markup dropped."""
    return unescape(re.sub(r"<[^>]*>", " ", html)) + " ".join(
        unescape(value) for value in re.findall(r'(?:content|href)="([^"]*)"', html)
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_marker_in_every_operator_setting_is_shown_as_written_on_every_page(
    site: Site, language: str
) -> None:
    for route in ROUTES:
        response = requests.get(site.served.base + page_address(route, language), timeout=10)
        assert response.status_code == 200, (route, language)
        html = response.text
        shown = text_of(html)
        expected = [*FOOTER, *SHOWN.get(route, [])]
        if route == "/":
            expected += TESTIMONIALS_SHOWN.get(language, [])
        for value in expected:
            assert value in shown, (route, language, value)
        for markup in MARKUP:
            assert markup not in html, (route, language, markup)
        data_blocks = re.sub(r'<script type="application/json"[^>]*>.*?</script>', "", html, flags=re.S)
        assert "__SLOT_" not in data_blocks and "__OPERATOR_" not in html, (route, language)


def test_the_forms_answers_carry_the_same_settings_as_text(site: Site) -> None:
    """The answers to the forms are filled after the visitor's values go in: the operator's still
    read as text there."""
    base, same_site = site.served.base, {"Origin": site.served.base}
    answers = [
        requests.post(
            f"{base}/ru/activation", data={"email": "anna@example.org"}, headers=same_site, timeout=10
        ),
        requests.post(
            f"{base}/license",
            data={"email": "anna@example.org", "activation_code": "1" * 20},
            headers=same_site,
            timeout=10,
        ),
        requests.post(
            f"{base}/fr/support",
            data={"email": "anna@example.org", "message": "Bonjour __SLOT_NOPE__"},
            headers=same_site,
            timeout=10,
        ),
    ]
    for answer in answers:
        assert answer.status_code < 500, answer.url
        assert "Acme __SLOT_NOPE__ Ltd" in text_of(answer.text), answer.url
        assert "<b>Co</b>" not in answer.text


@pytest.mark.parametrize(
    ("public_url", "reason"),
    [
        ('https://x.example/"><script>alert(1)</script>', "no quotes, spaces, markup"),
        ("https://x.example/vpn", "no path"),
        ("https://x.example?next=/", "query"),
        ("https://ops@x.example", "user name"),
        ("ftp://x.example", "http:// or https://"),
        ("x.example", "http:// or https://"),
        ("https://x.example:99999", "port from 1 to 65535"),
        ("https://bücher.example", "xn--"),
    ],
)
def test_a_public_url_that_is_no_plain_address_stops_serve_with_the_reason(
    tmp_path: Path, public_url: str, reason: str
) -> None:
    port = free_port()
    env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp_path / "data"), **OPERATOR_ENV}
    result = vpnsite("serve", "--port", str(port), env={**env, "VPNSITE_PUBLIC_URL": public_url})
    assert result.returncode == 2
    assert "VPNSITE_PUBLIC_URL" in result.stderr and reason in result.stderr, result.stderr
    assert repr(public_url) in result.stderr, "the value is named as given"
    assert "Traceback" not in result.stderr


@given(st.text(max_size=60), st.sampled_from(["http://", "https://", ""]))
def test_a_public_url_taken_is_a_plain_origin_that_no_escape_changes(text: str, scheme: str) -> None:
    try:
        origin = public_origin(scheme + text)
    except PublicUrlError:
        return
    assert escape(origin) == origin, "nothing in it is markup, nor a marker's underscores"
    assert origin.startswith(("http://", "https://")) and origin.count("/") == 2
    assert not any(char.isspace() or unicodedata.category(char)[0] == "C" for char in origin)


def get_exactly(base: str, path: str, host: str) -> http.client.HTTPResponse:
    """``path`` sent as written (no client tidies it) with this Host header."""
    where = base.removeprefix("http://")
    connection = http.client.HTTPConnection(where, timeout=10)
    connection.putrequest("GET", path, skip_host=True)
    connection.putheader("Host", host)
    connection.endheaders()
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_a_personal_link_however_spelt_is_never_redirected_nor_logged(site: Site) -> None:
    base = site.served.base
    created = requests.post(
        base + "/api/create-user", json=signed_form(base, "bob@example.org"), timeout=10
    ).json()
    token = created["activation_url"].rsplit("/", 1)[1]
    spellings = [
        f"/api/config//{token}",
        f"/api//config/{token}",
        f"/api/config/%2F{token}",
        f"/api/./config/{token}",
        f"/API/config/{token}",
        f"/api/profile//{token}/nl-marked-1-udp.ovpn",
        f"/api/profile-qr//{token}/nl-marked-1-udp.svg",
        f"/erase//{token}",
        f"/ru/erase//{token}",
    ]
    for path in spellings:
        answer = get_exactly(base, path, "evil.example")
        assert answer.status == 404, (path, answer.status)
        assert answer.getheader("Location") is None, path
    for path in (f"//api/config/{token}", f"/license?renew={token}", f"/ru/license/?renew={token}"):
        answer = get_exactly(base, path, "evil.example")
        assert not 300 <= answer.status < 400 and answer.getheader("Location") is None, path
    logged = site.served.log.read_text(errors="replace")
    assert token not in logged, "no spelling of a personal link puts its token in the log"
    assert "GET /api/config/[redacted] 404" in logged
    assert "GET /api/profile/[redacted]/nl-marked-1-udp.ovpn 404" in logged
    assert "GET /ru/erase/[redacted] 404" in logged
    assert "evil.example" not in logged


PERSONAL_PREFIXES = ["/api/config/", "/api/profile/", "/api/profile-qr/", "/erase/", "/pt/erase/"]


@given(
    st.sampled_from(PERSONAL_PREFIXES),
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min_size=16, max_size=48),
    st.lists(st.sampled_from(["/", "/./", "//", "///"]), min_size=3, max_size=3),
    st.booleans(),
    st.sampled_from(["", "/", "/nl-1-udp.ovpn"]),
)
def test_no_spelling_of_a_personal_link_shows_its_token(
    prefix: str, token: str, joints: list[str], upper: bool, rest: str
) -> None:
    """Doubled slashes, dot segments and capitals before the token, as a client may send them."""
    segments = [segment.upper() if upper else segment for segment in prefix.split("/") if segment]
    if len(segments) == 1:
        segments.insert(0, ".")  # /./erase/<token>
    path = "".join(joint + segment for joint, segment in zip(joints, [*segments, token], strict=True)) + rest
    shown = redact(path)
    assert token not in shown and "[redacted]" in shown, (path, shown)


@given(st.text())
def test_a_text_escaped_for_the_terminal_holds_no_control_but_its_line_breaks(text: str) -> None:
    assert not TERMINAL_CONTROLS.search(escape_controls(text, keep="\n"))
    document = escape_controls_in_json(json.dumps({"message": text}, ensure_ascii=False, indent=2))
    assert not TERMINAL_CONTROLS.search(document)
    assert json.loads(document) == {"message": text}, "the same text, still JSON"


def test_no_rule_but_the_home_page_ends_in_a_slash_so_none_redirects(make_hub: Any) -> None:
    """werkzeug redirects a path without its slash to a rule that ends in one (strict slashes),
    building the address from the Host header: there is no such rule to redirect to."""
    app = create_app(make_hub(public_url="https://vpn.example").services)
    assert not app.url_map.merge_slashes and not app.url_map.redirect_defaults
    assert [rule.rule for rule in app.url_map.iter_rules() if rule.rule.endswith("/")] == ["/"]


HOSTILE_MESSAGE = (
    "Hello\x1b]0;owned\x07\x1b[2J\x1b[1;1Hvpnsite: all tickets closed\r\n"
    "Привет, \x9b31mred\x9bm \x7f and\u2028more\nsecond line"
)
# Everything a terminal acts on; a line break is a line break.
TERMINAL_CONTROLS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


@pytest.fixture
def ticket(tmp_path: Path, database_url: str) -> Iterator[tuple[str, dict[str, str]]]:
    with serving(tmp_path, database_url=database_url, rate_limits="off") as start:
        served = start()
        opened = requests.post(
            served.base + "/api/support",
            json={"email": "eve@example.org", "message": HOSTILE_MESSAGE},
            timeout=10,
        )
        assert opened.status_code == 200, opened.text
        env = {
            **os.environ,
            "VPNSITE_DATA_DIR": str(next(tmp_path.glob("data-*"))),
            "VPNSITE_DATABASE_URL": database_url,
        }
        yield opened.json()["ticket"], env


def printed(env: dict[str, str], *args: str) -> str:
    result = vpnsite(*args, env=env)
    assert result.returncode == 0, result.stderr
    assert not TERMINAL_CONTROLS.search(result.stdout), (args, result.stdout)
    return result.stdout


def test_a_visitors_escape_codes_never_reach_the_operators_terminal(
    ticket: tuple[str, dict[str, str]],
) -> None:
    number, env = ticket
    listed = printed(env, "tickets", "list")
    assert "Hello\\x1b]0;owned\\x07\\x1b[2J" in listed
    shown = printed(env, "tickets", "show", number)
    message = shown.split("\n\n", 1)[1]
    assert message.splitlines() == [
        "Hello\\x1b]0;owned\\x07\\x1b[2J\\x1b[1;1Hvpnsite: all tickets closed\\x0d",
        "Привет, \\x9b31mred\\x9bm \\x7f and\\x2028more",
        "second line",
    ], "the visitor's lines as they wrote them, every control visible"
    for args in (("tickets", "list", "--json"), ("tickets", "show", number, "--json")):
        document: Any = json.loads(printed(env, *args))
        found = document[0] if isinstance(document, list) else document
        assert found["message"] == HOSTILE_MESSAGE, "the JSON holds the message exactly"
    exported = json.loads(printed(env, "privacy", "export", "eve@example.org"))
    assert [held["message"] for held in exported["tickets"]] == [HOSTILE_MESSAGE]
