"""Per-server profile links (and their QR codes), devices seen and freed, and "am I protected?",
through the real app on SQLite and PostgreSQL, every JSON answer checked against the contract."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from PIL import Image, ImageDraw

from tests.integration.contract import assert_matches_contract
from tests.integration.processes import vpnsite
from tests.support.api import call, sign_up
from vpnsite.fleet import Location
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.vpn.keystore import initialise
from vpnsite_node.config import NodeConfig

ORIGIN = "http://localhost"
SERVERS = ("nl-ams-1", "us-nyc-1")
BEAT = {"cpu_load": 5, "bandwidth_mbps": 1, "sessions": 0, "service_up": True}


@pytest.fixture
def vpn_hub(make_hub: Any, tmp_path: Any) -> Any:
    initialise(tmp_path / "data")
    hub = make_hub(rate_limits="archive:ip=3/10m")
    for name, host in zip(SERVERS, ("203.0.113.10", "203.0.113.20"), strict=True):
        hub.store.fleet.add_server(Location(name, "Netherlands", "nl", "Amsterdam"), host, 1194, 443)
        hub.store.fleet.set_token(
            name, hub.services.server_authentication.keys.read().nodes(f"token-{name}").current
        )
    hub.store.fleet.set_wireguard("nl-ams-1", 51820, "c2VydmVyIGtleSBzZXJ2ZXIga2V5IHNlcnZlciBrZXk=")
    hub.services.snapshot.refresh()
    return hub


def local(url: str) -> str:
    assert url.startswith(ORIGIN + "/"), url
    return url[len(ORIGIN) :]


def fetch(client: Any, url: str, address: str) -> Any:
    return client.get(local(url), environ_base={"REMOTE_ADDR": address})


def svg_pixels(svg: bytes) -> Image.Image:
    """Draw segno's SVG (one path of horizontal runs: M/m moves, h lines) as a bitmap."""
    text = svg.decode()
    width = int(re.search(r'width="(\d+)"', text)[1])  # type: ignore[index]
    scale = int(re.search(r"scale\((\d+)\)", text)[1])  # type: ignore[index]
    path = re.search(r' d="([^"]+)"', text)[1]  # type: ignore[index]
    image = Image.new("L", (width, width), 255)
    draw = ImageDraw.Draw(image)
    x = y = 0.0
    for command, *numbers in re.findall(r"([MmHh])(-?[\d.]+)(?:\s+(-?[\d.]+))?", path):
        a, b = float(numbers[0]), float(numbers[1] or 0)
        if command == "M":
            x, y = a, b
        elif command == "m":
            x, y = x + a, y + b
        else:
            end = a if command == "H" else x + a
            top = (y - 0.5) * scale
            draw.rectangle([x * scale, top, end * scale - 1, top + scale - 1], fill=0)
            x = end
    return image


def decoded(image: Image.Image) -> str:
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, "one QR code, readable"
    return str(found[0].text)


def tampered(token: str) -> str:
    """The link's token with one character in its middle changed: never the token itself (writing
    "xx" over its end left it whole when it ended so, one link in 4,096)."""
    middle = len(token) // 2
    return token[:middle] + ("B" if token[middle] == "A" else "A") + token[middle + 1 :]


def test_each_profile_has_its_own_link_an_import_url_and_qr_codes(vpn_hub: Any) -> None:
    client = create_app(vpn_hub.services).test_client()
    status, created = call(client, "/api/create-user", sign_up(client))
    assert status == 200
    listed = {entry["id"]: entry for entry in created["profiles"]}
    assert set(listed) == set(SERVERS)
    amsterdam = listed["nl-ams-1"]
    assert (amsterdam["flag"], amsterdam["location"], amsterdam["status"]) == ("nl", "Amsterdam", "offline")
    assert [p["protocol"] for p in amsterdam["openvpn"]] == ["udp", "tcp"]
    assert listed["us-nyc-1"]["wireguard"] is None and amsterdam["wireguard"] is not None

    archive = fetch(client, created["activation_url"], "198.51.100.1")
    with zipfile.ZipFile(io.BytesIO(archive.data)) as zipped:
        in_archive = {name: zipped.read(name).decode() for name in zipped.namelist()}
    for n, entry in enumerate(created["profiles"]):
        for m, profile in enumerate(entry["openvpn"]):
            file_name = f"{entry['id']}-{profile['protocol']}.ovpn"
            assert profile["import_url"] == "openvpn://import-profile/" + profile["url"]
            single = fetch(client, profile["url"], f"198.51.100.{10 + n * 2 + m}")
            assert single.status_code == 200
            assert single.mimetype == "application/x-openvpn-profile"
            assert single.headers["Content-Disposition"] == f'attachment; filename="{file_name}"'
            assert single.headers["Cache-Control"] == "no-store"
            assert single.data.decode() == in_archive[file_name], "the same profile as in the archive"
    conf = fetch(client, amsterdam["wireguard"]["url"], "198.51.100.30")
    assert conf.status_code == 200 and conf.data.decode() == in_archive["wireguard/nl-ams-1.conf"]
    assert conf.headers["Content-Disposition"] == 'attachment; filename="nl-ams-1.conf"'

    udp = amsterdam["openvpn"][0]
    svg = fetch(client, udp["qr_svg"], "198.51.100.40")
    assert svg.mimetype == "image/svg+xml" and svg.headers["Cache-Control"] == "no-store"
    assert "default-src 'none'" in svg.headers["Content-Security-Policy"]
    assert b"<script" not in svg.data and b"http://localhost" not in svg.data, "a drawing, not a reference"
    png = fetch(client, udp["qr_png"], "198.51.100.40")
    assert png.mimetype == "image/png" and png.headers["Cache-Control"] == "no-store"
    for image in (svg_pixels(svg.data), Image.open(io.BytesIO(png.data))):
        held = decoded(image)
        assert held == udp["url"], "the code holds the profile's personal link"
        scanned = fetch(client, held, "198.51.100.41")
        assert scanned.status_code == 200 and scanned.data.decode() == in_archive["nl-ams-1-udp.ovpn"]

    token = local(created["activation_url"]).rsplit("/", 1)[1]
    for wrong in (
        f"/api/profile/{token}/elsewhere-udp.ovpn",
        f"/api/profile/{token}/nl-ams-1-sctp.ovpn",
        f"/api/profile/{token}/us-nyc-1.conf",
        f"/api/profile/{tampered(token)}/nl-ams-1-udp.ovpn",
        f"/api/profile-qr/{token}/elsewhere-udp.svg",
        f"/api/profile-qr/{tampered(token)}/nl-ams-1-udp.svg",
    ):
        assert client.get(wrong, environ_base={"REMOTE_ADDR": "198.51.100.50"}).status_code == 404, wrong


def test_profile_links_share_the_archive_limit_and_die_with_the_licence(vpn_hub: Any, clock: Any) -> None:
    client = create_app(vpn_hub.services).test_client()
    _, created = call(client, "/api/create-user", sign_up(client))
    url = created["profiles"][0]["openvpn"][1]["url"]
    assert fetch(client, created["activation_url"], "198.51.100.1").status_code == 200
    assert [fetch(client, url, "198.51.100.1").status_code for _ in range(3)] == [200, 200, 429]
    status, checked = call(
        client,
        "/api/check-license",
        {"email": created["user_email"], "activation_code": created["user_code"]},
    )
    assert status == 200 and [entry["id"] for entry in checked["license"]["profiles"]] == list(SERVERS)
    clock.advance(days=91)
    assert fetch(client, url, "198.51.100.2").status_code == 404, "no profile outlives the licence"
    _, ended = call(
        client,
        "/api/check-license",
        {"email": created["user_email"], "activation_code": created["user_code"]},
    )
    assert ended["license"]["profiles"] == [] and ended["license"]["configUrl"] is None


def test_qr_codes_are_drawn_under_a_limit_per_address(make_hub: Any, tmp_path: Any) -> None:
    initialise(tmp_path / "data")
    hub = make_hub(rate_limits="qr-code:ip=3/10m")
    hub.store.fleet.add_server(
        Location("nl-ams-1", "Netherlands", "nl", "Amsterdam"), "203.0.113.10", 1194, 443
    )
    hub.services.snapshot.refresh()
    client = create_app(hub.services).test_client()
    _, created = call(client, "/api/create-user", sign_up(client))
    udp = created["profiles"][0]["openvpn"][0]
    answers = [fetch(client, udp["qr_svg"], "198.51.100.1").status_code for _ in range(3)]
    answers.append(fetch(client, udp["qr_png"], "198.51.100.1").status_code)
    assert answers == [200, 200, 200, 429]
    assert fetch(client, udp["qr_svg"], "198.51.100.2").status_code == 200, "another address has its own"
    assert fetch(client, udp["url"], "198.51.100.1").status_code == 200, "the profile itself is not held back"


def test_profiles_import_into_openvpn_connect_without_asking_for_a_certificate(vpn_hub: Any) -> None:
    """OpenVPN 3 (the core of OpenVPN Connect) takes a profile without `cert` and `key` for one
    whose certificate is kept elsewhere, and asks for it, unless `setenv CLIENT_CERT 0`; a profile
    imported from a link has no other file, so every key is inline, and the login is typed."""
    client = create_app(vpn_hub.services).test_client()
    _, created = call(client, "/api/create-user", sign_up(client))
    for n, entry in enumerate(created["profiles"]):
        for m, link in enumerate(entry["openvpn"]):
            text = fetch(client, link["url"], f"198.51.100.{60 + n * 2 + m}").data.decode()
            outside_blocks = re.sub(r"<([\w-]+)>.*?</\1>", "", text, flags=re.S)
            directives = [line.split() for line in outside_blocks.splitlines() if line and line[0] != "#"]
            names = {words[0] for words in directives}
            assert ["setenv", "CLIENT_CERT", "0"] in directives
            assert ["auth-user-pass"] in directives, "asks for the e-mail and code; no file"
            assert not names & {"cert", "key", "pkcs12", "ca", "tls-crypt-v2", "tls-auth", "tls-crypt"}, (
                "no key is a file reference"
            )
            assert re.search(r"<ca>\n-----BEGIN CERTIFICATE-----.+</ca>", text, re.S)
            assert re.search(r"<tls-crypt-v2>\n-----BEGIN OpenVPN tls-crypt-v2 client key-----", text)
            assert "GENERIC_CONFIG" not in text and "<auth-user-pass>" not in text


def _log_in(client: Any, server: str, code: str, protocol: str = "udp") -> dict[str, Any]:
    auth = {"Authorization": f"Bearer token-{server}"}
    client.post("/api/node/heartbeat", json=BEAT, headers=auth)
    login = {"username": "anna@example.org", "password": code, "protocol": protocol}
    admitted = client.post("/api/node/login", json=login, headers=auth).get_json()
    assert admitted["admitted"] is True
    assert client.post(
        "/api/node/established", json={"session": admitted["session"]}, headers=auth
    ).get_json()
    return admitted  # type: ignore[no-any-return]


def _anna_on_two_servers_and_bob_on_one(client: Any) -> tuple[dict[str, Any], ...]:
    """Two licences; Anna's logged in on both servers (UDP, TCP), Bob's on Amsterdam (not yet
    established): the licences, then the three logins."""
    _, anna = call(client, "/api/create-user", sign_up(client))
    _, bob = call(client, "/api/create-user", sign_up(client, "bob@example.org"))
    udp = _log_in(client, "nl-ams-1", anna["user_code"], "udp")
    tcp = _log_in(client, "us-nyc-1", anna["user_code"], "tcp")
    bobs = client.post(
        "/api/node/login",
        json={"username": "bob@example.org", "password": bob["user_code"], "protocol": "udp"},
        headers={"Authorization": "Bearer token-nl-ams-1"},
    ).get_json()
    return anna, bob, udp, tcp, bobs


def test_a_user_sees_and_frees_devices(vpn_hub: Any, clock: Any) -> None:
    client = create_app(vpn_hub.services).test_client()
    started = int(clock.now().timestamp())
    anna, bob, udp, tcp, bobs = _anna_on_two_servers_and_bob_on_one(client)
    owner = {"email": "anna@example.org", "activation_code": anna["user_code"]}

    status, listing = call(client, "/api/devices", owner)
    assert status == 200 and (listing["in_use"], listing["limit"]) == (2, 10)
    assert [(d["session"], d["server"]["id"], d["protocol"], d["since"]) for d in listing["devices"]] == [
        (udp["session"], "nl-ams-1", "udp", started),
        (tcp["session"], "us-nyc-1", "tcp", started),
    ]
    assert listing["devices"][0]["server"] == {
        "id": "nl-ams-1",
        "name": "Netherlands",
        "flag": "nl",
        "location": "Amsterdam",
    }
    assert bobs["session"] not in str(listing) and "127.0.0.1" not in str(listing)

    status, refused = call(client, "/api/devices/disconnect", {**owner, "session": bobs["session"]})
    assert (status, refused["code"]) == (404, "session_not_found"), "nobody ends another's session"
    status, _ = call(client, "/api/devices/disconnect", owner)
    assert status == 422, "a session or all"
    status, after = call(client, "/api/devices/disconnect", {**owner, "session": udp["session"]})
    assert (
        status == 200
        and after["in_use"] == 1
        and [d["session"] for d in after["devices"]] == [tcp["session"]]
    )
    held = [
        {"session": udp["session"], "licence": udp["licence"]},
        {"session": bobs["session"], "licence": bobs["licence"]},
    ]
    beat = client.post(
        "/api/node/heartbeat",
        json={**BEAT, "connections": held},
        headers={"Authorization": "Bearer token-nl-ams-1"},
    ).get_json()
    assert beat["end"] == [udp["session"]], "the server is told to cut it, and only it"

    status, emptied = call(client, "/api/devices/disconnect", {**owner, "all": True})
    assert status == 200 and emptied["devices"] == [] and emptied["in_use"] == 0
    again = _log_in(client, "nl-ams-1", anna["user_code"])
    assert [d["session"] for d in call(client, "/api/devices", owner)[1]["devices"]] == [again["session"]]


def test_devices_are_protected_like_the_licence_check(vpn_hub: Any) -> None:
    client = create_app(vpn_hub.services).test_client()
    _, anna = call(client, "/api/create-user", sign_up(client))
    wrong = {"email": "anna@example.org", "activation_code": "1" * 20}
    status, body = call(client, "/api/devices", wrong)
    assert status in (404, 422) and body["code"] in ("licence_not_found", "validation_error")
    right = {"email": "anna@example.org", "activation_code": anna["user_code"]}
    answers = [call(client, "/api/check-license", right)[0] for _ in range(5)]
    answers += [call(client, "/api/devices", right)[0] for _ in range(4)]
    assert answers == [200] * 9
    status, limited = call(client, "/api/devices/disconnect", {**right, "all": True})
    assert (status, limited["code"]) == (429, "rate_limited"), "one budget with the licence check"


def test_the_connection_check_knows_the_online_servers_exit_addresses(
    vpn_hub: Any, clock: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    client = create_app(vpn_hub.services).test_client()

    def check(address: str) -> Any:
        response = client.get("/api/connection-check", environ_base={"REMOTE_ADDR": address})
        assert response.headers["Cache-Control"] == "no-store"
        assert address not in response.get_data(as_text=True), "the visitor's address is not echoed"
        return assert_matches_contract("/api/connection-check", "GET", response)

    exits = {**BEAT, "exit_addresses": ["198.51.100.7", "2001:db8:7::/64"]}
    auth = {"Authorization": "Bearer token-nl-ams-1"}
    assert client.post("/api/node/heartbeat", json=exits, headers=auth).status_code == 200
    bad = client.post("/api/node/heartbeat", json={**BEAT, "exit_addresses": ["vpn.example"]}, headers=auth)
    assert bad.status_code == 422
    vpn_hub.services.snapshot.refresh()
    protected = check("198.51.100.7")
    assert protected == {
        "protected": True,
        "server": {"id": "nl-ams-1", "name": "Netherlands", "flag": "nl", "location": "Amsterdam"},
    }
    assert check("2001:db8:7::99")["protected"] is True
    assert check("198.51.100.8") == {"protected": False, "server": None}
    beat = client.post(
        "/api/node/heartbeat", json=BEAT, headers=auth, environ_base={"REMOTE_ADDR": "198.51.100.9"}
    )
    assert beat.status_code == 200
    vpn_hub.services.snapshot.refresh()
    assert check("198.51.100.9")["protected"] is True, "a heartbeat without addresses: where it comes from"
    assert check("198.51.100.7")["protected"] is False, "nothing is kept from the beats before"
    clock.advance(seconds=31)
    vpn_hub.services.snapshot.refresh()
    assert check("198.51.100.9")["protected"] is False, "a server offline protects nobody"
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "GET /api/connection-check 200" in logged
    assert "198.51.100" not in logged and "2001:db8:7" not in logged, "no visitor's address is logged"


def test_exit_addresses_go_from_add_server_into_the_servers_directory(tmp_path: Path) -> None:
    env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp_path / "data")}
    env.pop("VPNSITE_DATABASE_URL", None)
    add = ("vpn", "add-server", "nl-1", "--country", "nl", "--city", "Amsterdam", "--host", "203.0.113.9")
    assert vpnsite("vpn", "init", env=env).returncode == 0
    refused = vpnsite(*add, "--exit-address", "vpn.example.org", env=env)
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "--exit-address" in refused.stderr and "Traceback" not in refused.stderr
    added = vpnsite(*add, "--exit-address", "198.51.100.7", "--exit-address", "2001:DB8:7::/64", env=env)
    assert added.returncode == 0, added.stderr
    out = tmp_path / "nl-1"
    written = vpnsite(
        "vpn", "server-config", "nl-1", "--out", str(out), "--hub", "https://hub.example", env=env
    )
    assert written.returncode == 0, written.stderr
    node = json.loads((out / "node.json").read_text())
    assert node["exit_addresses"] == ["198.51.100.7", "2001:db8:7::/64"]
    assert NodeConfig.load(out).exit_addresses == ("198.51.100.7", "2001:db8:7::/64"), (
        "the node reports these"
    )


def test_the_licence_form_lists_and_ends_devices_without_javascript(vpn_hub: Any) -> None:
    client = create_app(vpn_hub.services).test_client()
    anna, bob, udp, tcp, bobs = _anna_on_two_servers_and_bob_on_one(client)
    owner = {"email": "anna@example.org", "activation_code": anna["user_code"]}

    def post(**fields: str) -> tuple[int, str]:
        response = client.post("/license", data={**owner, **fields}, headers={"Origin": ORIGIN})
        assert response.headers["Cache-Control"] == "no-store"
        return response.status_code, response.get_data(as_text=True)

    def disconnect_buttons(page: str) -> list[str]:
        return re.findall(r'name="disconnect" value="([^"]*)"', page)

    status, page = post()
    assert status == 200 and "2 of 10 devices connected" in page
    assert sorted(disconnect_buttons(page)) == sorted([udp["session"], tcp["session"], "all"])
    assert "127.0.0.1" not in page and bobs["session"] not in page

    status, page = post(disconnect=udp["session"])
    assert status == 200 and "1 of 10 devices connected" in page and udp["session"] not in page
    status, page = post(disconnect=udp["session"])
    assert status == 200 and "1 of 10 devices connected" in page, "a device already gone is no error"
    status, page = post(disconnect=bobs["session"])
    assert status == 200 and "1 of 10 devices connected" in page, "nobody ends another's session"
    assert (
        call(client, "/api/devices", {"email": "bob@example.org", "activation_code": bob["user_code"]})[1][
            "in_use"
        ]
        == 1
    )
    status, page = post(disconnect="x" * 65)
    assert status == 422 and 'class="alert"' in page
    status, page = post(disconnect="all")
    assert (
        status == 200 and "0 of 10 devices connected" in page and "No device is connected right now." in page
    )
    wrong = client.post(
        "/license",
        data={**owner, "activation_code": "1" * 20, "disconnect": "all"},
        headers={"Origin": ORIGIN},
    )
    assert wrong.status_code in (404, 422) and b'<li class="device-row">' not in wrong.data


def test_a_fleet_smaller_than_the_limit_is_the_limit_with_and_without_javascript(vpn_hub: Any) -> None:
    """One device per server: with two servers, a licence connects two devices at once, and every
    page says so in the same words, the API's limit with them (issue 30, item 8)."""
    client = create_app(vpn_hub.services).test_client()
    anna, *_ = _anna_on_two_servers_and_bob_on_one(client)
    vpn_hub.services.snapshot.refresh()
    assert vpn_hub.services.snapshot.servers == 10
    # The fleet as the last refresh counted it, had it two servers.
    vpn_hub.services.snapshot.locations = vpn_hub.services.snapshot.locations[:2]
    owner = {"email": "anna@example.org", "activation_code": anna["user_code"]}
    status, listing = call(client, "/api/devices", owner)
    assert status == 200 and (listing["in_use"], listing["limit"]) == (2, 2)
    rule = "Up to 2 devices at once — one on each of our 2 servers."
    page = client.post("/license", data=owner, headers={"Origin": ORIGIN}).get_data(as_text=True)
    assert "2 of 2 devices connected" in page
    assert f'<p class="muted small">{rule} Disconnecting frees the place at once' in page
    home = client.get("/").get_data(as_text=True)
    assert "No credit card · Up to 2 devices at once · OpenVPN UDP and TCP" in home
    assert f'<meta name="vpnsite-device_rule" content="{rule}">' in home
    faq = client.get("/ru/support").get_data(as_text=True)
    assert "До 2 устройств одновременно — по одному на каждом из наших 2 серверов. Кроме того" in faq
    assert "10 устройств" not in faq and "10 devices" not in home


def test_the_status_page_carries_each_visitors_connection_check(vpn_hub: Any) -> None:
    client = create_app(vpn_hub.services).test_client()
    auth = {"Authorization": "Bearer token-nl-ams-1"}
    exits = {**BEAT, "exit_addresses": ["198.51.100.7"]}
    assert client.post("/api/node/heartbeat", json=exits, headers=auth).status_code == 200
    vpn_hub.services.snapshot.refresh()

    # Before the visitor asks, nothing is compared: the button alone, the same page for everyone.
    unasked = client.get("/server-status", environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert unasked.headers["Cache-Control"] == "no-cache"
    page = unasked.get_data(as_text=True)
    assert '<script type="application/json" id="vpnsite-check">null</script>' in page
    assert "Nothing is compared until you ask." in page and 'name="check" value="yes"' in page

    def status_page(address: str, path: str = "/server-status") -> Any:
        response = client.get(path + "?check=yes", environ_base={"REMOTE_ADDR": address})
        assert response.status_code == 200 and response.headers["Cache-Control"] == "private, no-cache"
        assert address not in response.get_data(as_text=True)
        return response

    def answer(response: Any) -> tuple[str, Any]:
        page = response.get_data(as_text=True)
        shown = re.search(r'class="check-answer"[^>]*>([^<]*)<', page)
        data = re.search(r'<script type="application/json" id="vpnsite-check">(.*?)</script>', page)
        assert shown and data
        return shown.group(1), json.loads(data.group(1))

    protected = status_page("198.51.100.7")
    assert answer(protected) == (
        "Protected — via Amsterdam",
        {
            "protected": True,
            "server": {"id": "nl-ams-1", "name": "Netherlands", "flag": "nl", "location": "Amsterdam"},
        },
    )
    exposed = status_page("198.51.100.8")
    assert answer(exposed) == ("Not protected: your address is visible", {"protected": False, "server": None})
    assert protected.headers["ETag"] != exposed.headers["ETag"]
    again = client.get(
        "/server-status?check=yes",
        environ_base={"REMOTE_ADDR": "198.51.100.8"},
        headers={"If-None-Match": protected.headers["ETag"]},
    )
    assert again.status_code == 200, "a page checked from another address is not this visitor's answer"
    assert answer(status_page("198.51.100.7", "/es/server-status"))[0] == "Protegido — a través de Ámsterdam"
    home = client.get("/", environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert home.headers["Cache-Control"] == "no-cache" and b"vpnsite-check" not in home.get_data()


def test_a_connection_back_by_its_token_never_displaces_a_live_session(vpn_hub: Any) -> None:
    """After a restart an app may have only its session token: the hub admits it by the licence
    of its e-mail, unless the licence is connected to that server already."""
    client = create_app(vpn_hub.services).test_client()
    _, anna = call(client, "/api/create-user", sign_up(client))
    auth = {"Authorization": "Bearer token-nl-ams-1"}
    client.post("/api/node/heartbeat", json=BEAT, headers=auth)
    back = {"username": "anna@example.org", "protocol": "udp"}
    resumed = client.post("/api/node/resume", json=back, headers=auth)
    assert resumed.status_code == 200 and resumed.get_json()["admitted"] is True
    assert client.post("/api/node/established", json={"session": resumed.get_json()["session"]}, headers=auth)
    again = client.post("/api/node/resume", json=back, headers=auth)
    assert again.status_code == 403 and again.get_json()["reason"] == "in_use_here"
    owner = {"email": "anna@example.org", "activation_code": anna["user_code"]}
    assert [d["session"] for d in call(client, "/api/devices", owner)[1]["devices"]] == [
        resumed.get_json()["session"]
    ], "the live session stays"
    stranger = client.post("/api/node/resume", json={"username": "nobody@example.org"}, headers=auth)
    assert stranger.status_code == 403 and stranger.get_json()["reason"] == "bad_credentials"
    unknown = client.post("/api/node/resume", json=back, headers={"Authorization": "Bearer wrong"})
    assert unknown.status_code == 401


def _wireguard_peers(client: Any) -> list[str]:
    """The licences whose peers Amsterdam's node is told to have on its interface."""
    answer = client.get("/api/node/wireguard-peers", headers={"Authorization": "Bearer token-nl-ams-1"})
    return [peer["licence"] for peer in answer.get_json()["peers"]]


def _anna_on_wireguard_and_tcp(vpn_hub: Any, client: Any) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """Anna's WireGuard peer has shaken hands on Amsterdam and she is logged in on New York over
    TCP: her licence, the peer's session and the TCP login."""
    _, anna = call(client, "/api/create-user", sign_up(client))
    tcp = _log_in(client, "us-nyc-1", anna["user_code"], "tcp")
    vpn_hub.store.wireguard.claim(tcp["licence"], "nl-ams-1", "10.66.0.2")
    assert _wireguard_peers(client) == [tcp["licence"]]
    peer = {"session": "wg-session-1", "licence": tcp["licence"], "protocol": "wireguard"}
    beat = client.post(
        "/api/node/heartbeat",
        json={**BEAT, "connections": [peer]},
        headers={"Authorization": "Bearer token-nl-ams-1"},
    ).get_json()
    assert beat["end"] == []
    return anna, peer["session"], tcp


def test_a_disconnected_wireguard_device_stays_out_until_its_owner_connects_it_again(vpn_hub: Any) -> None:
    client = create_app(vpn_hub.services).test_client()
    anna, peer, tcp = _anna_on_wireguard_and_tcp(vpn_hub, client)
    owner = {"email": "anna@example.org", "activation_code": anna["user_code"]}
    _, listing = call(client, "/api/devices", owner)
    assert {(d["server"]["id"], d["protocol"]) for d in listing["devices"]} == {
        ("nl-ams-1", "wireguard"),
        ("us-nyc-1", "tcp"),
    }
    assert listing["held_out"] == []

    status, after = call(client, "/api/devices/disconnect", {**owner, "session": peer})
    assert status == 200 and after["in_use"] == 1
    assert after["held_out"] == [
        {"server": {"id": "nl-ams-1", "name": "Netherlands", "flag": "nl", "location": "Amsterdam"}}
    ]
    assert _wireguard_peers(client) == [], "the node takes the peer off and does not put it back"
    status, _ = call(client, "/api/devices/disconnect", {**owner, "session": tcp["session"]})
    assert status == 200 and _wireguard_peers(client) == [], "an OpenVPN disconnect holds nothing out"

    _, bob = call(client, "/api/create-user", sign_up(client, "bob@example.org"))
    stranger = {"email": "bob@example.org", "activation_code": bob["user_code"], "server": "nl-ams-1"}
    status, bobs = call(client, "/api/devices/connect-again", stranger)
    assert status == 200 and bobs["held_out"] == [] and _wireguard_peers(client) == [], "only its owner"
    status, refused = call(client, "/api/devices/connect-again", {**stranger, "activation_code": "1" * 20})
    assert status in (404, 422) and refused["code"] in ("licence_not_found", "validation_error")
    status, _ = call(client, "/api/devices/connect-again", {**owner, "server": "x" * 65})
    assert status == 422

    status, again = call(client, "/api/devices/connect-again", {**owner, "server": "nl-ams-1"})
    assert status == 200 and again["held_out"] == []
    assert _wireguard_peers(client) == [tcp["licence"]], "back on the node's list"
    status, same = call(client, "/api/devices/connect-again", {**owner, "server": "nl-ams-1"})
    assert status == 200 and same == again, "connecting a device that is not held out changes nothing"


def test_the_licence_form_connects_a_wireguard_device_again_without_javascript(vpn_hub: Any) -> None:
    client = create_app(vpn_hub.services).test_client()
    anna, peer, tcp = _anna_on_wireguard_and_tcp(vpn_hub, client)
    owner = {"email": "anna@example.org", "activation_code": anna["user_code"]}

    def post(**fields: str) -> str:
        response = client.post("/license", data={**owner, **fields}, headers={"Origin": ORIGIN})
        assert response.status_code == 200
        return response.get_data(as_text=True)

    page = post(disconnect=peer)
    assert re.findall(r'name="connect_again" value="([^"]*)"', page) == ["nl-ams-1"]
    assert "Your WireGuard app may still show it as on" in page and "1 of 10 devices connected" in page
    assert _wireguard_peers(client) == []
    page = post(connect_again="nl-ams-1")
    assert 'name="connect_again"' not in page and _wireguard_peers(client) == [tcp["licence"]]
