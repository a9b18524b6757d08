"""Node API: how many VPN logins one hub process answers, and how long a login waits while the
website is busy.

1. logins per second: eight threads, each doing what a VPN server's node does for one client —
   login, established, ended — through the node's own client (`vpnsite_node.hub.HubClient`);
   the baseline in the same run is the same client doing three calls to a bare waitress "hello"
   app per cycle;
2. login latency p50/p95: one login a time (with its established and ended) while wrk floods
   the website as fast as it answers (``wrk -t2 -c64`` on /api/server-status, or the website's
   usual mix with ``--mix``: bench/mix.lua), against the same latency with the website idle, in the
   same run — with the node API on the public listener (one process) and in a process of its own
   (two processes: VPNSITE_NODE_ADDRESS, VPNSITE_NODE_THREADS=4). The budget: p95 under the flood
   at most 4x the idle p95.

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
from typing import Any

import requests
from attrs import frozen

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _harness import HERE, free_port, fresh_postgres, hello_app, requests_per_second, vpnsite  # noqa: E402

from vpnsite_node.hub import HubClient  # noqa: E402

THREADS = 8
# Login p95 under the website's flood, at most this many times its idle p95.
BUDGET = 4.0


@contextmanager
def hub(database_url: str | None, own_process: bool) -> Iterator[tuple[str, str, str]]:
    """A `vpnsite serve` with one registered VPN server: the website's URL, the node API's and
    the server's token."""
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

    # Its licences are signed up in a burst, which the proof of work would challenge: never here.
    settings = {
        "rate_limits": "off",
        "access_log": "false",
        "db_pool_size": str(THREADS + 8),
        "signup_challenge": "off",
    }
    node_port = free_port()
    if own_process:
        settings["node_address"] = f"127.0.0.1:{node_port}"
    with vpnsite(database_url, THREADS, prepare=register_server, settings=settings) as base:
        yield base, f"http://127.0.0.1:{node_port}" if own_process else base, found["token"]


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


def login_cycle(client: HubClient, email: str, code: str) -> float:
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
    client = HubClient(base, token)
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
    client = HubClient(base, "none")
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
    client = HubClient(base, token)
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


def throughput(base: str, token: str, accounts: list[tuple[str, str]], hello: str, args: Any) -> None:
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


@frozen
class Round:
    idle: list[float]
    busy: list[float]
    flood_rate: float


def under_load(site: str, node: str, token: str, accounts: list[tuple[str, str]], args: Any) -> Round:
    """Login latency idle, then while wrk floods the website."""
    idle = latencies(node, token, accounts, args.seconds)
    flood = ["-s", str(HERE / "mix.lua"), site] if args.mix else [site + "/api/server-status"]
    load = subprocess.Popen(
        ["wrk", "-t2", f"-c{args.connections}", f"-d{int(args.seconds) + 3}s", "--timeout", "10s", *flood],
        stdout=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.0)
    busy = latencies(node, token, accounts, args.seconds)
    return Round(idle, busy, requests_per_second(load.communicate()[0]))


def table(rows: list[tuple[str, Round]]) -> None:
    print(
        "\nlogin latency, ms   idle p50 idle p95 busy p50 busy p95  p95 busy/idle  website under flood, req/s"
    )
    for name, row in rows:
        idle95, busy95 = percentile(row.idle, 0.95), percentile(row.busy, 0.95)
        print(
            f"{name:18s} {statistics.median(row.idle):8.1f} {idle95:8.1f} "
            f"{statistics.median(row.busy):8.1f} {busy95:8.1f} {busy95 / idle95:13.1f}x"
            f"  {row.flood_rate:10.0f}"
        )
    for layout in ("one process", "two processes"):
        rounds = [row for name, row in rows if name == layout]
        if rounds:
            ratio = statistics.median(percentile(r.busy, 0.95) / percentile(r.idle, 0.95) for r in rounds)
            verdict = "within" if ratio <= BUDGET else "over"
            print(f"{layout}: median p95 busy/idle {ratio:.1f}x ({verdict} the budget of {BUDGET:.0f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--latency-only", action="store_true", help="skip the logins/s figure")
    parser.add_argument("--mix", action="store_true", help="flood with the website's mix (bench/mix.lua)")
    parser.add_argument("--connections", type=int, default=64, help="wrk's connections (default 64)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (apt-get install wrk)")
    rows = []
    for own_process in (False, True):
        database = fresh_postgres() if args.postgres else None
        url = database.__enter__() if database else None
        try:
            with hub(url, own_process) as (site, node, token), hello_app(THREADS) as hello:
                accounts = sign_up(site, args.users)
                if not own_process and not args.latency_only:
                    throughput(node, token, accounts, hello, args)
                for _ in range(args.rounds):
                    name = "two processes" if own_process else "one process"
                    rows.append((name, under_load(site, node, token, accounts, args)))
        finally:
            if database:
                database.__exit__(None, None, None)
    table(rows)


if __name__ == "__main__":
    main()
