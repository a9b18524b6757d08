"""Hostile input on every field: a clear 4xx, nothing stored, nothing reflected unescaped; the
client address believed only from trusted proxies; VPN logins fail closed."""

from __future__ import annotations

import http.server
import json
import socket
import threading
import time
from datetime import UTC, datetime
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.api import sign_up
from vpnsite.erasures import ErasureLinks
from vpnsite.fleet import Heartbeat
from vpnsite.keyed_hashes import Keyring
from vpnsite.mail import Message
from vpnsite.notifications import Ticket
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.mail.notifications import QueuedNotifications
from vpnsite_node.hub import HUB_UNAVAILABLE, HubClient

hostile_text = st.one_of(
    st.text(max_size=50),
    # Lone surrogates and NUL: valid JSON, not text (a 500 on PostgreSQL once).
    st.text(alphabet=st.characters(categories=["Cs"]), min_size=1, max_size=3),
    st.builds("{}\x00{}".format, st.text(max_size=5), st.text(max_size=5)),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=300, max_size=2000),
    st.sampled_from(
        [
            "'; DROP TABLE licence; --",
            "<script>alert(1)</script>",
            "\x00\x01\x02",
            "\ud800",
            "anna\udfff@example.org",
            "../../etc/passwd",
            "%00",
            "{{7*7}}",
        ]
    ),
)
hostile_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), hostile_text),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
CALLS = {
    "/api/submit-email": ["email", "cookies"],
    "/api/create-user": [
        "email",
        "user_days",
        "subscription",
        "user_comment",
        "request_id",
        "sig",
        "cookies",
    ],
    "/api/check-license": ["email", "activation_code"],
    "/api/support": ["email", "activation_code", "message"],
    "/api/renew": ["token", "email", "activation_code"],
}


def rows(hub: Any) -> dict[str, int]:
    db = hub.store.db
    return {
        t: db.execute_sql(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
        for t in ("licence", "user_end", "ticket")
    }


def test_hostile_fields_get_a_clear_4xx_and_store_nothing(make_hub: Any) -> None:
    hub = make_hub(rate_limits="off")
    services = hub.services
    client = create_app(services).test_client()

    @settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(sorted(CALLS)), st.data())
    def post_hostile(path: str, data: st.DataObject) -> None:
        body = {field: data.draw(hostile_value) for field in CALLS[path] if data.draw(st.booleans())}
        before = rows(hub)
        response = client.post(path, data=json.dumps(body), content_type="application/json")
        assert 400 <= response.status_code < 500, (response.status_code, body)
        payload = response.get_json()
        assert isinstance(payload, dict) and "detail" in payload and "code" in payload
        assert "Traceback" not in response.get_data(as_text=True)
        if path != "/api/submit-email":
            assert rows(hub) == before

    post_hostile()


class EnqueuedMail:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    def enqueue(self, kind: str, message: Message, **about: str) -> None:
        self.messages.append(message)


def test_what_a_visitor_wrote_reaches_support_as_plain_text_and_the_address_not_at_all() -> None:
    """The acknowledgement goes to whatever address was typed: it quotes nothing of the message."""
    hostile = '<script>alert("x")</script><img src=x onerror=y> Buy now at https://spam.example'
    queue = EnqueuedMail()
    notifications = QueuedNotifications(
        queue,  # type: ignore[arg-type]
        "help@vpn.test",
        "https://vpn.example",
        90,
        erasure_links=ErasureLinks(Keyring.from_master(b"k" * 32)),
    )
    ticket = Ticket("T-00000001", "victim@example.org", hostile, datetime(2026, 1, 1, tzinfo=UTC))
    notifications.ticket_opened(ticket)
    notifications.acknowledgement_due(ticket)
    forward, acknowledgement = queue.messages
    assert forward.to == "help@vpn.test" and hostile in forward.text and forward.html is None
    assert acknowledgement.to == "victim@example.org" and ticket.number in acknowledgement.text
    for part in (acknowledgement.subject, acknowledgement.text, acknowledgement.html or ""):
        assert "script" not in part and "<img" not in part and "spam.example" not in part


def test_forwarded_addresses_count_only_from_trusted_proxies(make_hub: Any) -> None:
    hub = make_hub(trusted_proxies="127.0.0.0/8", rate_limits="check-license:ip=2/1m")
    services = hub.services
    client = create_app(services).test_client()
    code = client.post("/api/create-user", json=sign_up(client)).get_json()["user_code"]
    body = {"email": "anna@example.org", "activation_code": code}
    for visitor in ("198.51.100.1", "198.51.100.2"):
        for _ in range(2):
            assert (
                client.post("/api/check-license", json=body, headers={"X-Forwarded-For": visitor}).status_code
                == 200
            )
        assert (
            client.post("/api/check-license", json=body, headers={"X-Forwarded-For": visitor}).status_code
            == 429
        )

    untrusted_hub = make_hub(rate_limits="check-license:ip=2/1m")
    untrusted = untrusted_hub.services
    client = create_app(untrusted).test_client()
    code = client.post("/api/create-user", json=sign_up(client)).get_json()["user_code"]
    body = {"email": "anna@example.org", "activation_code": code}
    statuses = [
        client.post(
            "/api/check-license", json=body, headers={"X-Forwarded-For": f"203.0.113.{n}"}
        ).status_code
        for n in range(3)
    ]
    assert statuses == [200, 200, 429], "a client cannot pick a new address by sending the header"


def test_a_node_refuses_logins_when_the_hub_is_down_silent_or_talking_nonsense() -> None:
    code = "12345678901234567894"
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    verdict = HubClient(f"http://127.0.0.1:{port}", "t").log_in("anna@example.org", code)
    assert verdict.reason == HUB_UNAVAILABLE

    silent = socket.create_server(("127.0.0.1", 0))
    threading.Thread(target=lambda: silent.accept(), daemon=True).start()
    started = time.monotonic()
    verdict = HubClient(f"http://127.0.0.1:{silent.getsockname()[1]}", "t").log_in("anna@example.org", code)
    assert not verdict.admitted and verdict.reason == HUB_UNAVAILABLE
    assert time.monotonic() - started < 10, "bounded by the node's login timeout"
    silent.close()

    for status, body in ((200, b"not json"), (200, b'{"admitted": "yes"}'), (500, b"{}"), (200, b"[]")):
        server = http.server.HTTPServer(("127.0.0.1", 0), _answering(status, body))
        threading.Thread(target=server.handle_request, daemon=True).start()
        verdict = HubClient(f"http://127.0.0.1:{server.server_port}", "t").log_in("anna@example.org", code)
        server.server_close()
        # Whatever the hub did not decide, the app is told to try again later.
        assert not verdict.admitted and verdict.reason == HUB_UNAVAILABLE, (status, body)

    server = http.server.HTTPServer(
        ("127.0.0.1", 0), _answering(403, b'{"admitted": false, "reason": "ended"}')
    )
    threading.Thread(target=server.handle_request, daemon=True).start()
    verdict = HubClient(f"http://127.0.0.1:{server.server_port}", "t").log_in("anna@example.org", code)
    assert verdict.reason == "ended"
    server.server_close()


def test_a_node_follows_no_redirect_with_its_token() -> None:
    """Something at the hub's address that answers with a redirect to another origin (any kind,
    for any call) gets a refusal for now, and the other origin hears nothing: not the token, not a
    login's e-mail and code."""
    heard: list[tuple[str, str | None]] = []

    class Elsewhere(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            heard.append((self.path, self.headers.get("Authorization")))
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"[]")

        do_POST = do_GET

    elsewhere = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Elsewhere)
    threading.Thread(target=elsewhere.serve_forever, daemon=True).start()
    for status in (301, 302, 303, 307, 308):
        hub = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), _redirecting(status, f"http://127.0.0.1:{elsewhere.server_port}/caught")
        )
        threading.Thread(target=hub.serve_forever, daemon=True).start()
        client = HubClient(f"http://127.0.0.1:{hub.server_port}", "the-servers-token")
        assert client.log_in("anna@example.org", "12345678901234567894").reason == HUB_UNAVAILABLE
        assert client.heartbeat(Heartbeat(1.0, 1.0, 0, True), []) is None
        assert client.deny_list() is None and client.wireguard_peers() is None
        client.session_event("ended", "s" * 24)
        hub.shutdown()
        hub.server_close()
    elsewhere.shutdown()
    elsewhere.server_close()
    assert heard == [], "nothing reached the other origin"


def _redirecting(status: int, to: str) -> type[http.server.BaseHTTPRequestHandler]:
    class Redirect(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(status)
            self.send_header("Location", to + self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_POST = do_GET

    return Redirect


def _answering(status: int, body: bytes) -> type[http.server.BaseHTTPRequestHandler]:
    class Answer(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: Any) -> None:
            pass

    return Answer


def test_a_lone_surrogate_or_nul_in_any_field_is_a_422_naming_it(make_hub: Any) -> None:
    client = create_app(make_hub(rate_limits="off").services).test_client()
    text_fields = {
        path: [f for f in fields if f not in ("user_days", "cookies")] for path, fields in CALLS.items()
    }
    text_fields["/api/submit-email"].append("cookies.hz_id")
    for path, fields in text_fields.items():
        for field in fields:
            for bad in ("\ud800", "a\x00b"):
                body: dict[str, Any] = (
                    {"cookies": {"hz_id": bad}} if field == "cookies.hz_id" else {field: bad}
                )
                response = client.post(path, data=json.dumps(body), content_type="application/json")
                assert response.status_code == 422, (path, field, response.status_code)
                errors = response.get_json()["detail"]
                named = [e for e in errors if e["loc"][-1] == field.split(".")[-1]]
                assert named and named[0]["type"] == "value_error.invalid_characters", (path, field, errors)
