"""Two hubs behind one balancer, on one database: two real `vpnsite serve` processes (each with
its node API process) sharing the database and the data directory, the calls of servers and
visitors going to either. The device limit and the rate limits stay exact across them: one licence
logging in on twenty servers at once gets exactly ten places, wrong codes for one address are
judged exactly up to their ceilings, and a website limit admits exactly its allowance, however the
calls are spread. On both databases: two processes can share one SQLite file as well as one
PostgreSQL."""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import requests

from tests.integration.processes import free_port
from tests.support.serve import serve, signed_form, stop
from vpnsite.fleet import Location
from vpnsite.server_tokens import issue_server_token
from vpnsite.vpn_access import MAX_SESSIONS
from vpnsite.vpn_login_limits import ACROSS_FLEET, PER_SERVER
from vpnsite_adapters.protection.keyring_file import file_keyring
from vpnsite_adapters.runtime.clock_and_random import SystemRandom
from vpnsite_adapters.settings import load_settings
from vpnsite_adapters.sql.store import SqlStore

SERVERS = [f"srv-{n:02d}" for n in range(2 * MAX_SESSIONS)]
ROUNDS = 3
# The website's limit on licence checks from one address (rate_limits.DEFAULT_RULES).
CHECKS_A_MINUTE = 10


class Hub(NamedTuple):
    public: str
    node: str


class TwoHubs(NamedTuple):
    hubs: tuple[Hub, Hub]
    # Each server's Authorization header, by its id.
    tokens: dict[str, dict[str, str]]


@pytest.fixture
def two_hubs(tmp_path: Path, database_url: str) -> Iterator[TwoHubs]:
    env = {
        **os.environ,
        "VPNSITE_DATA_DIR": str(tmp_path / "data"),
        "VPNSITE_DATABASE_URL": database_url,
        "VPNSITE_ACCESS_LOG": "false",
    }
    started = []
    hubs = []
    try:
        # One after the other: the first makes the schema and the key ring the second shares.
        for name in ("a", "b"):
            node_port = free_port()
            served = serve(
                {**env, "VPNSITE_NODE_ADDRESS": f"127.0.0.1:{node_port}"}, tmp_path / f"{name}.log"
            )
            started.append(served.process)
            hubs.append(Hub(served.base, f"http://127.0.0.1:{node_port}"))
        tokens = register_servers(env, database_url)
        for n, server in enumerate(SERVERS):
            beat(hubs[n % 2], tokens[server])
        yield TwoHubs((hubs[0], hubs[1]), tokens)
    finally:
        for process in started:
            stop(process)


def register_servers(env: dict[str, str], database_url: str) -> dict[str, dict[str, str]]:
    """The servers as `vpnsite vpn add-server` makes them: a row and a token."""
    settings = load_settings(environ=env, env_file=None)
    keys = file_keyring(settings.data_dir, settings.secret_key)
    store = SqlStore.open(database_url, max_connections=2, run_migrations=False)
    tokens = {}
    try:
        with store.unit_of_work.atomic():
            for server in SERVERS:
                assert store.fleet.add_server(
                    Location(server, server, "nl", "Amsterdam"), "127.0.0.1", 1194, None
                )
                token = issue_server_token(store.fleet, server, keys, SystemRandom())
                assert token is not None
                tokens[server] = {"Authorization": f"Bearer {token}"}
    finally:
        store.close()
    return tokens


def beat(hub: Hub, headers: dict[str, str]) -> None:
    body: dict[str, Any] = {
        "cpu_load": 5.0,
        "bandwidth_mbps": 1.0,
        "sessions": 0,
        "service_up": True,
        "connections": [],
    }
    response = requests.post(hub.node + "/api/node/heartbeat", json=body, headers=headers, timeout=30)
    assert response.status_code == 200, response.text


def at_once(calls: list[Callable[[], requests.Response]]) -> list[requests.Response]:
    """Every call in a thread of its own, all released at the same moment."""
    barrier = threading.Barrier(len(calls))
    answers: list[requests.Response | BaseException | None] = [None] * len(calls)

    def run(n: int) -> None:
        barrier.wait()
        try:
            answers[n] = calls[n]()
        except BaseException as error:  # noqa: BLE001 - said by the assertion below
            answers[n] = error

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(isinstance(answer, requests.Response) for answer in answers), answers
    return [answer for answer in answers if isinstance(answer, requests.Response)]


def logging_in(hub: Hub, headers: dict[str, str], email: str, code: str) -> Callable[[], requests.Response]:
    body = {"username": email, "password": code, "protocol": "udp"}
    return lambda: requests.post(hub.node + "/api/node/login", json=body, headers=headers, timeout=60)


def outcome(response: requests.Response) -> str:
    answer = response.json()
    return "admitted" if answer.get("admitted") else str(answer.get("reason"))


def sign_up(hub: Hub, email: str) -> str:
    created = requests.post(hub.public + "/api/create-user", json=signed_form(hub.public, email), timeout=30)
    assert created.status_code == 200, created.text
    return str(created.json()["user_code"])


def test_one_licence_logging_in_on_twenty_servers_through_both_hubs_gets_exactly_ten_places(
    two_hubs: TwoHubs,
) -> None:
    hubs, tokens = two_hubs
    code = sign_up(hubs[0], "anna@example.org")
    for round_ in range(ROUNDS):
        answers = at_once(
            [
                logging_in(hubs[n % 2], tokens[server], "anna@example.org", code)
                for n, server in enumerate(SERVERS)
            ]
        )
        outcomes = [outcome(answer) for answer in answers]
        assert Counter(outcomes) == {"admitted": MAX_SESSIONS, "too_many_devices": MAX_SESSIONS}, round_
        # Every device disconnects, each server telling the hub other than the one that admitted it.
        for n, (server, answer) in enumerate(zip(SERVERS, answers, strict=True)):
            if outcome(answer) == "admitted":
                ended = requests.post(
                    hubs[(n + 1) % 2].node + "/api/node/ended",
                    json={"session": answer.json()["session"]},
                    headers=tokens[server],
                    timeout=30,
                )
                assert ended.json() == {"known": True}


def test_wrong_codes_spread_over_both_hubs_are_judged_exactly_up_to_each_ceiling(two_hubs: TwoHubs) -> None:
    hubs, tokens = two_hubs
    one_server = tokens[SERVERS[0]]
    calls = 2 * PER_SERVER.limit
    answers = at_once(
        [logging_in(hubs[n % 2], one_server, "bob@example.org", "0" * 16) for n in range(calls)]
    )
    assert Counter(outcome(answer) for answer in answers) == {
        "bad_credentials": PER_SERVER.limit,
        "rate_limited": calls - PER_SERVER.limit,
    }
    # Over twenty servers, each kept under its own ceiling: the fleet's ceiling is the one met.
    calls = ACROSS_FLEET.limit + ACROSS_FLEET.limit // 2
    spread = [tokens[SERVERS[n % len(SERVERS)]] for n in range(calls)]
    answers = at_once(
        [logging_in(hubs[n % 2], headers, "carol@example.org", "0" * 16) for n, headers in enumerate(spread)]
    )
    assert Counter(outcome(answer) for answer in answers) == {
        "bad_credentials": ACROSS_FLEET.limit,
        "rate_limited": calls - ACROSS_FLEET.limit,
    }


def test_licence_checks_from_one_address_through_both_hubs_get_exactly_the_allowance(
    two_hubs: TwoHubs,
) -> None:
    hubs, _ = two_hubs
    code = sign_up(hubs[1], "dana@example.org")
    body = {"email": "dana@example.org", "activation_code": code}
    calls = 2 * CHECKS_A_MINUTE

    def checking(hub: Hub) -> Callable[[], requests.Response]:
        return lambda: requests.post(hub.public + "/api/check-license", json=body, timeout=60)

    answers = at_once([checking(hubs[n % 2]) for n in range(calls)])
    assert Counter(answer.status_code for answer in answers) == {
        200: CHECKS_A_MINUTE,
        429: calls - CHECKS_A_MINUTE,
    }
