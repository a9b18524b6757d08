"""A burst of wrong codes through the VPN login, as an attacker holding one server's token (or a
dozen) sends it, against two real `vpnsite serve` hubs sharing one database: at most ten wrong
codes a minute are judged for one address on one server and a hundred across the fleet, the rest
are refused for now with how long to wait, and the address's owner gets in once that wait is over
(the hubs' clock is moved rather than waited for)."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import pytest
import requests

from tests.integration.processes import free_port, vpnsite
from tests.integration.sql import execute_sql
from tests.support import moved_clock
from tests.support.serve import serve, signed_form, stop
from vpnsite.codes import luhn_check_digit
from vpnsite.vpn_login_limits import ACROSS_FLEET, PER_SERVER
from vpnsite_adapters.sql.store import SqlStore

SERVERS = [f"srv-{n}" for n in range(11)]  # 11 × 10 a minute: more than the fleet's 100
WHERE = ("--country", "nl", "--city", "Amsterdam", "--host", "vpn.example")
METRICS_TOKEN = "m" * 40
BURST = 300


class Fleet(NamedTuple):
    public: list[str]
    nodes: list[str]
    tokens: dict[str, str]
    clock: Path
    database_url: str


@pytest.fixture
def fleet(tmp_path: Path, database_url: str) -> Iterator[Fleet]:
    """Two hubs on one database, each answering servers on a listener of its own, and eleven
    servers the operator added."""
    clock = tmp_path / "clock"
    env = {
        **os.environ,
        "VPNSITE_DATA_DIR": str(tmp_path / "data"),
        "VPNSITE_DATABASE_URL": database_url,
        "VPNSITE_ACCESS_LOG": "false",
        "VPNSITE_METRICS_TOKEN": METRICS_TOKEN,
        moved_clock.VARIABLE: str(clock),
    }
    assert vpnsite("vpn", "init", env=env).returncode == 0
    tokens = {}
    for name in SERVERS:
        added = vpnsite("vpn", "add-server", name, *WHERE, env=env)
        assert added.returncode == 0, added.stderr
        tokens[name] = added.stdout.strip().splitlines()[-1]
    started, public, nodes = [], [], []
    try:
        for hub in range(2):
            node_port = free_port()
            served = serve(
                {**env, "VPNSITE_NODE_ADDRESS": f"127.0.0.1:{node_port}"},
                tmp_path / f"hub-{hub}.log",
                launcher=moved_clock.LAUNCHER,
            )
            started.append(served.process)
            public.append(served.base)
            nodes.append(f"http://127.0.0.1:{node_port}")
        yield Fleet(public, nodes, tokens, clock, database_url)
    finally:
        for process in started:
            stop(process)


def wrong(n: int) -> str:
    payload = f"{n:019d}"
    return payload + luhn_check_digit(payload)


def log_in(node: str, token: str, username: str, code: str) -> requests.Response:
    return requests.post(
        node + "/api/node/login",
        json={"username": username, "password": code, "protocol": "udp"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )


def burst(fleet: Fleet, servers: list[str], username: str) -> list[requests.Response]:
    """BURST wrong codes at once, the servers taking turns, through both hubs."""

    def one(n: int) -> requests.Response:
        server = servers[n % len(servers)]
        return log_in(fleet.nodes[n % 2], fleet.tokens[server], username, wrong(n))

    with ThreadPoolExecutor(16) as pool:
        return list(pool.map(one, range(BURST)))


def reasons(answers: list[requests.Response]) -> Counter[str]:
    return Counter(answer.json().get("reason", "admitted") for answer in answers)


def sign_up(base: str, email: str) -> str:
    created = requests.post(base + "/api/create-user", json=signed_form(base, email), timeout=10)
    assert created.status_code == 200, created.text
    return str(created.json()["user_code"])


def test_a_burst_of_wrong_codes_is_judged_within_the_ceilings_and_the_owner_gets_in(fleet: Fleet) -> None:
    anna = sign_up(fleet.public[0], "anna@example.org")
    bob = sign_up(fleet.public[1], "bob@example.org")

    on_one_server = burst(fleet, ["srv-0"], "bob@example.org")
    assert reasons(on_one_server) == {
        "bad_credentials": PER_SERVER.limit,
        "rate_limited": BURST - PER_SERVER.limit,
    }

    everywhere = burst(fleet, SERVERS, "Anna@Example.org")
    assert reasons(everywhere) == {
        "bad_credentials": ACROSS_FLEET.limit,
        "rate_limited": BURST - ACROSS_FLEET.limit,
    }
    for answer in everywhere:
        assert answer.status_code == 403
        if answer.json()["reason"] == "rate_limited":
            seconds = answer.json()["retry_after"]
            assert 1 <= seconds <= 60 and answer.headers["Retry-After"] == str(seconds)

    # The owner, on any server: refused for now (the code is not read), told how long to wait.
    owner = log_in(fleet.nodes[0], fleet.tokens["srv-3"], "anna@example.org", anna)
    assert owner.json()["reason"] == "rate_limited", owner.text
    assert log_in(fleet.nodes[1], fleet.tokens["srv-1"], "bob@example.org", bob).json()["admitted"], (
        "bob's own burst filled only srv-0's ceiling"
    )
    moved_clock.move(fleet.clock, owner.json()["retry_after"])
    admitted = log_in(fleet.nodes[1], fleet.tokens["srv-3"], "anna@example.org", anna)
    assert admitted.status_code == 200 and admitted.json()["admitted"], admitted.text

    scraped = requests.get(
        fleet.public[0] + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=10
    ).text
    counted = re.search(r'vpnsite_node_logins_total\{result="rate_limited"\} (\d+)', scraped)
    assert counted is not None and int(counted.group(1)) > 0, "each hub counts its own refusals"

    store = SqlStore.open(fleet.database_url)
    try:
        keys = [key for (key,) in execute_sql(store.db, "SELECT DISTINCT key FROM rate_event").fetchall()]
    finally:
        store.close()
    assert keys and not any(secret in key for key in keys for secret in ("anna", "bob", "srv-")), (
        "the counts are kept under keyed hashes, never an address or a server's name"
    )
