"""Node API: how many VPN logins one hub process answers, and how long a login waits while the
website is busy.

1. logins per second: eight threads, each doing what a VPN server's node does for one client —
   login, established, ended — through the node's own client (`vpnsite_adapters.node.hub.Hub`);
   the baseline in the same run is the same client doing three calls to a bare waitress "hello"
   app per cycle;
2. login latency p50/p99: one login a time (with its established and ended) while wrk sends the
   website's usual mix (bench/mix.lua: 90 % polling, sign-ups, checks, archives), against the same
   latency with the website idle.

Usage: ``python bench/node.py [--seconds 10] [--users 200]`` (SQLite; ``--postgres`` for the
PostgreSQL of the tests). Needs wrk for the second part.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _harness import HERE, fresh_postgres, hello_app, vpnsite  # noqa: E402

from vpnsite_adapters.node.hub import Hub  # noqa: E402

THREADS = 8


@contextmanager
def hub(database_url: str | None) -> Iterator[tuple[str, str]]:
    """A `vpnsite serve` with one registered VPN server; its URL and the server's token."""
    found: dict[str, str] = {}

    def register_server(env: dict[str, str]) -> None:
        def cli(*args: str) -> str:
            command = [sys.executable, "-m", "vpnsite_adapters.cli.main", *args]
            return subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout

        cli("vpn", "init")
        added = cli(
            "vpn", "add-server", "bench-1", "--country", "nl", "--city", "Amsterdam", "--host", "vpn.example"
        )
        found["token"] = added.strip().splitlines()[-1]

    settings = {"rate_limits": "off", "access_log": "false", "db_pool_size": str(THREADS + 4)}
    with vpnsite(database_url, THREADS, prepare=register_server, **settings) as base:
        yield base, found["token"]


def in_threads(work: Callable[[int], None]) -> None:
    threads = [threading.Thread(target=work, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def sign_up(base: str, users: int) -> list[tuple[str, str]]:
    accounts = []
    with requests.Session() as session:
        for n in range(users):
            email = f"node-bench-{n}@example.org"
            form = session.post(base + "/api/submit-email", json={"email": email}).json()["form_data"]
            created = session.post(base + "/api/create-user", json={"email": form.pop("user_email"), **form})
            accounts.append((email, created.json()["user_code"]))
    return accounts


def login_cycle(client: Hub, email: str, code: str) -> float:
    """One client's whole stay as the node reports it; the login's own latency in seconds."""
    started = time.perf_counter()
    verdict = client.log_in(email, code)
    waited = time.perf_counter() - started
    if not verdict.admitted:
        raise RuntimeError(f"login refused: {verdict.reason}")
    client.session_event("established", verdict.session)
    client.session_event("ended", verdict.session)
    return waited


def logins_per_second(base: str, token: str, accounts: list[tuple[str, str]], seconds: float) -> float:
    client = Hub(base, token)
    stop = time.monotonic() + seconds
    counts = [0] * THREADS

    def work(n: int) -> None:
        mine = accounts[n::THREADS]
        i = 0
        while time.monotonic() < stop:
            email, code = mine[i % len(mine)]
            login_cycle(client, email, code)
            counts[n] += 1
            i += 1

    in_threads(work)
    return sum(counts) / seconds


def bare_cycles_per_second(base: str, seconds: float) -> float:
    """The same client, three calls per cycle, to an app that does nothing."""
    client = Hub(base, "none")
    stop = time.monotonic() + seconds
    counts = [0] * THREADS

    def work(n: int) -> None:
        while time.monotonic() < stop:
            for _ in range(3):
                client._call("x", {}, 5.0)
            counts[n] += 1

    in_threads(work)
    return sum(counts) / seconds


def latencies(base: str, token: str, accounts: list[tuple[str, str]], seconds: float) -> list[float]:
    client = Hub(base, token)
    waited = []
    stop = time.monotonic() + seconds
    i = 0
    while time.monotonic() < stop:
        email, code = accounts[i % len(accounts)]
        waited.append(login_cycle(client, email, code) * 1000)
        i += 1
        time.sleep(0.02)
    return waited


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()

    database = fresh_postgres() if args.postgres else None
    url = database.__enter__() if database else None
    try:
        with hub(url) as (base, token), hello_app(THREADS) as hello:
            accounts = sign_up(base, args.users)
            rates, bare = [], []
            for _ in range(args.rounds):
                rates.append(logins_per_second(base, token, accounts, args.seconds))
                bare.append(bare_cycles_per_second(hello, args.seconds))
            rate, anchor = statistics.median(rates), statistics.median(bare)
            print(
                f"logins/s (login + established + ended), {THREADS} threads: {rate:.0f} "
                f"(runs {', '.join(f'{r:.0f}' for r in rates)}); bare hello app, same client, "
                f"3 calls a cycle: {anchor:.0f} cycles/s; ratio {rate / anchor:.2f}"
            )

            idle = latencies(base, token, accounts, args.seconds)
            if shutil.which("wrk") is None:
                print("wrk is not installed (apt-get install wrk): no figure under website load")
                return
            load = subprocess.Popen(
                [
                    "wrk",
                    "-t2",
                    "-c50",
                    f"-d{int(args.seconds) + 3}s",
                    "--timeout",
                    "10s",
                    "-s",
                    str(HERE / "mix.lua"),
                    base,
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            time.sleep(1.0)
            busy = latencies(base, token, accounts, args.seconds)
            output = load.communicate()[0]
            mix = next((line for line in output.splitlines() if line.startswith("MIX")), output[-300:])
            print(
                f"login latency, website idle:   p50 {statistics.median(idle):.1f} ms, "
                f"p99 {percentile(idle, 0.99):.1f} ms ({len(idle)} logins)"
            )
            print(
                f"login latency, website busy:   p50 {statistics.median(busy):.1f} ms, "
                f"p99 {percentile(busy, 0.99):.1f} ms ({len(busy)} logins); "
                f"p99 ratio busy/idle {percentile(busy, 0.99) / percentile(idle, 0.99):.2f}"
            )
            print(f"website load beside it (wrk, 50 connections): {mix}")
    finally:
        if database:
            database.__exit__(None, None, None)


if __name__ == "__main__":
    main()
