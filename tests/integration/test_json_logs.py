"""`VPNSITE_LOG_FORMAT=json` against a real `vpnsite serve`: every line of its output is one JSON
object, every answer names its request in ``X-Request-Id`` and the request's log line carries the
same id; a proxy's id is kept only from a trusted proxy and only if it is sane."""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.integration.processes import vpnsite
from tests.support.serve import Served, serving
from vpnsite_adapters.runtime.log_lines import JsonFormatter, RequestIdFilter, request_id

Serve = Callable[..., Served]
EMAIL = "private.person@example.org"


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    with serving(tmp_path) as start:
        yield start


def log_records(served: Served) -> list[dict[str, Any]]:
    """Stop the server (so every line is written) and parse every line of its output."""
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=30) == 0
    return [json.loads(line) for line in served.log.read_text().splitlines()]


def line_of(records: list[dict[str, Any]], request_id: str) -> dict[str, Any]:
    found = [record for record in records if record.get("request_id") == request_id]
    assert len(found) == 1, (request_id, found)
    return found[0]


def raw_get(base: str, path: str, request_id: bytes) -> bytes:
    """A request as a proxy might pass on what a client sent, folded header lines and all."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n".encode()
            + b"X-Request-Id: "
            + request_id
            + b"\r\n\r\n"
        )
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def header_of(answer: bytes, name: bytes) -> str:
    head = answer.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    values = [line.split(b":", 1)[1].strip() for line in head if line.lower().startswith(name.lower() + b":")]
    assert len(values) == 1, head
    return values[0].decode()


def test_every_line_is_json_and_every_answer_names_its_request(serve: Serve) -> None:
    # The proxies trusted are elsewhere: this client's own X-Request-Id is not believed.
    served = serve(log_format="json", trusted_proxies="10.0.0.0/8")
    base = served.base
    client_id = {"X-Request-Id": "chosen-by-the-client"}
    poll = requests.get(base + "/api/user-count", headers=client_id, timeout=10)
    answers = {
        "poll": poll,
        "not modified": requests.get(
            base + "/api/user-count", headers={"If-None-Match": poll.headers["ETag"]}, timeout=10
        ),
        "poll refused": requests.post(base + "/api/user-count", timeout=10),
        "api": requests.post(
            base + "/api/submit-email", json={"email": EMAIL}, headers=client_id, timeout=10
        ),
        "personal link": requests.get(base + "/api/config/s3cr3t-token-of-a-visitor", timeout=10),
        "error": requests.post(base + "/api/create-user", data="{not json", timeout=10),
        "page": requests.get(base + "/", timeout=10),
    }
    assert answers["not modified"].status_code == 304
    ids = {name: answer.headers["X-Request-Id"] for name, answer in answers.items()}
    assert len(set(ids.values())) == len(ids), "each answer has an id of its own"
    assert "chosen-by-the-client" not in ids.values(), "only a trusted proxy's id is kept"

    records = log_records(served)
    for record in records:
        assert {"time", "level", "logger", "message"} <= record.keys(), record
        assert datetime.fromisoformat(record["time"]).utcoffset() == timedelta(0)
    for name, answer in answers.items():
        line = line_of(records, ids[name])
        assert line["logger"] == "vpnsite.access"
        assert line["method"] == answer.request.method
        assert line["status"] == answer.status_code, name
        assert isinstance(line["duration_ms"], float)
    assert line_of(records, ids["personal link"])["route"] == "/api/config/<token>"
    assert line_of(records, ids["poll"])["route"] == "/api/user-count"
    assert line_of(records, ids["api"])["route"] == "/api/submit-email"
    assert records[-1]["message"] == "vpnsite stopped"

    text = served.log.read_text()
    assert EMAIL not in text and "s3cr3t-token" not in text
    addressed = [
        r for r in records if "127.0.0.1" in json.dumps(r) and not r["message"].startswith("vpnsite on")
    ]
    assert addressed == [], "no line but the one saying where it listens holds an address"


def test_a_trusted_proxys_request_id_is_kept_and_a_hostile_one_replaced(serve: Serve) -> None:
    served = serve(log_format="json", trusted_proxies="127.0.0.1")
    kept = requests.get(
        served.base + "/api/server-status", headers={"X-Request-Id": "edge-7f3a.1"}, timeout=10
    )
    assert kept.headers["X-Request-Id"] == "edge-7f3a.1"
    submitted = requests.post(
        served.base + "/api/submit-email",
        json={"email": EMAIL},
        headers={"X-Request-Id": "edge-7f3a.2"},
        timeout=10,
    )
    assert submitted.headers["X-Request-Id"] == "edge-7f3a.2"

    hostile = {
        "folded onto a second line": b'forged\r\n {"level": "CRITICAL"}',
        "ten kilobytes": b"a" * 10240,
        "a tab": b"tab\there",
    }
    given = {
        name: header_of(raw_get(served.base, "/api/user-count", value), b"X-Request-Id")
        for name, value in hostile.items()
    }
    for name, value in given.items():
        assert value and len(value) <= 128 and value.isalnum(), (name, value)

    records = log_records(served)
    assert line_of(records, "edge-7f3a.1")["route"] == "/api/server-status"
    assert line_of(records, "edge-7f3a.2")["status"] == 200
    for value in given.values():
        assert line_of(records, value)["route"] == "/api/user-count"
    assert "forged" not in served.log.read_text()


def test_text_stays_the_default(serve: Serve) -> None:
    served = serve()
    answer = requests.get(served.base + "/api/user-count", timeout=10)
    assert answer.headers["X-Request-Id"]
    deadline = time.monotonic() + 10
    while "/api/user-count" not in served.log.read_text():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    line = next(line for line in served.log.read_text().splitlines() if "/api/user-count" in line)
    assert " INFO vpnsite.access: GET /api/user-count 200 " in line and not line.startswith("{")


def test_an_unknown_log_format_is_a_clear_error(tmp_path: Path) -> None:
    finished = vpnsite(
        "serve", env={**os.environ, "VPNSITE_DATA_DIR": str(tmp_path), "VPNSITE_LOG_FORMAT": "xml"}
    )
    assert finished.returncode == 2
    assert finished.stderr.strip() == "vpnsite: VPNSITE_LOG_FORMAT must be one of text, json, not 'xml'"


def test_an_exception_is_one_field_of_its_records_line() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    logger = logging.getLogger("vpnsite.test-json-lines")
    logger.addHandler(handler)
    logger.propagate = False
    token = request_id.set("req-1")
    try:
        try:
            raise ValueError("first line\nsecond line")
        except ValueError:
            logger.exception("it failed\u2028here")
    finally:
        request_id.reset(token)
        logger.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1, "a traceback or a Unicode line separator makes no line of its own"
    record = json.loads(lines[0])
    assert record["message"] == "it failed\u2028here" and record["request_id"] == "req-1"
    assert (
        record["exception"].startswith("Traceback")
        and "ValueError: first line\nsecond line" in record["exception"]
    )
