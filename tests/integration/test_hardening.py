"""What a security review found, each proved against a real `vpnsite serve` process (waitress in
front, as in production), not Flask's test client."""

from __future__ import annotations

import os
import socket
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests

from tests.integration.processes import free_port, vpnsite
from tests.support.serve import Served, serving, signed_form, stop
from tests.support.serve import serve as start_serve
from vpnsite.codes import luhn_check_digit
from vpnsite_adapters.sql.store import SqlStore

Serve = Callable[..., Served]


@pytest.fixture
def serve(tmp_path: Path, database_url: str) -> Iterator[Serve]:
    """Start `vpnsite serve` with VPNSITE_* settings."""
    with serving(tmp_path, database_url=database_url, public_url="https://vpn.example") as start:
        yield start


def submit(base: str, email: str, **headers: str) -> requests.Response:
    return requests.post(base + "/api/submit-email", json={"email": email}, headers=headers, timeout=10)


def test_a_trusted_proxys_forwarded_address_and_scheme_are_believed(serve: Serve) -> None:
    base, _, _ = serve(trusted_proxies="127.0.0.1", rate_limits="submit-email:ip=2/10m")
    first = {"X-Forwarded-For": "198.51.100.1"}
    assert [submit(base, f"p{n}@example.org", **first).status_code for n in range(3)] == [200, 200, 429]
    assert submit(base, "q@example.org", **{"X-Forwarded-For": "198.51.100.2"}).status_code == 200, (
        "behind the proxy every visitor has an address of their own"
    )
    chained = {"X-Forwarded-For": "203.0.113.7, 198.51.100.1"}
    assert submit(base, "r@example.org", **chained).status_code == 429, "the right-most hop counts"
    secure = requests.get(base + "/api/user-count", headers={"X-Forwarded-Proto": "https"})
    assert "max-age" in secure.headers.get("Strict-Transport-Security", "")
    assert "Strict-Transport-Security" not in requests.get(base + "/api/user-count").headers


def test_nobody_elses_forwarded_headers_are_believed(serve: Serve) -> None:
    base, _, _ = serve(trusted_proxies="10.9.9.9", rate_limits="submit-email:ip=2/10m")
    statuses = [
        submit(base, f"s{n}@example.org", **{"X-Forwarded-For": f"198.51.100.{n}"}).status_code
        for n in range(3)
    ]
    assert statuses == [200, 200, 429], "a client cannot pick a new address by sending the header"
    spoofed = requests.get(base + "/api/user-count", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in spoofed.headers


def test_links_come_from_the_public_url_never_the_host_header(serve: Serve, tmp_path: Path) -> None:
    base, _, _ = serve(rate_limits="off")
    evil = {"Host": "evil.example"}
    form = submit(base, "victim@example.org", **evil).json()["form_data"]
    created = requests.post(
        base + "/api/create-user", json={"email": form.pop("user_email"), **form}, headers=evil
    ).json()
    assert created["activation_url"].startswith("https://vpn.example/api/config/")
    page = requests.get(base + "/", headers=evil).text
    assert "evil.example" not in page and "https://vpn.example/" in page
    outbox = next(tmp_path.glob("data-*")) / "outbox"

    def mail() -> bytes:
        return b"".join(path.read_bytes() for path in outbox.glob("*.eml")) if outbox.exists() else b""

    deadline = time.monotonic() + 15
    while b"https://vpn.example/api/config/" not in mail():
        assert time.monotonic() < deadline, "the licence e-mail links to the public URL"
        time.sleep(0.2)
    assert b"evil.example" not in mail()


def test_serve_refuses_to_start_without_a_public_url(environment: dict[str, str]) -> None:
    result = vpnsite("serve", "--port", str(free_port()), env={**environment, "VPNSITE_PUBLIC_URL": ""})
    assert result.returncode == 2 and "VPNSITE_PUBLIC_URL" in result.stderr
    assert "Traceback" not in result.stderr


def sign_up(base: str, email: str, **headers: str) -> str:
    created = requests.post(
        base + "/api/create-user", json=signed_form(base, email, **headers), headers=headers, timeout=10
    )
    return str(created.json()["user_code"])


def sign_ups_until_killed(served: Served, answered: list[str], after: int) -> None:
    """Eight visitors sign up over and over; the server is killed (-9) once ``after`` more of
    them have been shown a code."""
    stop = threading.Event()
    goal = len(answered) + after

    def visitor(worker: int) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            email = f"w{served.process.pid}-{worker}-{n}@example.org"
            try:
                form = submit(served.base, email).json()["form_data"]
                form.pop("user_email")
                created = requests.post(
                    served.base + "/api/create-user", json={"email": email, **form}, timeout=10
                )
            except (requests.RequestException, ValueError):
                return  # the server died under this request
            if created.status_code == 200:
                answered.append(email)

    visitors = [threading.Thread(target=visitor, args=(n,)) for n in range(8)]
    for thread in visitors:
        thread.start()
    deadline = time.monotonic() + 30
    while len(answered) < goal:
        assert time.monotonic() < deadline and served.process.poll() is None
        time.sleep(0.01)
    served.process.kill()
    stop.set()
    for thread in visitors:
        thread.join(timeout=15)


def test_a_crash_during_sign_ups_leaves_no_licence_without_its_e_mail(
    serve: Serve, database_url: str
) -> None:
    answered: list[str] = []
    for round_ in range(6):
        # No mail server answers: every licence e-mail stays in the queue to be counted. The
        # rounds sign up faster than people do, which the proof of work would challenge.
        sign_ups_until_killed(
            serve(rate_limits="off", mail_url="smtp://127.0.0.1:9", signup_challenge="off"),
            answered,
            5 + 7 * round_,
        )

    store = SqlStore.open(database_url)
    try:
        licences = {row.email for row in store.signups.models.Licence.select()}
        queue = store.mail_queue.models.MailQueue
        mails = queue.select().where(queue.kind == "licence").count()
        assert set(answered) <= licences, "every licence a visitor was shown is kept"
        assert mails == len(licences) > 0, "every licence kept has its e-mail waiting"
    finally:
        store.close()


def wrong_code(n: int) -> str:
    payload = f"{n:019d}"
    return payload + luhn_check_digit(payload)


def check(base: str, email: str, code: str, address: str) -> int:
    return requests.post(
        base + "/api/check-license",
        json={"email": email, "activation_code": code},
        headers={"X-Forwarded-For": address},
        timeout=10,
    ).status_code


def test_strangers_guessing_cannot_lock_the_owner_out(serve: Serve) -> None:
    base, _, _ = serve(trusted_proxies="127.0.0.1", rate_limits="check-license:ip=100/1m")
    code = sign_up(base, "owner@example.org", **{"X-Forwarded-For": "198.51.100.9"})
    strangers = [check(base, "owner@example.org", wrong_code(n), f"203.0.113.{n}") for n in range(30)]
    assert strangers == [404] * 30
    assert check(base, "owner@example.org", code, "198.51.100.9") == 200, "the owner's own code still works"

    one_client = [check(base, "owner@example.org", wrong_code(100 + n), "192.0.2.1") for n in range(21)]
    assert one_client == [404] * 20 + [429], "one client has 20 wrong guesses an hour for one e-mail"
    assert check(base, "owner@example.org", code, "192.0.2.1") == 429, "even a right one, once it is out"


def _raw(base: str, request: bytes, wait: float = 10) -> bytes:
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=wait) as sock:
        sock.sendall(request)
        answer = b""
        try:
            while b"\r\n\r\n" not in answer:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except TimeoutError:
            pass
    return answer


def test_a_huge_body_is_refused_before_it_is_read(serve: Serve) -> None:
    base, _, _ = serve()
    headers = (
        b"POST /api/submit-email HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 67108864\r\n\r\n{"
    )
    answer = _raw(base, headers)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    medium = b"x" * (1024 * 1024)
    response = requests.post(
        base + "/api/submit-email", data=medium, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413 and response.json()["code"] == "payload_too_large"


def test_half_open_connections_do_not_lock_visitors_out(serve: Serve) -> None:
    base, _, _ = serve(channel_timeout="2")
    host, port = base.removeprefix("http://").split(":")
    idle = [socket.create_connection((host, int(port)), timeout=5) for _ in range(150)]
    try:
        assert requests.get(base + "/api/user-count", timeout=10).status_code == 200
        idle[0].settimeout(20)
        assert idle[0].recv(1) == b"", "the server closes a connection that says nothing"
    finally:
        for sock in idle:
            sock.close()


def test_a_crafted_path_cannot_write_a_line_of_its_own_into_the_log(serve: Serve) -> None:
    base, log, _ = serve()
    requests.get(base + "/a%0d%0aSet-Cookie:x=1")
    requests.get(base + "/api/user-count")
    deadline = time.monotonic() + 10
    while "/api/user-count" not in log.read_text():
        assert time.monotonic() < deadline
        time.sleep(0.1)
    lines = log.read_text().splitlines()
    assert not [line for line in lines if line.startswith("Set-Cookie")], lines[-5:]
    assert any("/a\\x0d\\x0aSet-Cookie" in line for line in lines)


def test_options_on_the_polling_paths_says_what_they_allow(serve: Serve) -> None:
    base, _, _ = serve(cors_origins="https://app.example")
    for path in ("/api/user-count", "/api/server-status"):
        answer = requests.options(base + path, headers={"Origin": "https://app.example"})
        assert answer.status_code == 204 and "GET" in answer.headers["Allow"]
        assert answer.headers["Access-Control-Allow-Origin"] == "https://app.example"


def test_the_data_directory_and_database_are_private(tmp_path: Path) -> None:
    """SQLite's files, so no database parameter: the embedded default."""
    folder = tmp_path / "private"
    env = {**os.environ, "VPNSITE_DATA_DIR": str(folder), "VPNSITE_PUBLIC_URL": "https://vpn.example"}
    env.pop("VPNSITE_DATABASE_URL", None)
    served = start_serve(env, tmp_path / "serve.log")
    try:
        deadline = time.monotonic() + 30
        while not (folder / "vpnsite.db-wal").exists():
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        for name in ("vpnsite.db", "vpnsite.db-wal", "vpnsite.db-shm", "secret.key"):
            assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name
    finally:
        stop(served.process)


def test_every_answer_denies_the_devices_features_and_keeps_its_window_to_itself(serve: Serve) -> None:
    base, _, _ = serve()
    answers = [
        requests.get(base + "/", timeout=10),
        requests.get(base + "/ru/server-status", timeout=10),
        requests.get(base + "/nowhere", timeout=10),
        requests.get(base + "/api/user-count", timeout=10),  # answered before Flask, from memory
        requests.get(base + "/api/openapi.json", timeout=10),
        submit(base, "p@example.org"),
    ]
    for answer in answers:
        denied = answer.headers.get("Permissions-Policy", "").split(", ")
        assert {"camera=()", "microphone=()", "geolocation=()"} <= set(denied), answer.url
        assert answer.headers.get("Cross-Origin-Opener-Policy") == "same-origin", answer.url
        assert "Server" not in answer.headers, answer.url
