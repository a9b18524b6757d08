"""One-tap setup, devices and "am I protected?" (issue 16) in a real browser against a real
`vpnsite serve` with two registered servers (`vpn init` + `add-server`)."""

from __future__ import annotations

import io
import os
import re
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from tests.e2e.conftest import Server
from tests.integration.processes import free_port, vpnsite
from tests.support.serve import serve, stop

SERVERS = {"nl-ams-1": ("nl", "Amsterdam", "Netherlands"), "us-nyc-1": ("us", "New York", "USA")}
BEAT = {"cpu_load": 5, "bandwidth_mbps": 1, "sessions": 0, "service_up": True}


class Fleet(Server):
    tokens: dict[str, str]


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    tmp = tmp_path_factory.mktemp("one-tap")
    port = free_port()
    data_dir = tmp / "data"
    env = {
        **os.environ,
        "VPNSITE_DATA_DIR": str(data_dir),
        "VPNSITE_ACCESS_LOG": "false",
        "VPNSITE_RATE_LIMITS": "off",
    }
    env.pop("VPNSITE_DATABASE_URL", None)
    assert vpnsite("vpn", "init", env=env).returncode == 0
    tokens = {}
    for name, (country, city, display) in SERVERS.items():
        added = vpnsite(
            "vpn", "add-server", name, "--country", country, "--city", city, "--host", f"{name}.example.com",
            "--udp-port", "1194", "--tcp-port", "443", "--display-name", display, env=env,
        )  # fmt: skip
        assert added.returncode == 0, added.stderr
        tokens[name] = added.stdout.strip().splitlines()[-1]
    served = serve(env, tmp / "serve.log", port=port)
    server = Fleet(served.base, data_dir, served.process)
    server.tokens = tokens
    yield server
    stop(served.process)
    shutil.rmtree(tmp, ignore_errors=True)


def open_page(browser: Any, fleet: Fleet, width: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900}, base_url=fleet.base)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def close(page: Any) -> None:
    errors = page.errors
    page.context.close()
    assert not errors, f"JavaScript errors: {errors}"


def sign_up(page: Any, email: str) -> str:
    page.goto("/", wait_until="networkidle")
    page.fill("#signup-email", email)
    page.click("#signup button[type=submit]")
    expect(page.get_by_role("heading", name="VPN activated")).to_be_visible(timeout=15000)
    return str(page.locator("#activation-code").inner_text())


def check_licence(page: Any, email: str, code: str, path: str = "/license") -> None:
    page.goto(path, wait_until="networkidle")
    # A new page fills in the tab's last e-mail, not its code.
    expect(page.locator("#licence-email")).to_have_value(email)
    page.fill("#licence-email", email)
    page.fill("#licence-code", code)
    page.locator("form.card button[type=submit]").click()
    expect(page.locator(".big-number")).to_have_text("90")


def assert_desktop_setup(page: Any, base: str) -> None:
    """Per server: UDP and TCP links, a QR code that decodes to the UDP link, which downloads a
    profile OpenVPN Connect imports; no import button at this width."""
    rows = page.locator(".profile-row")
    expect(rows).to_have_count(len(SERVERS))
    for server_id, (_, city, _) in SERVERS.items():
        row = page.locator(f'.profile-row[data-server="{server_id}"]')
        expect(row).to_contain_text(city)
        udp = row.get_by_role("link", name=f"Download the {city} UDP profile")
        tcp = row.get_by_role("link", name=f"Download the {city} TCP profile")
        assert udp.get_attribute("href").endswith(f"/{server_id}-udp.ovpn")
        assert tcp.get_attribute("href").endswith(f"/{server_id}-tcp.ovpn")
        qr = row.get_by_role("img", name=f"QR code of the {city} profile, for your phone")
        expect(qr).to_be_visible()
        expect(row.get_by_role("link", name="Open in OpenVPN Connect")).to_be_hidden()
        svg = qr.get_attribute("src")
        assert svg.startswith(base + "/api/profile-qr/") and svg.endswith("-udp.svg")
        png = requests.get(svg.removesuffix(".svg") + ".png", timeout=10)
        found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png.content)))
        assert len(found) == 1 and found[0].text == udp.get_attribute("href")
        profile = requests.get(found[0].text, timeout=10)
        assert profile.status_code == 200 and profile.headers["Cache-Control"].startswith("no-store")
        assert re.search(rf"^remote {server_id}\.example\.com 1194", profile.text, re.M)
        assert "setenv CLIENT_CERT 0" in profile.text and "<tls-crypt-v2>" in profile.text


def assert_phone_setup(page: Any) -> None:
    expect(page.locator(".profile-row")).to_have_count(len(SERVERS))
    for server_id in SERVERS:
        row = page.locator(f'.profile-row[data-server="{server_id}"]')
        button = row.get_by_role("link", name="Open in OpenVPN Connect")
        expect(button).to_be_visible()
        udp = row.locator("a[download][href$='-udp.ovpn']").get_attribute("href")
        assert button.get_attribute("href") == f"openvpn://import-profile/{udp}"
        expect(row.locator("img.qr")).to_be_hidden()
        expect(row.locator("a[download][href$='.ovpn']")).to_have_count(2)


def test_activation_and_dashboard_list_each_server_with_its_qr_code(browser: Any, fleet: Fleet) -> None:
    page = open_page(browser, fleet, 1280)
    code = sign_up(page, "desk@example.org")
    assert_desktop_setup(page, fleet.base)
    check_licence(page, "desk@example.org", code)
    assert_desktop_setup(page, fleet.base)
    close(page)


def test_a_phone_gets_import_buttons_instead_of_qr_codes(browser: Any, fleet: Fleet) -> None:
    page = open_page(browser, fleet, 390)
    code = sign_up(page, "phone@example.org")
    assert_phone_setup(page)
    check_licence(page, "phone@example.org", code)
    assert_phone_setup(page)
    close(page)


def node_login(fleet: Fleet, server: str, email: str, code: str) -> str:
    auth = {"Authorization": f"Bearer {fleet.tokens[server]}"}
    assert requests.post(fleet.base + "/api/node/heartbeat", json=BEAT, headers=auth, timeout=10).ok
    login = {"username": email, "password": code, "protocol": "udp"}
    admitted = requests.post(fleet.base + "/api/node/login", json=login, headers=auth, timeout=10).json()
    assert admitted["admitted"] is True
    session = admitted["session"]
    assert requests.post(
        fleet.base + "/api/node/established", json={"session": session}, headers=auth, timeout=10
    ).ok
    return str(session)


def test_a_user_sees_a_device_and_disconnects_it(browser: Any, fleet: Fleet) -> None:
    page = open_page(browser, fleet, 1280)
    email = "devices@example.org"
    code = sign_up(page, email)
    check_licence(page, email, code)
    devices = page.locator(".devices")
    expect(devices.locator(".devices-count")).to_have_text("0 of 2 devices connected")
    expect(devices).to_contain_text("No device is connected right now.")

    node_login(fleet, "nl-ams-1", email, code)
    devices.get_by_role("button", name="Refresh").click()
    expect(devices.locator(".devices-count")).to_have_text("1 of 2 devices connected")
    expect(devices.locator(".device-row")).to_have_count(1)
    expect(devices.locator(".device-row")).to_contain_text("Amsterdam")
    expect(devices.locator(".device-row")).to_contain_text("UDP · connected since")
    devices.get_by_role("button", name="Disconnect the device connected to Amsterdam").click()
    expect(devices.locator(".devices-count")).to_have_text("0 of 2 devices connected")
    expect(devices.locator(".device-row")).to_have_count(0)
    listed = requests.post(
        fleet.base + "/api/devices", json={"email": email, "activation_code": code}, timeout=10
    ).json()
    assert listed["in_use"] == 0 and listed["devices"] == [], "the place is free on the server too"

    node_login(fleet, "nl-ams-1", email, code)
    node_login(fleet, "us-nyc-1", email, code)
    devices.get_by_role("button", name="Refresh").click()
    expect(devices.locator(".devices-count")).to_have_text("2 of 2 devices connected")
    devices.get_by_role("button", name="Disconnect all").click()
    expect(devices.locator(".devices-count")).to_have_text("0 of 2 devices connected")

    page.get_by_role("link", name="Am I protected? Check your connection").click()
    expect(page.locator("#connection-check")).to_contain_text("Not protected: your address is visible")
    close(page)


@pytest.mark.parametrize(
    ("path", "answer"),
    [
        ("/server-status", "Not protected: your address is visible"),
        ("/ru/server-status", "Не защищено: ваш IP-адрес виден"),
    ],
)
def test_the_connection_check_says_not_protected(browser: Any, fleet: Fleet, path: str, answer: str) -> None:
    """Nothing is checked until the visitor asks (the privacy policy's word); asked, the page comes
    with the answer (the script asks nothing on load); back on the page later, without a reload,
    the script asks afresh."""
    page = open_page(browser, fleet, 1280)
    asked: list[str] = []
    page.on(
        "request",
        lambda request: asked.append(request.url) if "/api/connection-check" in request.url else None,
    )
    page.goto(path, wait_until="networkidle")
    expect(page.locator("#connection-check .check-answer")).not_to_have_text(answer)
    assert asked == [], "nothing is checked before the visitor asks"
    page.goto(path + "?check=yes", wait_until="networkidle")
    expect(page.locator("#connection-check .check-answer")).to_have_text(answer)
    assert asked == [], "the answer came with the page"
    page.locator("header a.brand").click()
    expect(page.locator("#connection-check")).to_have_count(0)
    with page.expect_response(lambda response: "/api/connection-check" in response.url):
        page.go_back()
    expect(page.locator("#connection-check .check-answer")).to_have_text(answer)
    close(page)


@pytest.mark.parametrize("width", [390, 1280])
def test_without_javascript_the_answers_list_the_servers_too(browser: Any, fleet: Fleet, width: int) -> None:
    context = browser.new_context(
        java_script_enabled=False, base_url=fleet.base, viewport={"width": width, "height": 900}
    )
    page = context.new_page()
    email = f"nojs-{width}@example.org"
    page.goto("/")
    page.fill("#signup-email", email)
    page.click("#signup button[type=submit]")
    expect(page.get_by_role("heading", name="VPN activated")).to_be_visible()
    code = page.locator("#activation-code").inner_text().strip()

    def check() -> None:
        if width == 1280:
            assert_desktop_setup(page, fleet.base)
        else:
            assert_phone_setup(page)

    check()
    page.goto("/license")
    page.fill("#licence-email", email)
    page.fill("#licence-code", code)
    page.locator("form.card button[type=submit]").click()
    expect(page.locator(".big-number")).to_have_text("90")
    check()
    context.close()


@pytest.mark.parametrize(
    ("path", "answer"),
    [
        ("/server-status", "Not protected: your address is visible"),
        ("/fr/server-status", "Non protégé : votre adresse est visible"),
    ],
)
def test_without_javascript_the_server_answers_the_check(
    browser: Any, fleet: Fleet, path: str, answer: str
) -> None:
    context = browser.new_context(java_script_enabled=False, base_url=fleet.base)
    page = context.new_page()
    response = page.goto(path)
    assert response is not None and response.headers["cache-control"] == "no-cache"
    check = page.locator("#connection-check")
    expect(check.locator(".check-answer")).not_to_have_text(answer)
    check.get_by_role("button").click()
    page.wait_for_load_state()
    assert page.url.endswith(f"{path}?check=yes#connection-check"), "the button asks the server"
    expect(check.locator(".check-answer")).to_have_text(answer)
    check.get_by_role("button").click()
    page.wait_for_load_state()
    assert page.url.endswith(f"{path}?check=yes#connection-check"), "checking again asks the server again"
    expect(check.locator(".check-answer")).to_have_text(answer)
    context.close()


def test_without_javascript_the_dashboard_lists_and_frees_devices(browser: Any, fleet: Fleet) -> None:
    context = browser.new_context(
        java_script_enabled=False, base_url=fleet.base, viewport={"width": 390, "height": 900}
    )
    page = context.new_page()
    email = "nojs-devices@example.org"
    page.goto("/ru/")
    page.fill("#signup-email", email)
    page.click("#signup button[type=submit]")
    code = page.locator("#activation-code").inner_text().strip()
    node_login(fleet, "nl-ams-1", email, code)
    node_login(fleet, "us-nyc-1", email, code)

    page.goto("/ru/license")
    page.fill("#licence-email", email)
    page.fill("#licence-code", code)
    page.locator("form.card button[type=submit]").click()
    devices = page.locator(".devices")
    expect(devices.locator(".devices-count")).to_have_text("Подключено устройств: 2 из 2")
    expect(devices.locator(".device-row")).to_have_count(2)
    expect(devices.locator(".device-row").first).to_contain_text("Амстердам")
    expect(devices.locator(".device-row").first).to_contain_text("UDP · подключено с")
    expect(devices.locator(".device-row").first).to_contain_text("UTC")

    devices.get_by_role("button", name="Отключить устройство на сервере Амстердам").click()
    expect(page.locator(".big-number")).to_have_text("90")
    expect(devices.locator(".devices-count")).to_have_text("Подключено устройств: 1 из 2")
    expect(devices.locator(".device-row")).to_have_count(1)
    expect(devices.locator(".device-row")).to_contain_text("Нью-Йорк")
    listed = requests.post(
        fleet.base + "/api/devices", json={"email": email, "activation_code": code}, timeout=10
    ).json()
    assert [device["server"]["id"] for device in listed["devices"]] == ["us-nyc-1"], "freed on the hub too"

    devices.get_by_role("button", name="Отключить все").click()
    expect(devices.locator(".devices-count")).to_have_text("Подключено устройств: 0 из 2")
    expect(devices).to_contain_text("Сейчас ни одно устройство не подключено.")
    devices.get_by_role("button", name="Обновить").click()
    expect(devices.locator(".devices-count")).to_have_text("Подключено устройств: 0 из 2")
    context.close()


def test_a_disconnected_wireguard_device_is_connected_again_from_the_devices_page(
    browser: Any, fleet: Fleet
) -> None:
    page = open_page(browser, fleet, 1280)
    email = "wireguard-page@example.org"
    code = sign_up(page, email)
    owner = {"email": email, "activation_code": code}
    auth = {"Authorization": f"Bearer {fleet.tokens['nl-ams-1']}"}
    beat = {**BEAT, "wireguard": True}
    assert requests.post(fleet.base + "/api/node/heartbeat", json=beat, headers=auth, timeout=10).ok
    licence = requests.post(fleet.base + "/api/check-license", json=owner, timeout=10).json()
    assert requests.get(licence["license"]["configUrl"], timeout=30).ok, (
        "the archive gives the licence its tunnel addresses"
    )
    peers = requests.get(fleet.base + "/api/node/wireguard-peers", headers=auth, timeout=10).json()["peers"]
    (peer,) = [each for each in peers if each["allowed_ips"]]
    session = {"session": "wg-page-1", "licence": peer["licence"], "protocol": "wireguard"}
    held: dict[str, Any] = {**beat, "connections": [session]}
    assert (
        requests.post(fleet.base + "/api/node/heartbeat", json=held, headers=auth, timeout=10).json()["end"]
        == []
    )

    check_licence(page, email, code)
    devices = page.locator(".devices")
    expect(devices.locator(".device-row")).to_contain_text("WIREGUARD · connected since")
    devices.get_by_role("button", name="Disconnect the device connected to Amsterdam").click()
    expect(devices.locator(".devices-count")).to_have_text("0 of 2 devices connected")
    expect(devices.locator(".device-row")).to_contain_text("Your WireGuard app may still show it as on")
    assert not requests.get(fleet.base + "/api/node/wireguard-peers", headers=auth, timeout=10).json()[
        "peers"
    ]
    devices.get_by_role("button", name="Connect the WireGuard device again to Amsterdam").click()
    expect(devices.locator(".device-row")).to_have_count(0)
    peers = requests.get(fleet.base + "/api/node/wireguard-peers", headers=auth, timeout=10).json()["peers"]
    assert [each["licence"] for each in peers] == [peer["licence"]], "back on the server's list"
    close(page)
