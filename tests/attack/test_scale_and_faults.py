"""Two `vpnsite serve` processes on one PostgreSQL behave as one service; PostgreSQL going away
mid-traffic gets clear 503s, the polling keeps answering, and the service recovers by itself."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.integration.processes import free_port
from tests.support.serve import serve, signed_form, stop

SECRET = "scale-out-tests-share-this-secret-0123456789"


def start_serve(database_url: str, data_dir: Path, **settings: str) -> tuple[subprocess.Popen[bytes], str]:
    env = {
        **os.environ,
        "VPNSITE_DATA_DIR": str(data_dir),
        "VPNSITE_DATABASE_URL": database_url,
        "VPNSITE_SECRET_KEY": SECRET,
        **{f"VPNSITE_{key.upper()}": value for key, value in settings.items()},
    }
    served = serve(env, data_dir.parent / f"serve-{data_dir.name}.log")
    return served.process, served.base


@pytest.fixture
def two_processes(fresh_postgres_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    settings = {"free_tier_cap": "3", "rate_limits": "check-license:ip=10/1m"}
    first, a = start_serve(fresh_postgres_url, tmp_path / "a", **settings)
    second, b = start_serve(fresh_postgres_url, tmp_path / "b", **settings)
    yield a, b
    for process in (first, second):
        stop(process)


def test_two_processes_share_requests_limits_and_the_cap(two_processes: tuple[str, str]) -> None:
    a, b = two_processes
    payload = signed_form(a, "one@example.org")
    created = requests.post(b + "/api/create-user", json=payload)
    assert created.status_code == 200, "a request issued by one process is redeemed by the other"
    for base in (a, b):
        replay = requests.post(base + "/api/create-user", json=payload)
        assert replay.status_code == 400 and "already been used" in replay.json()["detail"]

    body = {"email": "one@example.org", "activation_code": created.json()["user_code"]}
    statuses = [requests.post((a, b)[n % 2] + "/api/check-license", json=body).status_code for n in range(11)]
    assert statuses[:10] == [200] * 10 and statuses[10] == 429, "the limit counts calls on both"

    for n, base in enumerate((b, a), start=2):
        assert (
            requests.post(
                base + "/api/create-user", json=signed_form(base, f"user{n}@example.org")
            ).status_code
            == 200
        )
    deadline = time.monotonic() + 5
    while {requests.get(base + "/api/user-count").json()["user_count"] for base in (a, b)} != {3}:
        assert time.monotonic() < deadline, "the snapshots agree within their refresh period"
        time.sleep(0.2)
    for base in (a, b):
        full = requests.post(base + "/api/submit-email", json={"email": "late@example.org"})
        assert full.status_code == 403 and full.json()["code"] == "free_tier_full"


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found and shutil.which("runuser") else None


class PrivateCluster:
    """A PostgreSQL of this test's own, so it can be stopped without touching anyone else's."""

    def __init__(self) -> None:
        bin_dir = _postgres_bin()
        if bin_dir is None:
            if os.environ.get("CI") == "true":
                pytest.fail("PostgreSQL's server binaries are needed under CI=true")
            pytest.skip("PostgreSQL's server binaries (pg_ctl, initdb) are not installed")
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="vpnsite-pg-"))
        shutil.chown(self.dir, "postgres", "postgres")
        self.port = free_port()
        self.as_postgres(
            str(self.bin / "initdb"), "-D", str(self.dir / "data"), "-A", "trust", "-U", "postgres"
        )
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def as_postgres(self, *args: str) -> None:
        # No pipes: the server pg_ctl starts would hold them open and nothing would ever return.
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *args],
            check=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        self.as_postgres(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.dir / "data"),
            "-l",
            str(self.dir / "log"),
            "-o",
            options,
            "-w",
            "start",
        )

    def stop(self) -> None:
        self.as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.dir / "data"),
                "-m",
                "immediate",
                "stop",
            ],
            capture_output=True,
        )
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def cluster(postgres_server: str) -> Iterator[PrivateCluster]:
    private = PrivateCluster()
    private.start()
    yield private
    private.remove()


def test_postgres_going_away_and_coming_back(cluster: PrivateCluster, tmp_path: Path) -> None:
    process, base = start_serve(cluster.url, tmp_path / "hub", rate_limits="off")
    try:
        created = 0
        for n in range(3):
            if (
                requests.post(
                    base + "/api/create-user", json=signed_form(base, f"before{n}@example.org")
                ).status_code
                == 200
            ):
                created += 1
        deadline = time.monotonic() + 10
        while requests.get(base + "/api/user-count").json()["user_count"] != 3:
            assert time.monotonic() < deadline, "the snapshot counts the three within its refresh period"
            time.sleep(0.1)

        cluster.stop()
        # Submitting an e-mail writes nothing (without rate limits it needs no database at all);
        # the licence is what cannot be issued.
        form = signed_form(base, "during@example.org")
        started = time.monotonic()
        refused = requests.post(base + "/api/create-user", json=form, timeout=30)
        assert refused.status_code == 503
        assert refused.json()["code"] == "unavailable" and "Traceback" not in refused.text
        assert time.monotonic() - started < 15, "no hang longer than the connection timeout"
        assert requests.get(base + "/readyz", timeout=30).status_code == 503
        polled = requests.get(base + "/api/user-count", timeout=5)
        assert polled.status_code == 200 and polled.json()["user_count"] == 3, (
            "the last snapshot keeps serving"
        )
        assert requests.get(base + "/api/server-status", timeout=5).status_code == 200

        cluster.start()
        deadline = time.monotonic() + 30
        while True:
            response = requests.post(base + "/api/create-user", json=form, timeout=30)
            if response.status_code == 200:
                break
            assert response.status_code == 503 and time.monotonic() < deadline, "recovers without a restart"
            time.sleep(0.5)
        created += 1
        import psycopg2

        with psycopg2.connect(cluster.url) as connection, connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM licence")
            assert cursor.fetchone()[0] == created, "no half-written licence"
    finally:
        stop(process)
