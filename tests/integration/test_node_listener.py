"""VPN servers call the hub on a listener of their own (VPNSITE_NODE_ADDRESS), and no listener
reads a body it will refuse: through a real `vpnsite serve` and raw sockets, as a server, a visitor
and an attacker meet it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import attrs
import pytest
import requests

from tests.integration.processes import free_port, vpnsite
from tests.support.serve import serve, stop
from vpnsite.keyed_hashes import Keyring, RingKeys
from vpnsite_adapters.http.node.gate import FAILED_TOKENS, HEARTBEAT_BODY_BYTES, NodeGate

BEAT = {"cpu_load": 5, "bandwidth_mbps": 1, "sessions": 0, "service_up": True}
WHERE = ("--country", "nl", "--city", "Amsterdam", "--display-name", "Netherlands", "--host", "vpn.example")


class Hub(NamedTuple):
    public: str
    node: str
    token: str
    env: dict[str, str]
    process: subprocess.Popen[bytes]


def add_server(env: dict[str, str], name: str) -> str:
    added = vpnsite("vpn", "add-server", name, *WHERE, env=env)
    assert added.returncode == 0, added.stderr
    return added.stdout.strip().splitlines()[-1]


def start(tmp_path: Path, **settings: str) -> tuple[Any, dict[str, str], str]:
    env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp_path / "data"), "VPNSITE_ACCESS_LOG": "false"}
    env.update({f"VPNSITE_{key.upper()}": value for key, value in settings.items()})
    assert vpnsite("vpn", "init", env=env).returncode == 0
    token = add_server(env, "nl-ams-1")
    return serve(env, tmp_path / "serve.log"), env, token


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    """`vpnsite serve` with the node API on a listener of its own."""
    node_port = free_port()
    served, env, token = start(tmp_path, node_address=f"127.0.0.1:{node_port}")
    try:
        yield Hub(served.base, f"http://127.0.0.1:{node_port}", token, env, served.process)
    finally:
        stop(served.process)


@pytest.fixture
def one_listener(tmp_path: Path) -> Iterator[Hub]:
    """`vpnsite serve` as before: the node API on the public listener."""
    served, env, token = start(tmp_path)
    try:
        yield Hub(served.base, served.base, token, env, served.process)
    finally:
        stop(served.process)


def heartbeat(base: str, token: str, connections: int = 0) -> requests.Response:
    body: Mapping[str, int | list[dict[str, str]]] = (
        {**BEAT, "connections": connection_list(connections)} if connections else BEAT
    )
    headers = {"Authorization": f"Bearer {token}"}
    return requests.post(f"{base}/api/node/heartbeat", json=body, headers=headers, timeout=30)


def connection_list(count: int) -> list[dict[str, str]]:
    return [{"session": f"{n:024x}", "licence": f"L{n:09d}", "protocol": "udp"} for n in range(count)]


def answer_to_headers(base: str, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], Any]:
    """Send a request's headers only — its body announced, never sent — and read the answer."""
    with send_headers(base, path, headers) as connection:
        return read_answer(connection)


def send_headers(base: str, path: str, headers: dict[str, str]) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    lines = [f"POST {path} HTTP/1.1", f"Host: {host}", *(f"{k}: {v}" for k, v in headers.items())]
    connection = socket.create_connection((host, int(port)), timeout=10)
    connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    return connection


def read_answer(connection: socket.socket) -> tuple[int, dict[str, str], Any]:
    raw = b""
    while b"\r\n\r\n" not in raw:
        chunk = connection.recv(65536)
        assert chunk, f"the connection closed without an answer: {raw!r}"
        raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode().split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in header_lines)}
    while len(body) < int(headers.get("content-length", "0")):
        chunk = connection.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(status_line.split()[1]), headers, json.loads(body) if body else None


def test_servers_call_on_their_own_listener_which_serves_nothing_else(hub: Hub) -> None:
    assert heartbeat(hub.node, hub.token).status_code == 200
    public = heartbeat(hub.public, hub.token)
    assert public.status_code == 404, "the node API is not on the public listener"
    assert public.json()["code"] == "not_found"
    for path in ("/", "/api/user-count", "/api/openapi.json"):
        assert requests.get(hub.node + path, timeout=10).status_code == 404, path
        assert requests.get(hub.public + path, timeout=10).status_code == 200, path
    assert requests.get(hub.node + "/readyz", timeout=10).status_code == 404


def test_a_busy_server_sends_its_whole_heartbeat_to_its_listener(hub: Hub) -> None:
    """Thousands of connections (the sessions are unknown to the hub, so it says to end them)."""
    beat = heartbeat(hub.node, hub.token, connections=20_000)
    assert beat.status_code == 200, beat.text
    assert len(beat.json()["end"]) == 20_000


def test_a_token_the_hub_does_not_know_is_refused_before_its_body_is_read(hub: Hub) -> None:
    announced = {"Content-Type": "application/json", "Content-Length": str(4_000_000)}
    status, headers, body = answer_to_headers(
        hub.node, "/api/node/heartbeat", {**announced, "Authorization": "Bearer not-a-token"}
    )
    assert (status, body["code"]) == (401, "node_unauthorized")
    assert headers["www-authenticate"] == "Bearer"
    status, _, body = answer_to_headers(hub.node, "/api/node/heartbeat", announced)
    assert (status, body["code"]) == (401, "node_unauthorized"), "no token at all"


def test_a_known_token_may_announce_a_heartbeats_size(hub: Hub) -> None:
    """The same announcement with the server's token is waited for, not refused."""
    host, port = hub.node.removeprefix("http://").split(":")
    body = json.dumps({**BEAT, "connections": connection_list(5_000)}).encode()
    head = (
        f"POST /api/node/heartbeat HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {hub.token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(head.encode())
        connection.settimeout(0.5)
        with pytest.raises(TimeoutError):
            connection.recv(1)
        connection.settimeout(10)
        connection.sendall(body)
        status, _, answer = read_answer(connection)
    assert status == 200 and answer["success"] is True


def test_an_address_whose_tokens_keep_failing_is_turned_away_but_a_server_there_is_not(hub: Hub) -> None:
    bad = {"Authorization": "Bearer guess", "Content-Type": "application/json"}
    statuses = [
        requests.post(hub.node + "/api/node/login", json={}, headers=bad, timeout=10).status_code
        for _ in range(10)
    ]
    assert statuses == [401] * 10
    refused = requests.post(hub.node + "/api/node/login", json={}, headers=bad, timeout=10)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert heartbeat(hub.node, hub.token).status_code == 200, "the server's own token still works"
    assert requests.get(hub.public + "/api/user-count", timeout=10).status_code == 200


def test_a_server_added_while_the_hub_runs_is_heard_even_with_a_heartbeats_size(hub: Hub) -> None:
    token = add_server(hub.env, "nl-ams-2")
    deadline = time.monotonic() + 30
    while (beat := heartbeat(hub.node, token, connections=1_000)).status_code != 200:
        assert beat.status_code == 401 and time.monotonic() < deadline, beat.text
        time.sleep(1)


def test_the_public_listener_cuts_a_large_body_off_while_reading_it(hub: Hub) -> None:
    status, _, body = answer_to_headers(
        hub.public,
        "/api/submit-email",
        {"Content-Type": "application/json", "Content-Length": str(5 * 1024 * 1024)},
    )
    assert (status, body["code"]) == (413, "payload_too_large")
    host, port = hub.public.removeprefix("http://").split(":")
    head = (
        f"POST /api/submit-email HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\n"
        "Content-Type: application/json\r\nAccept-Language: ru\r\n\r\n"
    )
    chunk = b"%x\r\n%s\r\n" % (16 * 1024, b" " * 16 * 1024)
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(head.encode())
        sent = 0
        with pytest.raises(OSError):  # the listener stops reading, answers and closes
            while sent < 5 * 1024 * 1024:
                connection.sendall(chunk)
                sent += 16 * 1024
                time.sleep(0.001)
        assert sent <= 256 * 1024, f"{sent} bytes were read before the refusal"
        status, _, body = read_answer(connection)
    assert (status, body["code"]) == (413, "payload_too_large")
    assert "64" in body["detail"] and "КБ" in body["detail"], "in the visitor's language"


def test_one_listener_still_takes_heartbeats_but_not_large_bodies_from_visitors(one_listener: Hub) -> None:
    assert heartbeat(one_listener.public, one_listener.token, connections=5_000).status_code == 200
    status, _, body = answer_to_headers(
        one_listener.public,
        "/api/submit-email",
        {"Content-Type": "application/json", "Content-Length": str(1024 * 1024)},
    )
    assert (status, body["code"]) == (413, "payload_too_large")


def test_both_listeners_stop_on_sigterm(hub: Hub) -> None:
    hub.process.send_signal(signal.SIGTERM)
    assert hub.process.wait(timeout=30) == 0
    assert not _listening(hub.public) and not _listening(hub.node)


def _listening(base: str) -> bool:
    host, port = base.removeprefix("http://").split(":")
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
    except OSError:
        return False
    return True


def test_an_address_turned_away_may_try_again_once_its_failures_are_a_minute_old() -> None:
    now = [1000.0]
    keys = Keyring.of(RingKeys.of({1: b"k" * 32}, 1))
    gate = NodeGate(keys, lambda: [keys.read().nodes("good").current.value], lambda: now[0])
    for _ in range(FAILED_TOKENS):
        assert gate.verdict("Bearer bad", "198.51.100.7").status is None
        gate.failed("198.51.100.7")
        now[0] += 1
    refused = gate.verdict("Bearer bad", "198.51.100.7")
    assert refused.status == 429 and refused.retry_after == 60 - FAILED_TOKENS
    assert gate.verdict("Bearer bad", "198.51.100.8").status is None, "another address"
    assert gate.verdict("Bearer bad", "2001:db8::1").status is None
    assert gate.verdict("Bearer good", "198.51.100.7").body_limit == HEARTBEAT_BODY_BYTES
    now[0] += 60 - FAILED_TOKENS
    assert gate.verdict("Bearer bad", "198.51.100.7").status is None


def test_a_token_refused_by_the_database_is_no_longer_let_send_a_heartbeats_size() -> None:
    keys = Keyring.of(RingKeys.of({1: b"k" * 32}, 1))
    gate = NodeGate(keys, lambda: [keys.read().nodes("good").current.value], lambda: 0.0)
    assert gate.verdict("Bearer good", None).body_limit == HEARTBEAT_BODY_BYTES
    gate.forget("good")
    assert gate.verdict("Bearer good", None).body_limit < HEARTBEAT_BODY_BYTES
    gate.learn("good")
    assert gate.verdict("Bearer good", None).body_limit == HEARTBEAT_BODY_BYTES


def waits_for_the_body(base: str, headers: dict[str, str]) -> tuple[int, dict[str, str], Any] | None:
    """The answer to a heartbeat's headers alone; None while the listener waits for the body, as
    it does for a token it knows."""
    with send_headers(base, "/api/node/heartbeat", headers) as connection:
        connection.settimeout(1)
        try:
            connection.recv(1, socket.MSG_PEEK)
        except TimeoutError:
            return None
        connection.settimeout(10)
        return read_answer(connection)


def test_a_replaced_token_is_refused_before_its_body_is_read(hub: Hub) -> None:
    """`vpnsite node token` gives the server a new token: the listener, which knew the old one,
    reads the tokens again (every RELOAD_SECONDS) and turns the old one away on its headers."""
    assert heartbeat(hub.node, hub.token).status_code == 200, "the listener knows the token"
    replaced = vpnsite("node", "token", "nl-ams-1", env=hub.env)
    assert replaced.returncode == 0, replaced.stderr
    announced = {
        "Authorization": f"Bearer {hub.token}",
        "Content-Type": "application/json",
        "Content-Length": str(HEARTBEAT_BODY_BYTES - 1),
    }
    deadline = time.monotonic() + 30
    while (answered := waits_for_the_body(hub.node, announced)) is None:
        assert time.monotonic() < deadline, "the old token is still let send a heartbeat's size"
        time.sleep(0.5)
    status, headers, body = answered
    assert (status, body["code"]) == (401, "node_unauthorized") and headers["www-authenticate"] == "Bearer"
    assert heartbeat(hub.node, replaced.stdout.strip()).status_code == 200, "the new token is heard"


def test_a_heartbeat_is_parsed_only_once_the_database_confirms_its_token(make_hub: Any) -> None:
    """Until the listener reads the tokens again it still knows a replaced one, and lets it send its
    body: the body is not parsed before the database has said whose the token is."""
    from vpnsite_adapters.http.app import create_app, node_gate

    hub = make_hub()
    keys = hub.services.server_authentication.keys
    assert hub.store.fleet.set_token("lv-riga", keys.read().nodes("old-token").current)
    gate = node_gate(hub.services)
    client = create_app(hub.services, "node", gate).test_client()
    assert gate.knows("old-token")
    assert hub.store.fleet.set_token("lv-riga", keys.read().nodes("new-token").current)
    unparsable = b'{"connections": [' + b"{" * 100_000
    beat = client.post(
        "/api/node/heartbeat",
        data=unparsable,
        headers={"Authorization": "Bearer old-token", "Content-Type": "application/json"},
    )
    assert (beat.status_code, beat.get_json()["code"]) == (401, "node_unauthorized"), "refused, not parsed"
    assert not gate.knows("old-token")


def test_each_call_of_a_server_looks_its_token_up_once(make_hub: Any) -> None:
    """The listener asks which server a token is once per call, and every use case is handed the
    server: a login, a resumed session, its events, a heartbeat and the lists a server syncs."""
    from vpnsite_adapters.http.app import create_app, node_gate

    hub = make_hub()
    asked: list[str] = []
    stored = hub.store.fleet

    class CountedTokens:
        def token_holder(self, token_hashes: Any) -> Any:
            asked.append(request_path)
            return stored.token_holder(token_hashes)

        def __getattr__(self, name: str) -> Any:
            return getattr(stored, name)

    authentication = attrs.evolve(hub.services.server_authentication, tokens=CountedTokens())
    services = attrs.evolve(hub.services, server_authentication=authentication)
    keys = authentication.keys
    assert stored.set_token("lv-riga", keys.read().nodes("riga-token").current)
    client = create_app(services, "node", node_gate(services)).test_client()
    auth = {"Authorization": "Bearer riga-token"}
    calls = [
        ("post", "/api/node/heartbeat", BEAT),
        ("post", "/api/node/login", {"username": "anna@example.org", "password": "0" * 20}),
        ("post", "/api/node/resume", {"username": "anna@example.org"}),
        ("post", "/api/node/established", {"session": "0" * 24}),
        ("post", "/api/node/ended", {"session": "0" * 24}),
        ("get", "/api/node/deny-list", None),
        ("get", "/api/node/wireguard-peers", None),
    ]
    for method, request_path, body in calls:
        answer = getattr(client, method)(request_path, json=body, headers=auth)
        assert answer.status_code in (200, 403), (request_path, answer.status_code, answer.data)
    assert asked == [path for _, path, _ in calls]


def test_no_answer_of_either_listener_names_the_server(hub: Hub) -> None:
    answers = [
        requests.get(hub.public + "/", timeout=10),
        requests.get(hub.public + "/api/user-count", timeout=10),
        requests.get(hub.public + "/nowhere", timeout=10),
        heartbeat(hub.node, hub.token),
        requests.post(
            hub.node + "/api/node/login", json={}, headers={"Authorization": "Bearer x"}, timeout=10
        ),
    ]
    for answer in answers:
        assert "Server" not in answer.headers, (answer.url, answer.headers.get("Server"))
    _, headers, _ = answer_to_headers(hub.node, "/api/node/heartbeat", {"Content-Length": "99999999"})
    assert "server" not in headers, "nor the listener's own refusals"


def test_server_config_gives_a_server_an_http_hub_only_when_told_it_is_insecure(tmp_path: Path) -> None:
    """Over http:// the server would send the hub every login's e-mail and activation code in
    clear: refused, unless the operator says the network is theirs (--insecure), and said even
    then."""
    env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp_path / "data")}
    env.pop("VPNSITE_PUBLIC_URL", None)
    assert vpnsite("vpn", "init", env=env).returncode == 0
    token = add_server(env, "nl-ams-1")
    out = tmp_path / "node"
    config = ("vpn", "server-config", "nl-ams-1", "--out", str(out), "--token", token)
    for refused in (
        vpnsite(*config, "--hub", "http://10.0.0.5:8001", env=env),
        vpnsite(*config, env={**env, "VPNSITE_PUBLIC_URL": "http://hub.example"}),
    ):
        assert refused.returncode == 2, refused.stdout
        assert "in clear" in refused.stderr and "--insecure" in refused.stderr, refused.stderr
        assert not out.exists(), "nothing written"
    garbled = vpnsite(*config, "--hub", "hub.example:8001", env=env)
    assert garbled.returncode == 2 and "https://" in garbled.stderr and not out.exists()

    taken = vpnsite(*config, "--hub", "http://10.0.0.5:8001", "--insecure", env=env)
    assert taken.returncode == 0, taken.stderr
    assert "warning" in taken.stderr and "in clear" in taken.stderr
    assert json.loads((out / "node.json").read_text())["hub"] == "http://10.0.0.5:8001"
    secure = vpnsite(*config, "--hub", "https://hub.example", env=env)
    assert secure.returncode == 0, secure.stderr
    assert secure.stderr.startswith("vpnsite: written to the database"), secure.stderr
    assert "warning" not in secure.stderr
    assert json.loads((out / "node.json").read_text())["hub"] == "https://hub.example"
