"""Shared pieces of the benchmarks: servers started as subprocesses, wrk runs, fresh databases."""

from __future__ import annotations

import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import psycopg2
import requests

HERE = Path(__file__).resolve().parent
POSTGRES_ADMIN = os.environ.get("VPNSITE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_up(url: str, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            requests.get(url, timeout=1)
            return
        except requests.ConnectionError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


@contextmanager
def process(
    args: Sequence[str],
    url: str,
    env: dict[str, str] | None = None,
    started: Callable[[subprocess.Popen[bytes]], None] | None = None,
) -> Iterator[None]:
    """The process runs while the block does; ``started`` is told of it once it answers (for its
    pid, to read its CPU time, say)."""
    proc = subprocess.Popen(list(args), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_up(url, proc)
        if started is not None:
            started(proc)
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=15)


@contextmanager
def vpnsite(
    database_url: str | None,
    threads: int,
    *,
    prepare: Callable[[dict[str, str]], None] | None = None,
    started: Callable[[subprocess.Popen[bytes]], None] | None = None,
    settings: Mapping[str, str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """A `vpnsite serve` on a fresh data directory with ``settings`` (``VPNSITE_<NAME>``; a
    ``data_dir`` among them is used instead: a second hub sharing the first one's keys) and
    ``environ`` besides; ``prepare`` runs first with its environment (to register servers with
    the CLI, say); ``started`` is told of the process once it answers."""
    data_dir = Path(tempfile.mkdtemp(prefix="vpnsite-bench-"))
    port = free_port()
    env = {
        **os.environ,
        "VPNSITE_DATA_DIR": str(data_dir),
        "VPNSITE_PUBLIC_URL": f"http://127.0.0.1:{port}",
        "VPNSITE_OPERATOR_NAME": "Bench Operator Ltd",
        "VPNSITE_OPERATOR_NUMBER": "00000000",
        "VPNSITE_OPERATOR_ADDRESS": "1 Bench Street, London",
        "VPNSITE_OPERATOR_EMAIL": "operator@example.org",
        "VPNSITE_OPERATOR_FOUNDER": "Bench Founder",
        **{f"VPNSITE_{k.upper()}": v for k, v in (settings or {}).items()},
        **(environ or {}),
    }
    if database_url:
        env["VPNSITE_DATABASE_URL"] = database_url
    base = f"http://127.0.0.1:{port}"
    args = [
        sys.executable,
        "-m",
        "vpnsite_adapters.cli.main",
        "serve",
        "--port",
        str(port),
        "--threads",
        str(threads),
    ]
    try:
        if prepare is not None:
            prepare(env)
        with process(args, base + "/healthz", env, started):
            yield base
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


@contextmanager
def hello_app(threads: int) -> Iterator[str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with process([sys.executable, str(HERE / "hello_app.py"), str(port), str(threads)], base + "/"):
        yield base


@contextmanager
def fresh_postgres() -> Iterator[str]:
    name = f"vpnsite_bench_{uuid.uuid4().hex[:10]}"

    def admin(sql: str) -> None:
        connection = psycopg2.connect(POSTGRES_ADMIN)
        connection.autocommit = True
        with connection.cursor() as cursor:
            cursor.execute(sql)
        connection.close()

    admin(f"CREATE DATABASE {name}")
    try:
        yield POSTGRES_ADMIN.rsplit("/", 1)[0] + "/" + name
    finally:
        admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def wrk(
    url: str,
    seconds: int,
    connections: int,
    script: Path | None = None,
    headers: dict[str, str] | None = None,
) -> str:
    args = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for name, value in (headers or {}).items():
        args += ["-H", f"{name}: {value}"]
    if script is not None:
        args += ["-s", str(script)]
    return subprocess.run([*args, url], capture_output=True, text=True, check=True).stdout


def requests_per_second(output: str) -> float:
    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
    if match is None:
        raise RuntimeError(f"no throughput in wrk output:\n{output}")
    return float(match.group(1))


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def snapshot_refresh_ms(url: str, refreshes: int) -> float:
    """Median time of the status snapshot's refresh (user count and fleet), in process, on a
    database a hub has already migrated."""
    from vpnsite_adapters.jobs.status_snapshot import StatusSnapshot
    from vpnsite_adapters.runtime.clock_and_random import SystemClock
    from vpnsite_adapters.sql.store import SqlStore

    store = SqlStore.open(url, max_connections=2, run_migrations=False)
    try:
        snapshot = StatusSnapshot(store.licences, store.fleet, store.unit_of_work, SystemClock())
        snapshot.refresh()
        timings = []
        for _ in range(refreshes):
            started = time.perf_counter()
            snapshot.refresh()
            timings.append((time.perf_counter() - started) * 1000)
    finally:
        store.close()
    return statistics.median(timings)
