"""Load: `vpnsite serve` on PostgreSQL under a mix of polling (90 %), sign-ups, licence checks and
archive downloads from wrk at 50, 200 and 1,000 concurrent connections: throughput, p50/p99
latency, failed answers and socket errors (the budget is zero 5xx). The baseline in the same run
is the bare waitress "hello" app at the same concurrency.

Usage: ``python bench/load.py [--seconds 15] [--threads 16]`` (needs wrk and the PostgreSQL of the
tests). Rate limits are off: one load generator is one address, not a million visitors.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import HERE, fresh_postgres, hello_app, requests_per_second, vpnsite  # noqa: E402


def run_mix(base: str, connections: int, seconds: int) -> str:
    args = [
        "wrk",
        "-t2",
        f"-c{connections}",
        f"-d{seconds}s",
        "--timeout",
        "10s",
        "--latency",
        "-s",
        str(HERE / "mix.lua"),
        base,
    ]
    output = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return next(line for line in output.splitlines() if line.startswith("MIX"))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--threads", type=int, default=16)
    args = parser.parse_args()
    with (
        fresh_postgres() as url,
        vpnsite(
            url,
            args.threads,
            settings={
                "rate_limits": "off",
                "access_log": "false",
                "db_pool_size": str(args.threads + 4),
                # Its sign-ups are a flood, which the proof of work would challenge: never here.
                "signup_challenge": "off",
            },
        ) as site,
        hello_app(args.threads) as hello,
    ):
        subprocess.run(
            [sys.executable, "-m", "vpnsite_adapters.cli.main", "vpn", "init"],
            check=False,
            capture_output=True,
        )
        for connections in (50, 200, 1000):
            bare = requests_per_second(
                subprocess.run(
                    ["wrk", "-t2", f"-c{connections}", f"-d{args.seconds}s", "--timeout", "10s", hello + "/"],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            mix = run_mix(site, connections, args.seconds)
            print(f"{connections:>5} connections  {mix}  (bare hello app {bare:.0f} rps)")


if __name__ == "__main__":
    main()
