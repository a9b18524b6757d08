"""The one-tap setup list the server writes into the screens it answers form posts with equals,
byte for byte, what the website's script renders for the same profiles (http/pages/profile_rows.py), in
the five languages."""

from __future__ import annotations

from typing import Any

from tests.integration.test_status_page import rendered_by_the_script
from vpnsite_adapters.http.pages.profile_rows import ProfileRows
from vpnsite_adapters.http.pages.site import SITE_DIR
from vpnsite_adapters.texts.languages import LANGUAGES

LINK = "https://vpn.example/api/profile/t0k_en-&/"


def openvpn(server: str, protocol: str) -> dict[str, str]:
    url = f"{LINK}{server}-{protocol}.ovpn"
    return {
        "protocol": protocol,
        "url": url,
        "import_url": f"openvpn://import-profile/{url}",
        "qr_svg": f"https://vpn.example/api/profile-qr/t0k_en-&/{server}-{protocol}.svg",
        "qr_png": f"https://vpn.example/api/profile-qr/t0k_en-&/{server}-{protocol}.png",
    }


def server(id: str, flag: str, load: str, protocols: tuple[str, ...], wireguard: bool) -> dict[str, Any]:
    return {
        "id": id,
        "name": f'{flag.upper()} <server> & "co"',
        "flag": flag,
        "location": "Some <town>",
        "status": "online",
        "load": load,
        "openvpn": [openvpn(id, protocol) for protocol in protocols],
        "wireguard": {"url": f"{LINK}{id}.conf"} if wireguard else None,
    }


PROFILES = [
    server("nl-1", "nl", "29%", ("udp", "tcp"), True),
    server("us-1", "us", "30%", ("udp", "tcp"), False),
    server("ch-1", "ch", "100%", ("tcp",), False),
    server("xx-1", "xx", "69.5%", ("tcp", "udp"), True),
    server("de-1", "de", "0%", (), True),
]


def test_the_servers_list_is_the_scripts_list() -> None:
    rows = ProfileRows.load(SITE_DIR / "forms" / "profiles.json")
    cases = [("renderProfiles", profiles, language) for profiles in (PROFILES, []) for language in LANGUAGES]
    for (_, profiles, language), expected in zip(cases, rendered_by_the_script(cases), strict=True):
        assert rows.section(language, profiles).decode() == expected, (language, len(profiles))
    assert rows.section("ru", PROFILES).count(b'class="profile-row"') == len(PROFILES)
    assert ">29\u00a0%<".encode() in rows.section("ru", PROFILES), (
        "a load as the language writes a percentage"
    )
    assert b">70%<" in rows.section("en", PROFILES), "69.5% rounds as the script rounds it"
