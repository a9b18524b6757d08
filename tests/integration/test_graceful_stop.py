"""`vpnsite serve` on SIGTERM, on SQLite and PostgreSQL: it answers every request it took, keeps
every licence it announced with its e-mail, gives back the mail it claimed and did not send, and
exits 0."""

from __future__ import annotations

import asyncio
import http.client
import json
import signal
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import requests
from aiosmtpd.controller import Controller

from tests.integration.processes import free_port
from tests.support.serve import Served, serving, signed_form
from vpnsite_adapters.mail.queue import LEASE
from vpnsite_adapters.sql.store import SqlStore

Serve = Callable[..., Served]
STOP_DEADLINE = 60


@pytest.fixture
def serve(tmp_path: Path, database_url: str) -> Iterator[Serve]:
    with serving(tmp_path, database_url=database_url) as start:
        yield start


class Refused(Exception):
    """The listener is closed: the server took nothing on."""


def post(base: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """One request on a connection of its own. A refused connection raises Refused; a reset, a
    close without an answer or a cut-off answer raises what http.client raises."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        try:
            connection.connect()
        except ConnectionRefusedError:
            raise Refused from None
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def test_sigterm_mid_burst_answers_every_request_it_took(serve: Serve, database_url: str) -> None:
    # No mail server answers: every licence e-mail stays in the queue to be counted.
    served = serve(rate_limits="off", mail_url="smtp://127.0.0.1:9")
    answered: list[str] = []
    failures: list[str] = []
    signalled = threading.Event()

    def request(path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        sent_before_signal = not signalled.is_set()
        try:
            return post(served.base, path, body)
        except (ConnectionResetError, BrokenPipeError):
            # Connected in the instant the listener closed, before the server took it on.
            if sent_before_signal:
                failures.append(f"{path}: reset, though sent before the signal")
            raise Refused from None

    def visitor(worker: int) -> None:
        for n in range(100_000):
            email = f"w{worker}-{n}@example.org"
            try:
                status, body = request("/api/submit-email", {"email": email})
                assert status == 200, body
                form = body["form_data"]
                form.pop("user_email")
                status, body = request("/api/create-user", {"email": email, **form})
            except Refused:
                return
            except (OSError, http.client.HTTPException, ValueError) as error:
                failures.append(f"{email}: {error!r}")
                return
            if status == 200:
                answered.append(email)

    visitors = [threading.Thread(target=visitor, args=(n,)) for n in range(8)]
    for thread in visitors:
        thread.start()
    deadline = time.monotonic() + 60
    while len(answered) < 30:
        assert time.monotonic() < deadline and served.process.poll() is None
        time.sleep(0.01)
    signalled.set()
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=STOP_DEADLINE) == 0
    for thread in visitors:
        thread.join(timeout=STOP_DEADLINE)
        assert not thread.is_alive()

    assert failures == [], "every request the server took on was answered, in full"
    assert served.log.read_text().splitlines()[-1].endswith("vpnsite stopped")
    store = SqlStore.open(database_url)
    try:
        licences = {row.email for row in store.signups.models.Licence.select()}
        queue = store.mail_queue.models.MailQueue
        mails = queue.select().where(queue.kind == "licence").count()
        leased = queue.select().where(queue.claimed_until.is_null(False) & queue.sent_at.is_null()).count()
        assert set(answered) <= licences, "every licence a visitor was shown is kept"
        assert mails == len(licences), "every licence kept has its e-mail waiting"
        assert leased == 0, "no message is left leased to the stopped process"
    finally:
        store.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_idle_keep_alive_connections_are_closed_not_waited_for(serve: Serve, signum: int) -> None:
    # Neither the idle timeout nor the shutdown timeout would end this connection in the deadline.
    served = serve(channel_timeout="3600", shutdown_timeout="600")
    host, port = served.base.removeprefix("http://").split(":")
    idle = http.client.HTTPConnection(host, int(port), timeout=STOP_DEADLINE)
    idle.request("GET", "/api/user-count")
    assert idle.getresponse().read()
    served.process.send_signal(signum)
    assert served.process.wait(timeout=STOP_DEADLINE) == 0
    assert idle.sock is not None and idle.sock.recv(1) == b"", "the server closed the idle connection"
    idle.close()
    assert "shutdown timeout reached" not in served.log.read_text()


class HeldInbox:
    """An SMTP server that takes each message only when the test lets it."""

    def __init__(self) -> None:
        self.permits = threading.Semaphore(0)
        self.arrived = threading.Semaphore(0)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.arrived.release()
        taken = await asyncio.get_running_loop().run_in_executor(None, self.permits.acquire, True, 30)
        return "250 OK" if taken else "451 not now"


@pytest.fixture
def held_inbox() -> Iterator[tuple[HeldInbox, int]]:
    inbox = HeldInbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield inbox, port
    for _ in range(10):
        inbox.permits.release()
    controller.stop()


def sign_up(base: str, email: str) -> None:
    created = requests.post(base + "/api/create-user", json=signed_form(base, email), timeout=10)
    assert created.status_code == 200, created.text


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_mail_claimed_by_a_stopped_sender_is_claimable_again_at_once(
    serve: Serve, database_url: str, held_inbox: tuple[HeldInbox, int]
) -> None:
    inbox, port = held_inbox
    served = serve(rate_limits="off", mail_url=f"smtp://127.0.0.1:{port}?starttls=off", mail_timeout="60")
    sign_up(served.base, "first@example.org")
    assert inbox.arrived.acquire(timeout=30), "the sender is handing over the first message"
    sign_up(served.base, "second@example.org")
    sign_up(served.base, "third@example.org")
    inbox.permits.release()
    # The sender's next round claims both waiting messages and hands over the first of them.
    assert inbox.arrived.acquire(timeout=30)

    served.process.send_signal(signal.SIGTERM)
    wait_for(lambda: "stopping:" in served.log.read_text(), "the server saw the signal")
    inbox.permits.release()
    assert served.process.wait(timeout=STOP_DEADLINE) == 0

    store = SqlStore.open(database_url)
    try:
        queue = store.mail_queue.models.MailQueue
        assert queue.select().where(queue.sent_at.is_null(False)).count() == 2
        reclaimed = store.mail_queue.claim_due(datetime.now(UTC), 10, LEASE)
        assert len(reclaimed) == 1, "the message the stopped sender had claimed is due again now"
        assert reclaimed[0].attempts == 0
    finally:
        store.close()
