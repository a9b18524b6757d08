"""VPN provisioning against the real store and, where installed, the real openvpn binary."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.support.api import sign_up
from vpnsite.fleet import Location
from vpnsite_adapters.http.api.archive import SITE
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.vpn.keystore import initialise
from vpnsite_adapters.vpn.pki import CLIENT_KEY_PEM, TlsCryptV2ServerKey, licence_of_metadata, read_pem_block


@pytest.fixture
def vpn_hub(make_hub: Any, tmp_path: Path) -> Any:
    initialise(tmp_path / "data")
    hub = make_hub(rate_limits="archive:ip=3/10m")
    for name, host in (("nl-ams-1", "203.0.113.10"), ("us-nyc-1", "203.0.113.20")):
        hub.store.fleet.add_server(Location(name, "Netherlands", "nl", "Amsterdam"), host, 1194, 443)
    return hub


@pytest.fixture
def vpn_services(vpn_hub: Any) -> Any:
    return vpn_hub.services


def test_the_archive_holds_a_personal_profile_per_server_and_protocol(vpn_services: Any) -> None:
    app = create_app(vpn_services)
    client = app.test_client()
    payload = sign_up(client)
    activation = client.post("/api/create-user", json=payload, headers={"Accept-Language": "ru"}).get_json()
    response = client.get(activation["activation_url"].replace("http://localhost", ""))
    assert response.status_code == 200
    assert response.mimetype == "application/zip"
    assert response.headers["Cache-Control"] == "no-store"
    with zipfile.ZipFile(io.BytesIO(response.data)) as zipped:
        names = set(zipped.namelist())
        profile = zipped.read("nl-ams-1-udp.ovpn").decode()
        tcp = zipped.read("us-nyc-1-tcp.ovpn").decode()
        readme = zipped.read("README.txt").decode()
    # The device rule in the site's words for the fleet it lists (issue 39).
    rule = app.extensions[SITE].device_rows.limit_texts("en", vpn_services.snapshot.servers)["DEVICE_RULE"]
    assert f"{rule} Connecting a second device" in readme, "the archive's README gives the device rule"
    assert {
        "nl-ams-1-udp.ovpn",
        "nl-ams-1-tcp.ovpn",
        "us-nyc-1-udp.ovpn",
        "us-nyc-1-tcp.ovpn",
        "README.txt",
    } <= names
    assert "remote 203.0.113.10 1194" in profile and "proto udp" in profile
    assert "remote 203.0.113.20 443" in tcp and "proto tcp-client" in tcp
    for setting in (
        "remote-cert-tls server",
        "verify-x509-name nl-ams-1 name",
        "auth-user-pass",
        "data-ciphers AES-256-GCM:CHACHA20-POLY1305",
        "tls-version-min 1.2",
        "<ca>",
        "<tls-crypt-v2>",
    ):
        assert setting in profile, setting
    assert activation["user_code"] not in profile, "a profile holds no login secret"
    # The app keeps what was typed while connected, so a renegotiation needs no typing again.
    assert "auth-nocache" not in profile
    assert "comp-lzo" not in profile and "compress" not in profile


def test_the_archive_link_lasts_a_week_dies_with_the_licence_and_is_rate_limited(
    vpn_services: Any, clock: Any
) -> None:
    client = create_app(vpn_services).test_client()
    created = client.post("/api/create-user", json=sign_up(client)).get_json()
    link = created["activation_url"].replace("http://localhost", "")
    assert client.get(link).status_code == 200
    assert client.get("/api/config/not-a-token").status_code == 404
    assert client.get(link).status_code == 200
    limited = client.get(link)
    assert limited.status_code == 429 and "Retry-After" in limited.headers
    clock.advance(days=7)
    assert client.get(link).status_code == 404, "a week on, the link is dead"
    checked = client.post(
        "/api/check-license", json={"email": created["user_email"], "activation_code": created["user_code"]}
    ).get_json()["license"]
    fresh = checked["configUrl"].replace("http://localhost", "")
    assert client.get(fresh).status_code == 200, "checking the licence gives a fresh one"
    clock.advance(days=84)
    assert client.get(fresh).status_code == 404, "and none outlives the licence"


def test_every_licence_gets_its_own_key_with_its_id_inside(vpn_services: Any) -> None:
    keys = vpn_services.vpn_keys
    first, second = keys.client_key_pem("licence-1"), keys.client_key_pem("licence-2")
    assert first != second and keys.client_key_pem("licence-1") == first
    _, metadata = keys.server_key.unwrap_client_key(first)
    assert licence_of_metadata(metadata) == "licence-1"
    tampered = first.replace(first.splitlines()[3], first.splitlines()[3][::-1])
    with pytest.raises(ValueError):
        keys.server_key.unwrap_client_key(tampered)


@pytest.mark.skipif(
    shutil.which("openvpn") is None and os.environ.get("CI") != "true", reason="openvpn is not installed"
)
def test_the_wrapping_is_byte_for_byte_what_openvpn_makes(tmp_path: Path) -> None:
    subprocess.run(
        ["openvpn", "--genkey", "tls-crypt-v2-server", str(tmp_path / "s.key")],
        check=True,
        capture_output=True,
    )
    metadata = "bGljZW5jZTphYmM="  # base64 of "licence:abc"
    subprocess.run(
        [
            "openvpn",
            "--tls-crypt-v2",
            str(tmp_path / "s.key"),
            "--genkey",
            "tls-crypt-v2-client",
            str(tmp_path / "c.key"),
            metadata,
        ],
        check=True,
        capture_output=True,
    )
    server = TlsCryptV2ServerKey.parse((tmp_path / "s.key").read_text())
    theirs = (tmp_path / "c.key").read_text()
    client_key, found = server.unwrap_client_key(theirs)
    assert licence_of_metadata(found) == "abc"
    assert read_pem_block(CLIENT_KEY_PEM, server.wrap_client_key(client_key, found)) == read_pem_block(
        CLIENT_KEY_PEM, theirs
    )


def test_node_login_checks_the_token_and_the_credentials(vpn_hub: Any, vpn_services: Any, clock: Any) -> None:
    client = create_app(vpn_services).test_client()
    code = client.post("/api/create-user", json=sign_up(client)).get_json()["user_code"]
    token = "token-of-nl-ams-1"
    vpn_hub.store.fleet.set_token(
        "nl-ams-1", vpn_services.server_authentication.keys.read().nodes(token).current
    )
    beat = {"cpu_load": 5, "bandwidth_mbps": 1, "sessions": 0, "service_up": True}
    auth = {"Authorization": f"Bearer {token}"}
    client.post("/api/node/heartbeat", json=beat, headers=auth)
    login = {"username": "ANNA@example.org", "password": code}
    assert client.post("/api/node/login", json=login).status_code == 401
    assert (
        client.post("/api/node/login", json=login, headers={"Authorization": "Bearer nope"}).status_code
        == 401
    )
    first = client.post("/api/node/login", json=login, headers=auth).get_json()
    assert first["admitted"] is True and first["session"] and first["licence"]
    established = client.post("/api/node/established", json={"session": first["session"]}, headers=auth)
    assert established.get_json() == {"known": True}
    again = client.post("/api/node/login", json=login, headers=auth).get_json()
    assert again["admitted"] is True and again["session"] != first["session"], "the newest login wins"
    stale = client.post("/api/node/ended", json={"session": first["session"]}, headers=auth)
    assert stale.get_json() == {"known": False}, "a replaced session's goodbye frees nothing"
    both = [
        {"session": first["session"], "licence": first["licence"]},
        {"session": again["session"], "licence": again["licence"]},
    ]
    settled = client.post("/api/node/heartbeat", json={**beat, "connections": both}, headers=auth)
    assert settled.get_json()["end"] == [first["session"]], "the server cuts the replaced connection"
    assert client.post("/api/node/ended", json={"session": again["session"]}, headers=auth).get_json() == {
        "known": True
    }
    wrong = client.post("/api/node/login", json={**login, "password": "0" * 20}, headers=auth)
    assert wrong.status_code == 403 and wrong.get_json()["reason"] == "bad_credentials"
    clock.advance(days=91)
    client.post("/api/node/heartbeat", json=beat, headers=auth)
    ended = client.post("/api/node/login", json=login, headers=auth)
    assert ended.status_code == 403 and ended.get_json()["reason"] == "ended"
    held = [{"session": again["session"], "licence": again["licence"]}]
    cut = client.post("/api/node/heartbeat", json={**beat, "connections": held}, headers=auth)
    assert cut.get_json()["end"] == [again["session"]], "an ended licence's live tunnel is cut"


def test_a_silent_server_loses_its_sessions_until_it_reports_them(
    vpn_hub: Any, vpn_services: Any, clock: Any
) -> None:
    client = create_app(vpn_services).test_client()
    code = client.post("/api/create-user", json=sign_up(client)).get_json()["user_code"]
    tokens = {"nl-ams-1": "token-a", "us-nyc-1": "token-b"}
    for server, token in tokens.items():
        vpn_hub.store.fleet.set_token(
            server, vpn_services.server_authentication.keys.read().nodes(token).current
        )
    auth = {server: {"Authorization": f"Bearer {token}"} for server, token in tokens.items()}
    beat = {"cpu_load": 5, "bandwidth_mbps": 1, "sessions": 1, "service_up": True}
    for server in tokens:
        client.post("/api/node/heartbeat", json=beat, headers=auth[server])
    login = {"username": "anna@example.org", "password": code}
    admitted = client.post("/api/node/login", json=login, headers=auth["nl-ams-1"]).get_json()
    client.post("/api/node/established", json={"session": admitted["session"]}, headers=auth["nl-ams-1"])
    sessions = vpn_hub.store.sessions
    assert len(sessions.sessions_on("nl-ams-1")) == 1
    clock.advance(seconds=31)
    client.post("/api/node/heartbeat", json=beat, headers=auth["us-nyc-1"])
    held = [{"session": admitted["session"], "licence": admitted["licence"]}]
    back = client.post("/api/node/heartbeat", json={**beat, "connections": held}, headers=auth["nl-ams-1"])
    assert back.get_json()["end"] == [], "a tunnel that outlived a silence is kept"
    assert [s.id for s in sessions.sessions_on("nl-ams-1")] == [admitted["session"]], "and counted again"
    gone = client.post("/api/node/heartbeat", json={**beat, "connections": []}, headers=auth["nl-ams-1"])
    assert gone.get_json()["end"] == [] and sessions.sessions_on("nl-ams-1") == []


def test_a_heartbeat_may_list_thousands_of_connections(vpn_hub: Any, vpn_services: Any) -> None:
    client = create_app(vpn_services).test_client()
    vpn_hub.store.fleet.set_token(
        "nl-ams-1", vpn_services.server_authentication.keys.read().nodes("token-a").current
    )
    many = [{"session": f"{n:024x}", "licence": f"gone-{n}"} for n in range(5000)]
    body = {"cpu_load": 5, "bandwidth_mbps": 1, "sessions": 5000, "service_up": True, "connections": many}
    answer = client.post("/api/node/heartbeat", json=body, headers={"Authorization": "Bearer token-a"})
    assert answer.status_code == 200 and len(answer.get_json()["end"]) == 5000
