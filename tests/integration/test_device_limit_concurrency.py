"""The device limit under simultaneous logins, on both databases: one licence logging in on twenty
servers at the same moment gets exactly ten places, round after round, and connections a server
reports after the hub lost count of them are counted back under the same limit. And a heartbeat
cannot make a server hold, or count, what the hub never admitted on it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.api import sign_up
from vpnsite.fleet import Heartbeat, Location, silent_since
from vpnsite.notifications import Activation
from vpnsite.vpn_access import MAX_SESSIONS, SESSION_ID_BYTES, UNCONFIRMED_FOR, sealed_id
from vpnsite_adapters.bootstrap import Hub
from vpnsite_adapters.http.app import create_app

SERVERS = [f"srv-{n:02d}" for n in range(2 * MAX_SESSIONS)]
ROUNDS = 20


def token(server: str) -> str:
    return f"token-of-{server}"


@pytest.fixture
def racing_hub(make_hub: Any) -> Hub:
    """A hub with twenty servers that have just reported, and room in its pool for every racer."""
    hub: Hub = make_hub(rate_limits="off", db_pool_size=2 * len(SERVERS))
    services = hub.services
    with services.unit_of_work.atomic():
        for server in SERVERS:
            hub.store.fleet.add_server(
                Location(server, server, "nl", "Amsterdam"), f"{server}.example", 1194, None
            )
            hub.store.fleet.set_token(
                server, services.server_authentication.keys.read().nodes(token(server)).current
            )
    beat_all(hub)
    return hub


def beat_all(hub: Hub) -> None:
    with hub.services.unit_of_work.scope():
        for server in SERVERS:
            hub.services.fleet.heartbeat(server, Heartbeat(5.0, 1.0, 0, True))


def sign_up_anna(hub: Hub) -> Activation:
    signups = hub.services.signups
    with hub.services.unit_of_work.scope():
        return signups.create_user(signups.submit_email("anna@example.org", None, None), ip=None)


def race(actions: list[Callable[[], object]]) -> list[object]:
    """Run each action in a thread of its own, all released at the same moment, each in a unit
    of work of its own as a request would be."""
    barrier = threading.Barrier(len(actions))
    results: list[object] = [None] * len(actions)

    def run(n: int, action: Callable[[], object]) -> None:
        barrier.wait()
        try:
            results[n] = action()
        except Exception as error:
            results[n] = error

    threads = [threading.Thread(target=run, args=(n, action)) for n, action in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def logging_in(hub: Hub, server: str, code: str) -> Callable[[], object]:
    def attempt() -> object:
        with hub.services.unit_of_work.scope():
            return hub.services.node_access.log_in(server, "anna@example.org", code, "udp")

    return attempt


def reporting(hub: Hub, server: str, held: dict[str, str]) -> Callable[[], object]:
    def settle() -> object:
        with hub.services.unit_of_work.scope():
            return hub.services.node_access.settle(server, held, {})

    return settle


def counting(hub: Hub, licence_id: str) -> int:
    now = hub.services.clock.now()
    with hub.services.unit_of_work.scope():
        sessions = hub.store.sessions.sessions_of(licence_id, now - UNCONFIRMED_FOR, silent_since(now))
    return len({session.server_id for session in sessions})


def disconnect_all(hub: Hub, licence_id: str) -> None:
    with hub.services.unit_of_work.scope():
        hub.store.sessions.mark_ending(licence_id, None)
    assert counting(hub, licence_id) == 0


def test_twenty_simultaneous_logins_of_one_licence_get_exactly_ten_places(racing_hub: Hub) -> None:
    hub = racing_hub
    anna = sign_up_anna(hub)
    for round_ in range(ROUNDS):
        results = race([logging_in(hub, server, anna.code) for server in SERVERS])
        assert not [r for r in results if isinstance(r, Exception)], results
        admitted = [r for r in results if getattr(r, "refused", "") is None]
        refused = {getattr(r, "refused", None) for r in results if r not in admitted}
        assert len(admitted) == MAX_SESSIONS, f"round {round_}: {len(admitted)} admitted"
        assert refused == {"too_many_devices"}
        assert counting(hub, anna.licence.id) == MAX_SESSIONS, f"round {round_}"
        disconnect_all(hub, anna.licence.id)


def test_connections_counted_back_at_the_same_moment_stay_within_the_limit(racing_hub: Hub) -> None:
    """Twenty servers report a session the hub issued there (their rows lost, as with a restored
    backup) while the licence logs in elsewhere: never more than ten places."""
    hub = racing_hub
    anna = sign_up_anna(hub)
    keys = hub.services.node_access.keys
    for round_ in range(ROUNDS):
        nonce = f"{round_:0{2 * SESSION_ID_BYTES}x}"
        reports = [
            reporting(hub, server, {sealed_id(keys.current, server, anna.licence.id, nonce): anna.licence.id})
            for server in SERVERS
        ]
        results = race([*reports, logging_in(hub, SERVERS[0], anna.code)])
        assert not [r for r in results if isinstance(r, Exception)], results
        restored = [server for server, ended in zip(SERVERS, results, strict=False) if ended == []]
        assert len(restored) <= MAX_SESSIONS, f"round {round_}: {len(restored)} counted back"
        assert counting(hub, anna.licence.id) == MAX_SESSIONS, f"round {round_}"
        with hub.services.unit_of_work.scope():
            for server in SERVERS:
                hub.store.sessions.release(server, [s.id for s in hub.store.sessions.sessions_on(server)])


def test_a_heartbeat_cannot_hold_places_the_hub_never_gave(racing_hub: Hub) -> None:
    """A forged session id neither counts toward its licence's limit nor comes back; a WireGuard
    peer of a licence with no tunnel address on that server is ended."""
    hub = racing_hub
    client = create_app(hub.services).test_client()
    code = client.post("/api/create-user", json=sign_up(client)).get_json()["user_code"]
    owner = {"email": "anna@example.org", "activation_code": code}
    admitted = client.post(
        "/api/node/login",
        json={"username": "anna@example.org", "password": code, "protocol": "udp"},
        headers={"Authorization": f"Bearer {token(SERVERS[0])}"},
    ).get_json()
    licence = admitted["licence"]
    liar = {"Authorization": f"Bearer {token(SERVERS[1])}"}
    lies = [
        {"session": "0" * 56, "licence": licence, "protocol": "udp"},
        {"session": admitted["session"], "licence": licence, "protocol": "udp"},
        {"session": "1" * 24, "licence": licence, "protocol": "wireguard"},
    ]
    beat = {"cpu_load": 5, "bandwidth_mbps": 1, "sessions": 3, "service_up": True, "connections": lies}
    for _ in range(2):
        answer = client.post("/api/node/heartbeat", json=beat, headers=liar)
        assert answer.status_code == 200
        assert sorted(answer.get_json()["end"]) == sorted(lie["session"] for lie in lies)
        listing = client.post("/api/devices", json=owner).get_json()
        assert [d["session"] for d in listing["devices"]] == [admitted["session"]]
        assert listing["in_use"] == 1, "the liar holds none of anna's places"


def test_an_exit_network_wider_than_an_exit_is_refused_with_a_clear_error(racing_hub: Hub) -> None:
    client = create_app(racing_hub.services).test_client()
    auth = {"Authorization": f"Bearer {token(SERVERS[0])}"}
    beat = {"cpu_load": 5, "bandwidth_mbps": 1, "sessions": 0, "service_up": True}
    refused = client.post(
        "/api/node/heartbeat", json={**beat, "exit_addresses": ["0.0.0.0/0", "::/0"]}, headers=auth
    )
    assert refused.status_code == 422
    [problem] = refused.get_json()["detail"]
    assert problem["loc"] == ["body", "exit_addresses"] and problem["type"] == "value_error.network_too_wide"
    assert problem["msg"]
    kept = client.post("/api/node/heartbeat", json={**beat, "exit_addresses": ["198.51.100.7"]}, headers=auth)
    assert kept.status_code == 200
