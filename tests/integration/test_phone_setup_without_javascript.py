"""The screens the server answers form posts with, without JavaScript (issue 30, items 8 and 10): a
phone's own app comes first, one recommended server, the support form's errors read as
sentences, and the licence page is "My licence" in the menu."""

from __future__ import annotations

import re
from typing import Any

from tests.integration.test_site_forms import SAME_SITE, html, sign_up, site  # noqa: F401
from vpnsite_adapters.http.pages.site import SITE_DIR

IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"
ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36"
DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36"


def test_the_apps_say_which_phone_the_visitor_holds(site: tuple[Any, Any]) -> None:  # noqa: F811
    client, _ = site
    for agent, phone in ((IPHONE, "ios"), (ANDROID, "android"), (DESKTOP, "")):
        page = html(sign_up(client, "anna@example.org", **{"User-Agent": agent})[0])
        assert f'<ul data-phone="{phone}" class="download-tiles">' in page, agent
        assert re.findall(r'<li class="app-(\w+)">', page) == ["windows", "macos", "android", "ios"]


def test_the_archive_is_secondary_and_after_the_setup_on_a_phone(site: tuple[Any, Any]) -> None:  # noqa: F811
    for screen in ("activation-success", "licence-active"):
        page = (SITE_DIR / "forms" / "en" / f"{screen}.html").read_text(encoding="utf-8")
        desktop = page.index('<div class="archive desktop-only"><a href="__SLOT_ARCHIVE_URL__"')
        phone = page.index('<div class="archive phone-only"><a href="__SLOT_ARCHIVE_URL__"')
        assert desktop < page.index("__SLOT_RAW_ONE_TAP__") < phone, screen
        assert 'download class="button button-large">' in page[desktop:]
        assert page[phone:].split(">", 2)[1].endswith('class="button button-secondary"'), screen
    client, _ = site
    page = html(sign_up(client, "bob@example.org")[0])
    assert "VPN activated" in page and "VPN Activated" not in page


def test_the_support_forms_errors_read_as_sentences(site: tuple[Any, Any]) -> None:  # noqa: F811
    client, _ = site
    empty = client.post("/support", data={}, headers=SAME_SITE)
    alert = re.search(r'<p role="alert" class="alert">([^<]*)</p>', html(empty))
    assert empty.status_code == 422 and alert
    assert ".." not in alert[1] and ". " in alert[1], alert[1]


def test_the_licence_page_is_my_licence_in_every_language(site: tuple[Any, Any]) -> None:  # noqa: F811
    client, _ = site
    names = {
        "": "My licence",
        "/ru": "Моя лицензия",
        "/es": "Mi licencia",
        "/fr": "Ma licence",
        "/pt": "Minha licença",
    }
    for prefix, name in names.items():
        page = client.get(f"{prefix}/").get_data(as_text=True)
        assert f">{name}</a>" in page and ">Login</a>" not in page, prefix
        assert f"<title>{name} | vpnsite</title>" in client.get(f"{prefix}/license").get_data(as_text=True)
    french = client.get("/fr/").get_data(as_text=True)
    assert '<span class="visually-hidden">Langue\u00a0: </span>' in french


def test_a_mistyped_code_without_the_script_says_what_the_script_says(site: tuple[Any, Any]) -> None:  # noqa: F811
    client, _ = site
    _, code = sign_up(client, "carol@example.org")
    wrong = code[:-1] + str((int(code[-1]) + 1) % 10)
    typo = client.post(
        "/license", data={"email": "carol@example.org", "activation_code": wrong}, headers=SAME_SITE
    )
    assert "This activation code contains a typo. Please check the 20 digits." in html(typo)
