"""What the served pages promise is what holds (issue 39): the closing line says what the terms say
about money, the terms and the archive's README give the device limit the site gives for its
fleet, and the DNS claim names the platforms it holds on."""

from __future__ import annotations

import html
import io
import os
import re
import zipfile
from typing import Any

import pytest

from tests.site_map import LANGUAGES, localised
from vpnsite.devices import devices_at_once
from vpnsite.fleet import Location
from vpnsite_adapters.http.api.archive import SITE
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.http.pages.site import SITE_DIR
from vpnsite_adapters.vpn.profiles import archive

if not (SITE_DIR / "forms" / "status.json").is_file():
    reason = f"the website is not built in {SITE_DIR} (run `python build_ui.py`)"
    if os.environ.get("CI") == "true":
        raise RuntimeError(reason + "; under CI=true the website tests must run")
    pytest.skip(reason, allow_module_level=True)

NEVER_PAY = re.compile(
    r"never pay|nunca pagan|nunca pagam|не платят никогда|personne ne paiera", re.IGNORECASE
)
# The home page's closing line in each language, with a free tier of 5,000 (its start and its end).
CLOSING = {
    "en": ("Free for the first 5,000 users:", "nothing is charged without your consent."),
    "ru": ("Бесплатно для первых 5\u00a0000 пользователей;", "а без вашего согласия ничего не спишем."),
    "es": ("Gratis para los primeros 5000 usuarios;", "nunca te cobraremos sin tu consentimiento."),
    "fr": (
        "Les 5\u202f000 premiers utilisateurs ne paient rien",
        "rien ne vous est facturé sans votre accord.",
    ),
    "pt": ("Grátis para os primeiros 5.000 usuários;", "nada é cobrado sem o seu consentimento."),
}
# Where the terms give the device limit: the rule, then what follows it in the paragraph.
AFTER_RULE = {
    "en": "Connecting a second device to the same server disconnects the first.",
    "ru": "Если подключить второе устройство к тому же серверу, первое отключится.",
    "es": "Si conectas un segundo dispositivo al mismo servidor, el primero se desconecta.",
    "fr": "Connecter un deuxième appareil au même serveur déconnecte le premier.",
    "pt": "Conectar um segundo dispositivo ao mesmo servidor desconecta o primeiro.",
}
PLATFORMS = ("Windows", "macOS", "Android", "iOS", "Linux", "update-resolv-conf", "systemd-resolved")


def fleet_of(count: int) -> tuple[Location, ...]:
    """``count`` listed servers, one a location."""
    return tuple(Location(f"xx-city-{n}", f"Server {n}", "nl", f"City {n}") for n in range(count))


def test_no_page_promises_that_nobody_ever_pays_and_the_closing_line_says_what_the_terms_say(
    make_hub: Any,
) -> None:
    client = create_app(make_hub(free_tier_cap=5000).services).test_client()
    for language in LANGUAGES:
        for route in ("/", "/about", "/terms", "/support", "/server-status", "/privacy"):
            page = client.get(localised(route, language)).get_data(as_text=True)
            assert not NEVER_PAY.search(page), (language, route)
        home = html.unescape(client.get(localised("/", language)).get_data(as_text=True))
        start, end = CLOSING[language]
        assert re.search(re.escape(start) + r"[^<]*" + re.escape(end), home), language
        assert '<meta name="vpnsite-free_count" content="' in home


@pytest.mark.parametrize("servers", [2, 12])
def test_the_terms_give_the_device_limit_the_site_gives_for_its_fleet(make_hub: Any, servers: int) -> None:
    """The terms' device sentence is the site's rule (``devices_at_once``) for the fleet it has:
    with 2 servers, 2 devices, one on each; with 12, the limit of 10, each on its own server."""
    hub = make_hub()
    hub.services.snapshot.locations = fleet_of(servers)
    app = create_app(hub.services)
    client = app.test_client()
    site = app.extensions[SITE]
    for language in LANGUAGES:
        rule = site.device_rows.limit_texts(language, servers)["DEVICE_RULE"]
        assert str(devices_at_once(servers)) in rule
        terms = html.unescape(client.get(localised("/terms", language)).get_data(as_text=True))
        assert f"<p>{rule} {AFTER_RULE[language]}</p>" in terms, (language, rule)
    english = app.extensions[SITE].device_rows.limit_texts("en", servers)["DEVICE_RULE"]
    assert (
        english
        == {
            2: "Up to 2 devices at once — one on each of our 2 servers.",
            12: "Up to 10 devices at once, each on a different server.",
        }[servers]
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_archives_readme_gives_the_same_device_limit(language: str) -> None:
    rule = "Up to 2 devices at once — one on each of our 2 servers."
    with zipfile.ZipFile(io.BytesIO(archive({"a-udp.ovpn": "client"}, language, rule))) as zipped:
        readme = zipped.read("README.txt").decode()
    assert f"{rule} {AFTER_RULE[language]}" in readme
    with zipfile.ZipFile(io.BytesIO(archive({"a-udp.ovpn": "client"}, language, None))) as zipped:
        without = zipped.read("README.txt").decode()
    assert AFTER_RULE[language] not in without and "{rule}" not in without


def test_the_dns_claim_names_the_platforms_it_holds_on(client: Any) -> None:
    for language in LANGUAGES:
        home = html.unescape(client.get(localised("/", language)).get_data(as_text=True))
        card = re.search(r"(DNS[^<]*</h3>\s*<p[^>]*>)([^<]*)</p>", home)
        assert card is not None, language
        for word in PLATFORMS:
            assert word in card.group(2), (language, word)
        assert not re.search(
            r"never to your provider|nunca hacia tu proveedor|jamais par votre", card.group(2)
        )
