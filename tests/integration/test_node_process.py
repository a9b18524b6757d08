"""With VPNSITE_NODE_ADDRESS the node API runs in a process of its own, which `vpnsite serve`
starts, starts again when it dies and stops with itself: a website held up — however hard — holds
no VPN login up. Through a real `vpnsite serve`, on both databases."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import pytest
import requests

from tests.integration.processes import free_port, vpnsite
from tests.support.serve import serve, signed_form, stop

WHERE = ("--country", "nl", "--city", "Amsterdam", "--host", "vpn.example")


class Hub(NamedTuple):
    public: str
    node: str
    token: str
    process: subprocess.Popen[bytes]


@pytest.fixture
def hub(tmp_path: Path, database_url: str) -> Iterator[Hub]:
    env = {
        **os.environ,
        "VPNSITE_DATA_DIR": str(tmp_path / "data"),
        "VPNSITE_DATABASE_URL": database_url,
        "VPNSITE_ACCESS_LOG": "false",
        "VPNSITE_METRICS_TOKEN": "m" * 40,
    }
    assert vpnsite("vpn", "init", env=env).returncode == 0
    added = vpnsite("vpn", "add-server", "nl-ams-1", *WHERE, env=env)
    assert added.returncode == 0, added.stderr
    node_port = free_port()
    served = serve({**env, "VPNSITE_NODE_ADDRESS": f"127.0.0.1:{node_port}"}, tmp_path / "serve.log")
    token = added.stdout.strip().splitlines()[-1]
    try:
        yield Hub(served.base, f"http://127.0.0.1:{node_port}", token, served.process)
    finally:
        stop(served.process)


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # The command's name is in parentheses and may hold spaces: the parent follows it.
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def log_in(hub: Hub, email: str, code: str) -> requests.Response:
    return requests.post(
        hub.node + "/api/node/login",
        json={"username": email, "password": code, "protocol": "udp"},
        headers={"Authorization": f"Bearer {hub.token}"},
        timeout=30,
    )


def sign_up(hub: Hub, email: str) -> str:
    created = requests.post(hub.public + "/api/create-user", json=signed_form(hub.public, email), timeout=10)
    assert created.status_code == 200, created.text
    return str(created.json()["user_code"])


def test_logins_are_answered_while_the_websites_process_is_frozen(hub: Hub) -> None:
    """The strongest flood there is: the website's process gets no CPU at all (SIGSTOP). Logins
    still come and go, and the website answers again once it runs."""
    code = sign_up(hub, "anna@example.org")
    assert log_in(hub, "anna@example.org", code).json()["admitted"]
    hub.process.send_signal(signal.SIGSTOP)
    try:
        admitted = log_in(hub, "anna@example.org", code)
        assert admitted.status_code == 200 and admitted.json()["admitted"], admitted.text
        refused = log_in(hub, "anna@example.org", "0" * 20)
        assert refused.status_code == 403 and refused.json()["reason"] == "bad_credentials"
        with pytest.raises(requests.Timeout):
            requests.get(hub.public + "/api/user-count", timeout=1)
    finally:
        hub.process.send_signal(signal.SIGCONT)
    assert requests.get(hub.public + "/api/user-count", timeout=30).status_code == 200


def test_logins_are_answered_while_the_website_is_flooded(hub: Hub) -> None:
    code = sign_up(hub, "bob@example.org")
    stop_flood = time.monotonic() + 5

    def flood(_: int) -> int:
        answered = 0
        with requests.Session() as session:
            while time.monotonic() < stop_flood:
                session.get(hub.public + "/api/server-status", timeout=30)
                answered += 1
        return answered

    with ThreadPoolExecutor(16) as pool:
        flooding = pool.map(flood, range(16))
        logins = [log_in(hub, "bob@example.org", code) for _ in range(20)]
        assert sum(flooding) > 0
    assert all(login.status_code == 200 and login.json()["admitted"] for login in logins)


def test_the_node_process_is_started_again_when_it_dies_and_stops_with_the_hub(hub: Hub) -> None:
    code = sign_up(hub, "carla@example.org")
    (first,) = children(hub.process.pid)
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while True:
        try:
            if log_in(hub, "carla@example.org", code).json()["admitted"]:
                break
        except requests.ConnectionError:
            pass
        assert time.monotonic() < deadline, "the node API did not come back"
        time.sleep(0.2)
    (second,) = children(hub.process.pid)
    assert second != first

    scraped = requests.get(
        hub.public + "/metrics", headers={"Authorization": "Bearer " + "m" * 40}, timeout=10
    ).text
    assert 'vpnsite_node_logins_total{result="admitted"} 1.0' in scraped, "the new process's own login"
    assert scraped.count("# TYPE vpnsite_node_logins_total counter") == 1

    hub.process.send_signal(signal.SIGTERM)
    assert hub.process.wait(timeout=60) == 0
    assert not Path(f"/proc/{second}").exists(), "the hub waited for its node process to end"
