"""The device list and the connection check's answer the server writes into the pages it sends
without JavaScript equal, byte for byte, what the website's script renders for the same list and
answer (http/pages/device_rows.py, http/pages/connection_answer.py), in the five languages."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tests.integration.test_status_page import rendered_by_the_script
from vpnsite.fleet import Location, VpnServer
from vpnsite.vpn_access import MAX_SESSIONS
from vpnsite_adapters.http.pages.connection_answer import ConnectionAnswers, connection_check_answer
from vpnsite_adapters.http.pages.device_rows import DeviceRows, since_text
from vpnsite_adapters.http.pages.site import SITE_DIR
from vpnsite_adapters.texts.languages import LANGUAGES
from vpnsite_contract.structuring import unstructure

SINCE = int(datetime(2026, 11, 24, 7, 5, tzinfo=UTC).timestamp())
CREDENTIALS = {"email": 'a&b"<c>@example.org', "code": "12345678901234567890"}


def device(session: str, server: dict[str, str], protocol: str | None) -> dict[str, Any]:
    return {"session": session, "server": server, "protocol": protocol, "since": SINCE}


LISTING: dict[str, Any] = {
    "success": True,
    "in_use": 3,
    "limit": 10,
    "devices": [
        device("s-1&<", {"id": "nl-1", "name": "Netherlands", "flag": "nl", "location": "Amsterdam"}, "udp"),
        device(
            "s-2", {"id": "xx-1", "name": 'X <server> & "co"', "flag": "xx", "location": "Some <town>"}, "tcp"
        ),
        device("s-3", {"id": "gone-1"}, None),
    ],
    "held_out": [
        {"server": {"id": "fr-1&<", "name": "France", "flag": "fr", "location": "Paris"}},
        {"server": {"id": "gone-2"}},
    ],
}
EMPTY: dict[str, Any] = {"success": True, "in_use": 0, "limit": 10, "devices": [], "held_out": []}


def test_the_device_list_is_the_scripts_list() -> None:
    rows = DeviceRows.load(SITE_DIR / "forms" / "devices.json")
    cases = []
    for listing in (LISTING, EMPTY):
        for language in LANGUAGES:
            since = {item["session"]: since_text(SINCE, language) for item in listing["devices"]}
            rule = rows.limit_texts(language, 8)["DEVICE_RULE"]
            cases.append(("renderDevices", listing, since, CREDENTIALS, language, rule))
    for (_, listing, _, _, language, rule), expected in zip(
        cases, rendered_by_the_script(cases), strict=True
    ):
        section = rows.section(language, listing, CREDENTIALS["email"], CREDENTIALS["code"], rule).decode()
        assert section == expected, (language, len(listing["devices"]))
    ru = rows.section("ru", LISTING, "me@example.org", "1" * 20, "").decode()
    assert "3 из 10" in ru
    assert ru.count('name="disconnect" value="s-2"') == 1
    assert ru.count('name="disconnect" value="all"') == 1 and ru.count('value="me@example.org"') == 7
    assert ru.count('name="connect_again" value="fr-1&amp;&lt;"') == 1, "a held-out device, connected again"
    assert ru.count("Подключить снова") == 2 and ru.count('class="device-row"') == 5


def test_since_is_written_in_utc_in_the_visitors_language() -> None:
    assert since_text(SINCE, "en") == "24 November 2026, 07:05 UTC"
    assert since_text(SINCE, "ru") == "24 ноября 2026\u00a0г., 07:05 UTC"
    assert since_text(SINCE, "pt") == "24 de novembro de 2026, 07:05 UTC"
    # The script writes the visitor's time the same way, naming its zone (ui/tests/format.test.ts).
    cases = [("shortAndMoment", 1_000_001, SINCE, language) for language in LANGUAGES]
    written = [moment for _, moment in rendered_by_the_script(cases)]
    assert [since_text(SINCE, language) for language in LANGUAGES] == written


def test_the_page_without_the_script_says_since_when_in_each_language_and_names_utc() -> None:
    rows = DeviceRows.load(SITE_DIR / "forms" / "devices.json")
    first_of_march = int(datetime(2027, 3, 1, 14, 5, tzinfo=UTC).timestamp())
    listing = {**LISTING, "devices": [{**item, "since": first_of_march} for item in LISTING["devices"]]}
    details = {
        "en": "UDP · connected since 1 March 2027, 14:05 UTC",
        "ru": "UDP · подключено с 1 марта 2027\u00a0г., 14:05 UTC",
        "es": "UDP · conectado desde el 1 de marzo de 2027, 14:05 UTC",
        "fr": "UDP · connecté depuis le 1er mars 2027, 14:05 UTC",
        "pt": "UDP · conectado desde 1 de março de 2027, 14:05 UTC",
    }
    for language, detail in details.items():
        section = rows.section(language, listing, "me@example.org", "1" * 20, "").decode()
        assert detail in section, (language, section)


def vpn_server(id: str, country: str, city: str) -> VpnServer:
    location = Location(id=id, name=f"{country.upper()} <n>", country=country, city=city)
    return VpnServer(location=location, host="vpn.example")


def test_the_connection_answer_is_the_scripts_answer() -> None:
    answers = ConnectionAnswers.load(SITE_DIR / "forms" / "check.json")
    servers = [None, vpn_server("nl-1", "nl", "Amsterdam"), vpn_server("xx-1", "xx", "Some <town> & co")]
    cases = [
        ("renderConnectionCheck", unstructure(connection_check_answer(server)), language)
        for server in servers
        for language in LANGUAGES
    ]
    expected = iter(rendered_by_the_script(cases))
    for server in servers:
        for language in LANGUAGES:
            assert answers.block(language, server).decode() == next(expected), (language, server)
    assert "Protégé — via Amsterdam" in answers.block("fr", servers[1]).decode()
    assert "Не защищено" in answers.block("ru", None).decode()


def test_how_many_devices_at_once_is_said_for_the_fleet_in_each_language() -> None:
    """One device per server, at most MAX_SESSIONS: a fleet smaller than the limit gives its own
    count, never a limit it cannot reach; an unknown fleet (0) states the limit (issue 30, 8)."""
    rows = DeviceRows.load(SITE_DIR / "forms" / "devices.json")
    eight = {language: rows.limit_texts(language, 8) for language in LANGUAGES}
    assert eight["en"] == {
        "DEVICES": "Up to 8 devices at once",
        "DEVICE_RULE": "Up to 8 devices at once — one on each of our 8 servers.",
    }
    assert eight["ru"] == {
        "DEVICES": "до 8 устройств одновременно",
        "DEVICE_RULE": "До 8 устройств одновременно — по одному на каждом из наших 8 серверов.",
    }
    assert (
        eight["es"]["DEVICE_RULE"]
        == "Hasta 8 dispositivos a la vez: uno en cada uno de nuestros 8 servidores."
    )
    assert (
        eight["fr"]["DEVICE_RULE"] == "Jusqu’à 8 appareils à la fois\u00a0: un sur chacun de nos 8 serveurs."
    )
    assert (
        eight["pt"]["DEVICE_RULE"]
        == "Até 8 dispositivos ao mesmo tempo: um em cada um dos nossos 8 servidores."
    )
    for language in LANGUAGES:
        assert "10" not in "".join(eight[language].values()), language
        for fleet in (0, MAX_SESSIONS, 25):
            texts = rows.limit_texts(language, fleet)
            assert str(MAX_SESSIONS) in texts["DEVICES"] and str(MAX_SESSIONS) in texts["DEVICE_RULE"]
            assert str(fleet) not in texts["DEVICE_RULE"].replace(str(MAX_SESSIONS), "")
    assert (
        rows.limit_texts("en", 12)["DEVICE_RULE"] == "Up to 10 devices at once, each on a different server."
    )
    assert rows.limit_texts("ru", 2)["DEVICES"] == "до 2 устройств одновременно"
    assert rows.limit_texts("en", 1) == {
        "DEVICES": "1 device at a time",
        "DEVICE_RULE": "One device at a time, on our one server.",
    }
