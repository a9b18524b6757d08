"""The operator's Prometheus metrics, scraped from a real `vpnsite serve` as Prometheus would:
what a dashboard relies on is counted, under route templates and fixed words, never a person's
data; the metrics stay off the public site unless a token guards them."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import psycopg2
import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.integration.processes import free_port, vpnsite
from tests.support.serve import Served, signed_form, stop
from tests.support.serve import serve as start_serve
from vpnsite.codes import luhn_check_digit
from vpnsite_adapters.settings import SettingsError, load_settings

TOKEN = "m" * 16 + "3tr1cs-t0ken-for-the-test"
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
Serve = Callable[..., tuple[Served, str]]


@pytest.fixture
def serve(tmp_path: Path, database_url: str) -> Iterator[Serve]:
    """Start `vpnsite serve` with VPNSITE_* settings and its metrics on a port of their own;
    return the process and where its metrics are."""
    started: list[subprocess.Popen[bytes]] = []

    def start(**settings: str) -> tuple[Served, str]:
        port, metrics_port = free_port(), free_port()
        env = {
            **os.environ,
            "VPNSITE_DATA_DIR": str(tmp_path / f"data-{port}"),
            "VPNSITE_DATABASE_URL": database_url,
            "VPNSITE_METRICS_ADDRESS": f"127.0.0.1:{metrics_port}",
            **{f"VPNSITE_{key.upper()}": value for key, value in settings.items()},
        }
        served = start_serve(env, tmp_path / f"serve-{port}.log", port=port)
        started.append(served.process)
        return served, f"http://127.0.0.1:{metrics_port}/metrics"

    yield start
    for process in started:
        stop(process)


def scrape(url: str, **headers: str) -> tuple[str, Samples]:
    response = requests.get(url, headers=headers, timeout=10)
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("text/plain")
    samples = {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }
    return response.text, samples


def value(samples: Samples, name: str, **labels: str) -> float | None:
    return samples.get((name, frozenset(labels.items())))


def scrape_until(url: str, ready: Callable[[Samples], bool], what: str) -> tuple[str, Samples]:
    deadline = time.monotonic() + 20
    while True:
        text, samples = scrape(url)
        if ready(samples):
            return text, samples
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def test_a_dashboard_sees_what_visitors_and_servers_did_and_nothing_personal(
    serve: Serve, database_url: str
) -> None:
    # Mail goes to an SMTP port nobody listens on: the licence e-mail waits in the queue.
    served, metrics = serve(rate_limits="check-license:ip=2/1m", mail_url=f"smtp://127.0.0.1:{free_port()}")
    base = served.base
    email = "dana@example.org"
    created = requests.post(base + "/api/create-user", json=signed_form(base, email), timeout=10)
    assert created.status_code == 200
    code = created.json()["user_code"]
    archive = urlsplit(created.json()["activation_url"]).path
    archive_token = archive.rsplit("/", 1)[1]
    assert requests.get(base + archive, timeout=10).status_code == 200

    payload = str(int(code[:-1]) + 1).zfill(len(code) - 1)
    wrong = payload + luhn_check_digit(payload)
    check = {"email": email, "activation_code": wrong}
    assert requests.post(base + "/api/check-license", json=check, timeout=10).status_code == 404
    check["activation_code"] = code
    assert requests.post(base + "/api/check-license", json=check, timeout=10).status_code == 200
    assert requests.post(base + "/api/check-license", json=check, timeout=10).status_code == 429

    first = requests.get(base + "/api/user-count", timeout=10)
    etag = first.headers["ETag"]
    polled = requests.get(base + "/api/user-count", headers={"If-None-Match": etag}, timeout=10)
    assert polled.status_code == 304
    assert requests.get(base + "/api/no-such-thing", timeout=10).status_code == 404
    login = requests.post(
        base + "/api/node/login",
        json={"username": email, "password": code},
        headers={"Authorization": "Bearer not-a-server-token"},
        timeout=10,
    )
    assert login.status_code == 401

    text, samples = scrape_until(
        metrics,
        lambda samples: (value(samples, "vpnsite_mail_send_failures_total") or 0) >= 1,
        "the mail sender did not report its failure to reach the SMTP server",
    )

    assert value(samples, "vpnsite_signups_total") == 1
    assert value(samples, "vpnsite_licence_checks_total", outcome="ok") == 1
    assert value(samples, "vpnsite_licence_checks_total", outcome="not_found") == 1
    assert value(samples, "vpnsite_licence_checks_total", outcome="limited") == 1
    assert value(samples, "vpnsite_rate_limit_refusals_total", action="check-license") == 1
    assert value(samples, "vpnsite_rate_limit_refusals_total", action="submit-email") == 0
    assert value(samples, "vpnsite_node_logins_total", result="bad_token") == 1
    requests_total = "vpnsite_http_requests_total"
    assert value(samples, requests_total, route="/api/check-license", method="POST", status="200") == 1
    assert value(samples, requests_total, route="/api/check-license", method="POST", status="404") == 1
    assert value(samples, requests_total, route="/api/check-license", method="POST", status="429") == 1
    assert value(samples, requests_total, route="/api/config/<token>", method="GET", status="200") == 1
    assert value(samples, requests_total, route="/api/user-count", method="GET", status="200") == 1
    assert value(samples, requests_total, route="/api/user-count", method="GET", status="304") == 1
    assert value(samples, requests_total, route="unmatched", method="GET", status="404") == 1
    assert value(samples, "vpnsite_http_request_duration_seconds_count", route="/api/check-license") == 3
    assert value(samples, "vpnsite_mail_queued") == 1
    assert (value(samples, "vpnsite_mail_oldest_queued_age_seconds") or 0) > 0
    assert value(samples, "vpnsite_database_errors_total") == 0
    pool = value(samples, "vpnsite_database_connections_in_use")
    assert (pool is None) == database_url.startswith("sqlite:"), "SQLite has no pool to report"
    age = value(samples, "vpnsite_status_snapshot_age_seconds")
    assert age is not None and 0 <= age < 10, "the snapshot refreshes every second"

    for personal in (email, code, wrong, archive_token, "127.0.0.1", "no-such-thing", "not-a-server-token"):
        assert personal not in text


@pytest.mark.postgres
def test_the_scrape_answers_while_the_database_is_away(
    serve_on_postgres: tuple[Serve, str],
) -> None:
    start, database = serve_on_postgres
    _served, metrics = start()
    _, before = scrape(metrics)
    assert value(before, "vpnsite_mail_queued") == 0
    assert value(before, "vpnsite_database_connections_in_use") is not None
    assert value(before, "vpnsite_database_errors_total") == 0

    drop_database(database)

    _, during = scrape_until(
        metrics,
        lambda samples: (value(samples, "vpnsite_database_errors_total") or 0) >= 1,
        "no database error was counted",
    )
    assert value(during, "vpnsite_mail_queued") is None, "a gauge it cannot read is left out"
    assert value(during, "vpnsite_users") == 0, "the snapshot's gauges answer from memory"


@pytest.fixture
def serve_on_postgres(tmp_path: Path, fresh_postgres_url: str) -> Iterator[tuple[Serve, str]]:
    """`vpnsite serve` on a PostgreSQL database of its own, which the test may drop."""
    started: list[subprocess.Popen[bytes]] = []

    def start() -> tuple[Served, str]:
        port, metrics_port = free_port(), free_port()
        env = {
            **os.environ,
            "VPNSITE_DATA_DIR": str(tmp_path / "data"),
            "VPNSITE_DATABASE_URL": fresh_postgres_url,
            "VPNSITE_METRICS_ADDRESS": f"127.0.0.1:{metrics_port}",
        }
        served = start_serve(env, tmp_path / "serve.log", port=port)
        started.append(served.process)
        return served, f"http://127.0.0.1:{metrics_port}/metrics"

    yield start, fresh_postgres_url
    for process in started:
        stop(process)


def drop_database(url: str) -> None:
    admin, name = url.rsplit("/", 1)
    connection = psycopg2.connect(f"{admin}/postgres")
    connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        connection.close()


def test_the_public_sites_metrics_need_the_token(serve: Serve) -> None:
    without, _ = serve()
    answer = requests.get(without.base + "/metrics", timeout=10)
    assert answer.status_code == 404, "without a token the path is unknown, like any other"
    assert "vpnsite_" not in answer.text

    guarded, _ = serve(metrics_token=TOKEN)
    for headers in ({}, {"Authorization": "Bearer " + TOKEN[:-1] + "x"}, {"Authorization": TOKEN}):
        refused = requests.get(guarded.base + "/metrics", headers=headers, timeout=10)
        assert refused.status_code == 401
        assert refused.headers["WWW-Authenticate"] == "Bearer"
        assert refused.json()["code"] == "metrics_unauthorized" and refused.json()["detail"]
    _, samples = scrape(guarded.base + "/metrics", Authorization="Bearer " + TOKEN)
    assert value(samples, "vpnsite_http_requests_total", route="/metrics", method="GET", status="401") == 3


@pytest.mark.parametrize(
    ("name", "given", "says"),
    [
        ("METRICS_TOKEN", "short", "at least 32"),
        ("METRICS_TOKEN", "changeme", "at least 32"),
        ("METRICS_ADDRESS", "9108", "host:port"),
        ("METRICS_ADDRESS", "127.0.0.1:99999", "host:port"),
    ],
)
def test_metrics_settings_are_checked(tmp_path: Path, name: str, given: str, says: str) -> None:
    with pytest.raises(SettingsError, match=says):
        load_settings({f"VPNSITE_{name}": given}, env_file=None, data_dir=tmp_path)


def test_ipv6_metrics_address_is_understood(tmp_path: Path) -> None:
    settings = load_settings({"VPNSITE_METRICS_ADDRESS": "[::1]:9108"}, env_file=None, data_dir=tmp_path)
    assert settings.metrics_address == ("::1", 9108)


def test_serve_says_so_when_the_metrics_port_is_taken(environment: dict[str, str]) -> None:
    port = free_port()
    with socket_listening(port):
        result = vpnsite(
            "serve",
            "--port",
            str(free_port()),
            env={
                **environment,
                "VPNSITE_PUBLIC_URL": "https://vpn.example",
                "VPNSITE_METRICS_ADDRESS": f"127.0.0.1:{port}",
            },
        )
    assert result.returncode == 2
    assert f"cannot serve metrics on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr


@contextmanager
def socket_listening(port: int) -> Iterator[None]:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        yield
