"""Hostile input on every field: a clear 4xx, nothing stored, nothing reflected unescaped; the
client address believed only from trusted proxies; the hooks fail closed."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.integration.test_api_flow import sign_up
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.mail.templates import ticket_acknowledgement
from vpnsite_adapters.vpn.hook import main as hook

hostile_text = st.one_of(
    st.text(max_size=50),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=300, max_size=2000),
    st.sampled_from(
        [
            "'; DROP TABLE licence; --",
            "<script>alert(1)</script>",
            "\x00\x01\x02",
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


def rows(services: Any) -> dict[str, int]:
    db = services.store.db
    return {
        t: db.execute_sql(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
        for t in ("signup_request", "licence", "ticket")
    }


def test_hostile_fields_get_a_clear_4xx_and_store_nothing(make_services: Any) -> None:
    services = make_services(rate_limits="off")
    client = create_app(services).test_client()

    @settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(sorted(CALLS)), st.data())
    def post_hostile(path: str, data: st.DataObject) -> None:
        body = {field: data.draw(hostile_value) for field in CALLS[path] if data.draw(st.booleans())}
        before = rows(services)
        response = client.post(path, data=json.dumps(body), content_type="application/json")
        assert 400 <= response.status_code < 500, (response.status_code, body)
        payload = response.get_json()
        assert isinstance(payload, dict) and "detail" in payload and "code" in payload
        assert "Traceback" not in response.get_data(as_text=True)
        if path != "/api/submit-email":
            assert rows(services) == before

    post_hostile()


def test_what_a_visitor_wrote_is_escaped_in_the_html_mail() -> None:
    message = ticket_acknowledgement(
        "a@example.org", "T-1", '<script>alert("x")</script><img src=x onerror=y>', "en"
    )
    assert "<script>" not in (message.html or "") and "&lt;script&gt;" in (message.html or "")
    assert "<img" not in (message.html or "")


def test_forwarded_addresses_count_only_from_trusted_proxies(make_services: Any) -> None:
    services = make_services(trusted_proxies="127.0.0.0/8", rate_limits="check-license:ip=2/1m")
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

    untrusted = make_services(rate_limits="check-license:ip=2/1m")
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


def test_the_login_hook_fails_closed_when_the_hub_is_down_or_silent(tmp_path: Path) -> None:
    credentials = tmp_path / "login.txt"
    credentials.write_text("anna@example.org\n12345678901234567897\n")
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    config = tmp_path / "hook.json"
    config.write_text(json.dumps({"hub": f"http://127.0.0.1:{port}", "token": "t"}))
    assert hook([str(config), "login", str(credentials)]) == 1

    silent = socket.create_server(("127.0.0.1", 0))
    threading.Thread(target=lambda: silent.accept(), daemon=True).start()
    config.write_text(json.dumps({"hub": f"http://127.0.0.1:{silent.getsockname()[1]}", "token": "t"}))
    started = time.monotonic()
    assert hook([str(config), "login", str(credentials)]) == 1
    assert time.monotonic() - started < 10, "bounded by the hook's timeout"
    silent.close()
    config.write_text("not json")
    assert hook([str(config), "login", str(credentials)]) == 1
    assert hook([str(config), "connect"]) == 1
