"""`vpnsite` as an operator runs it: a real `vpnsite serve` process walked over HTTP."""

from __future__ import annotations

import http.client
import time
from pathlib import Path

import requests

from tests.integration.processes import vpnsite
from vpnsite_adapters.sql.migrations import MIGRATIONS


def test_the_whole_flow_against_a_running_server(server: tuple[str, Path]) -> None:
    base, log = server
    before = requests.get(base + "/api/user-count").json()["user_count"]
    form = requests.post(base + "/api/submit-email", json={"email": "walk@example.org"}).json()["form_data"]
    payload = {"email": form.pop("user_email"), **form}
    created = requests.post(base + "/api/create-user", json=payload)
    assert created.status_code == 200
    code = created.json()["user_code"]

    checked = requests.post(
        base + "/api/check-license", json={"email": "walk@example.org", "activation_code": code}
    )
    assert checked.status_code == 200 and checked.json()["license"]["days"] == 90

    replay = requests.post(base + "/api/create-user", json=payload)
    assert replay.status_code == 400 and "already been used" in replay.json()["detail"]

    tampered = requests.post(base + "/api/submit-email", json={"email": "walk2@example.org"}).json()[
        "form_data"
    ]
    tampered = {"email": tampered.pop("user_email"), **tampered, "user_days": 9999}
    assert requests.post(base + "/api/create-user", json=tampered).status_code == 403

    deadline = time.monotonic() + 5
    while requests.get(base + "/api/user-count").json()["user_count"] != before + 1:
        assert time.monotonic() < deadline, "the user count did not go up within the snapshot period"
        time.sleep(0.2)

    statuses = [
        requests.post(
            base + "/api/check-license", json={"email": "walk@example.org", "activation_code": code}
        ).status_code
        for _ in range(10)
    ]
    assert statuses[-1] == 429 and statuses.count(200) == 9

    logged = log.read_text()
    assert code not in logged and "walk@example.org" not in logged


def test_polling_with_an_etag_keeps_one_connection(server: tuple[str, Path]) -> None:
    """Every open page polls with If-None-Match and mostly hears 304: each answer must leave the
    connection open for the next poll."""
    base, _ = server
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.request("GET", "/api/user-count")
    first = connection.getresponse()
    first.read()
    etag = first.getheader("ETag")
    assert etag is not None
    socket = connection.sock
    for _ in range(3):
        connection.request("GET", "/api/user-count", headers={"If-None-Match": etag})
        answer = connection.getresponse()
        assert answer.status == 304 and answer.read() == b""
        assert answer.getheader("Connection") is None and answer.getheader("ETag") == etag
        assert connection.sock is socket, "the server kept the connection open"
    connection.close()


def test_migrate_and_retention_from_the_command_line(environment: dict[str, str]) -> None:
    migrated = vpnsite("migrate", env=environment)
    assert migrated.returncode == 0, migrated.stderr
    assert f"applied {[version for version, _, _ in MIGRATIONS]}" in migrated.stdout
    assert "up to date" in vpnsite("migrate", env=environment).stdout
    retention = vpnsite("retention", "run", env=environment)
    assert retention.returncode == 0, retention.stderr
    assert '"licences_anonymised": 0' in retention.stdout


def test_a_bad_setting_stops_the_command_with_a_clear_message(environment: dict[str, str]) -> None:
    result = vpnsite("serve", env={**environment, "VPNSITE_SECRET_KEY": "changeme"})
    assert result.returncode == 2
    assert "VPNSITE_SECRET_KEY" in result.stderr and "Traceback" not in result.stderr
