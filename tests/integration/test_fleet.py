"""The fleet on the status page is measured, never made up: heartbeats through the node API,
offline after three missed beats, pings the hub takes itself, and the demo fleet."""

from __future__ import annotations

import http.server
import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import requests
import waitress

from tests.integration.processes import free_port, vpnsite
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.texts.languages import LANGUAGES

BEAT = {"cpu_load": 37.4, "bandwidth_mbps": 120.5, "sessions": 12, "service_up": True}


def token_for(hub: Any, server_id: str) -> str:
    token = f"token-of-{server_id}"
    assert hub.store.fleet.set_token(
        server_id, hub.services.server_authentication.keys.read().nodes(token).current
    )
    return token


def beat(client: Any, token: str | None, body: Any = BEAT) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post("/api/node/heartbeat", json=body, headers=headers)


def server_entry(services: Any, client: Any, server_id: str) -> dict[str, Any]:
    services.snapshot.refresh()
    fleet = client.get("/api/server-status").get_json()
    return next(s for s in fleet["vpn_servers"] if s["id"] == server_id)


def test_a_heartbeat_brings_a_server_online_and_silence_takes_it_offline(
    hub: Any, services: Any, clock: Any
) -> None:
    client = create_app(services).test_client()
    assert server_entry(services, client, "lv-riga")["status"] == "offline"
    token = token_for(hub, "lv-riga")
    response = beat(client, token)
    assert response.status_code == 200 and response.get_json()["server"] == "lv-riga"
    riga = server_entry(services, client, "lv-riga")
    assert (riga["status"], riga["load"], riga["sessions"]) == ("online", "37%", 12)

    clock.advance(seconds=29)
    assert server_entry(services, client, "lv-riga")["status"] == "online"
    clock.advance(seconds=1)
    riga = server_entry(services, client, "lv-riga")
    assert (riga["status"], riga["load"], riga["sessions"]) == ("offline", "0%", 0)


def test_a_server_reporting_its_service_down_is_offline(hub: Any, services: Any) -> None:
    client = create_app(services).test_client()
    beat(client, token_for(hub, "pl-warsaw"), {**BEAT, "service_up": False})
    assert server_entry(services, client, "pl-warsaw")["status"] == "offline"


@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_the_node_api_wants_a_servers_token(hub: Any, services: Any, token: str | None) -> None:
    client = create_app(services).test_client()
    token_for(hub, "lv-riga")
    response = beat(client, token)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Bearer"
    assert response.get_json()["code"] == "node_unauthorized"


@pytest.mark.parametrize(
    "body, field",
    [
        ({**BEAT, "cpu_load": 140}, "cpu_load"),
        ({**BEAT, "cpu_load": "high"}, "cpu_load"),
        ({**BEAT, "sessions": -1}, "sessions"),
        ({**BEAT, "service_up": "yes"}, "service_up"),
        ({key: value for key, value in BEAT.items() if key != "sessions"}, "sessions"),
    ],
)
def test_a_malformed_heartbeat_is_refused_and_changes_nothing(
    hub: Any, services: Any, body: Any, field: str
) -> None:
    client = create_app(services).test_client()
    response = beat(client, token_for(hub, "lv-riga"), body)
    assert response.status_code == 422
    assert response.get_json()["detail"][0]["loc"] == ["body", field]
    assert server_entry(services, client, "lv-riga")["status"] == "offline"


def test_popularity_follows_the_share_of_sessions(hub: Any, services: Any) -> None:
    client = create_app(services).test_client()
    for server_id, sessions in (
        ("nl-amsterdam", 300),
        ("lv-riga", 150),
        ("pl-warsaw", 80),
        ("ch-zurich", 10),
    ):
        beat(client, token_for(hub, server_id), {**BEAT, "sessions": sessions})
    ranks = {
        sid: server_entry(services, client, sid)
        for sid in ("nl-amsterdam", "lv-riga", "pl-warsaw", "ch-zurich")
    }
    assert [ranks[sid]["rank"] for sid in ranks] == ["very_high", "high", "medium", "low"]
    assert ranks["nl-amsterdam"]["popularity"] == "very high"
    assert ranks["nl-amsterdam"]["popularity_ru"] == "очень высокая"
    assert ranks["ch-zurich"]["popularity_by_language"]["fr"] == "faible"
    # Every language the site speaks, in its own words: the spec's two fields are two of them.
    amsterdam = ranks["nl-amsterdam"]["popularity_by_language"]
    assert list(amsterdam) == list(LANGUAGES)
    assert (amsterdam["en"], amsterdam["ru"]) == ("very high", "очень высокая")


def test_the_hub_pings_servers_and_checks_billing(make_hub: Any) -> None:
    class Healthy(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    billing = http.server.HTTPServer(("127.0.0.1", 0), Healthy)
    threading.Thread(target=billing.serve_forever, daemon=True).start()
    listener = socket.create_server(("127.0.0.1", 0))
    try:
        hub = make_hub(billing_health_url=f"http://127.0.0.1:{billing.server_port}/health")
        services = hub.services
        client = create_app(services).test_client()
        hub.store.fleet.set_address("nl-amsterdam", "127.0.0.1", listener.getsockname()[1])
        hub.store.fleet.set_address("lv-riga", "127.0.0.1", free_port())
        beat(client, token_for(hub, "nl-amsterdam"))
        beat(client, token_for(hub, "lv-riga"))
        hub.jobs.probe.probe()
        assert server_entry(services, client, "nl-amsterdam")["ping"] is not None
        assert server_entry(services, client, "lv-riga")["ping"] is None, "nothing listens: no ping"
        system = {s["id"]: s for s in client.get("/api/server-status").get_json()["system_servers"]}
        assert system["billing"]["status"] == "online"
        assert system["hub-server"]["status"] == "online"
        billing.shutdown()
        billing.server_close()
        hub.jobs.probe.probe()
        services.snapshot.refresh()
        system = {s["id"]: s for s in client.get("/api/server-status").get_json()["system_servers"]}
        assert system["billing"]["status"] == "offline"
    finally:
        listener.close()


def test_billing_without_a_health_url_is_not_listed(services: Any) -> None:
    client = create_app(services).test_client()
    system = {s["id"]: s for s in client.get("/api/server-status").get_json()["system_servers"]}
    assert set(system) == {"activation-server", "hub-server"}, "what is not configured is not shown"
    assert system["hub-server"]["status"] == "offline", "no heartbeat has arrived"


@pytest.fixture
def served(services: Any) -> Iterator[str]:
    port = free_port()
    server = waitress.create_server(create_app(services), host="127.0.0.1", port=port, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.close()


def test_the_demo_fleet_goes_live_and_a_stopped_agent_goes_offline(
    hub: Any, services: Any, served: str, clock: Any
) -> None:
    demo = hub.jobs.start_demo(served, interval=0.2)
    try:
        deadline = time.monotonic() + 10
        while True:
            services.snapshot.refresh()
            fleet = requests.get(served + "/api/server-status").json()
            if fleet["summary"]["vpn_servers_online"] == 8:
                break
            assert time.monotonic() < deadline, fleet
            time.sleep(0.1)
        loads = {s["id"]: s["load"] for s in fleet["vpn_servers"]}

        def servers(field: str) -> dict[str, object]:
            services.snapshot.refresh()
            listed = requests.get(served + "/api/server-status").json()["vpn_servers"]
            return {s["id"]: s[field] for s in listed}

        deadline = time.monotonic() + 10
        while servers("load") == loads:
            assert time.monotonic() < deadline, "simulated load wanders"
            time.sleep(0.1)

        # The demo's servers listen on this machine, yet their pings read like pings: as far as
        # their cities are from a hub in London, and never quite the same twice.
        rounds = []
        for _ in range(3):
            hub.jobs.probe.probe()
            rounds.append(servers("ping"))
        for pings in rounds:
            assert all(isinstance(ping, int) and ping >= 5 for ping in pings.values()), pings
            ms = cast("dict[str, int]", pings)  # every value an int, as just asserted
            assert ms["nl-amsterdam"] < ms["lv-riga"] < ms["us-new-york"], pings
        assert len({tuple(pings.values()) for pings in rounds}) > 1, rounds

        demo.stop_agent("it-milan")
        clock.advance(seconds=31)
        deadline = time.monotonic() + 10
        expected = {server: "offline" if server == "it-milan" else "online" for server in loads}
        while (status := servers("status")) != expected:
            assert time.monotonic() < deadline, status
            time.sleep(0.1)
    finally:
        demo.stop()


def test_serve_demo_labels_itself_and_hands_out_profiles_of_every_server(
    tmp_path: Any, database_url: str
) -> None:
    port = free_port()
    env = {
        "VPNSITE_DATA_DIR": str(tmp_path / "d"),
        "VPNSITE_DATABASE_URL": database_url,
        "PATH": "/usr/bin",
        # The tree under test, when the tests run from it rather than from an installed package.
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "vpnsite_adapters.cli.main", "serve", "--demo", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                fleet = requests.get(f"http://127.0.0.1:{port}/api/server-status", timeout=1).json()
                if fleet["summary"]["vpn_servers_online"] == 8:
                    break
            except requests.ConnectionError:
                pass
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert fleet["summary"]["demo"] is True
        base = f"http://127.0.0.1:{port}"
        about = requests.get(base + "/about", timeout=5).text
        assert "Example VPN Ltd (demo)" in about, (
            "without VPNSITE_OPERATOR_* the demo names a fictitious operator"
        )
        form = requests.post(base + "/api/submit-email", json={"email": "demo@example.org"}).json()[
            "form_data"
        ]
        created = requests.post(
            base + "/api/create-user", json={"email": form.pop("user_email"), **form}
        ).json()
        archive = requests.get(created["activation_url"])
        with zipfile.ZipFile(io.BytesIO(archive.content)) as zipped:
            profiles = [name for name in zipped.namelist() if name.endswith(".ovpn")]
            amsterdam = zipped.read("nl-amsterdam-udp.ovpn").decode()
        assert len(profiles) == 16, "a UDP and a TCP profile for each of the eight demo servers"
        assert "remote nl-amsterdam.demo.invalid 1194" in amsterdam
        deadline = time.monotonic() + 30
        while not all(server["ping"] is not None for server in fleet["vpn_servers"]):
            assert time.monotonic() < deadline, "the hub pings the demo servers it cannot reach by name"
            time.sleep(0.5)
            fleet = requests.get(base + "/api/server-status", timeout=1).json()
    finally:
        process.terminate()
        output = process.communicate(timeout=15)[0]
    assert "DEMO" in output


def test_a_node_without_openvpn_reports_to_a_running_hub(
    server: Any, environment: dict[str, str], tmp_path: Path
) -> None:
    """`vpnsite node run` from a directory with no OpenVPN instance: just the agent (no root)."""
    from vpnsite_node.config import NodeConfig

    base, _log = server
    issued = vpnsite("node", "token", "ro-bucharest", env=environment)
    assert issued.returncode == 0, issued.stderr
    directory = tmp_path / "node"
    directory.mkdir()
    (directory / "node.json").write_text(
        NodeConfig("ro-bucharest", base, issued.stdout.strip(), (), None, "block").to_json()
    )
    agent = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "vpnsite_adapters.cli.main",
            "node",
            "run",
            "--dir",
            str(directory),
            "--no-nat",
            "--interval",
            "0.5",
        ],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            fleet = requests.get(base + "/api/server-status").json()
            bucharest = next(s for s in fleet["vpn_servers"] if s["id"] == "ro-bucharest")
            if bucharest["status"] == "online":
                break
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert json.loads(json.dumps(bucharest))["load"].endswith("%")
    finally:
        agent.terminate()
        agent.wait(timeout=10)
    assert vpnsite("node", "token", "atlantis", env=environment).returncode == 1
