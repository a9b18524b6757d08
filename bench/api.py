"""API benchmarks, in one run:

1. polling: requests per second of ``GET /api/user-count`` against a bare waitress "hello" app with
   the same threads and the same client (wrk); budget ≥ 70 % of the bare app;
2. complete sign-ups per second (submit-email + create-user) on SQLite and PostgreSQL; budget ≥ 200/s;
3. licence-check latency with 1,000 and 1,000,000 licences in the store; budget: flat.

Usage: ``python bench/api.py [--rounds 3] [--seconds 5] [--skip-million]``. Needs ``wrk`` (Debian
package) and, for the PostgreSQL figures, the server of the tests.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import (  # noqa: E402
    HERE,
    fresh_postgres,
    hello_app,
    median,
    requests_per_second,
    vpnsite,
    wrk,
)

THREADS = 8
# A million seeded licences are a million users: lift the free-tier cap so the probe can sign up.
SEEDED = {"rate_limits": "off", "access_log": "false", "free_tier_cap": "100000000"}


def polling(rounds: int, seconds: int) -> None:
    bare, ours = [], []
    with hello_app(THREADS) as hello, vpnsite(None, THREADS) as site:
        for _ in range(rounds):
            bare.append(requests_per_second(wrk(hello + "/", seconds, 32)))
            ours.append(requests_per_second(wrk(site + "/api/user-count", seconds, 32)))
    ratio = median(ours) / median(bare)
    print(
        f"polling  bare waitress {median(bare):8.0f} req/s   /api/user-count {median(ours):8.0f} req/s"
        f"   ratio {ratio:.2f} (budget ≥ 0.70)  runs: bare {bare} ours {ours}"
    )


def signups(rounds: int, seconds: int) -> None:
    for label, database in (("sqlite", None), ("postgres", "postgres")):
        rates = []
        for _ in range(rounds):
            if database:
                with (
                    fresh_postgres() as url,
                    vpnsite(url, THREADS, rate_limits="off", access_log="false") as site,
                ):
                    rates.append(_signup_rate(site, seconds))
            else:
                with vpnsite(None, THREADS, rate_limits="off", access_log="false") as site:
                    rates.append(_signup_rate(site, seconds))
        print(f"sign-ups {label:8s} {median(rates):6.0f} complete sign-ups/s (budget ≥ 200)  runs: {rates}")


def _signup_rate(site: str, seconds: int) -> float:
    output = wrk(site, seconds, 16, HERE / "signup.lua")
    line = next(line for line in output.splitlines() if line.startswith("CREATED"))
    _, created, _, failed, _, elapsed = line.split()
    if int(failed):
        raise RuntimeError(f"{failed} sign-up calls failed")
    return round(int(created) / float(elapsed), 1)


def _seed(database_url: str, count: int) -> None:
    from vpnsite_adapters.sql.database import to_db
    from vpnsite_adapters.sql.store import SqlStore

    store = SqlStore.open(database_url)
    licences = store.signups.models.Licence  # type: ignore[attr-defined]
    now = datetime.now(UTC)
    batch = 5000 if "postgres" in database_url else 10000
    with store.db.atomic():
        for start in range(0, count, batch):
            rows = [
                {
                    "id": secrets.token_hex(16),
                    "email": f"seed{n}@example.org",
                    "email_key": f"seed{n}@example.org",
                    "code_hash": secrets.token_hex(32),
                    "starts_at": to_db(now),
                    "ends_at": to_db(now + timedelta(days=90)),
                }
                for n in range(start, min(count, start + batch))
            ]
            licences.insert_many(rows).execute()
    # A production database has been analysed by autovacuum long since; a freshly filled one has
    # not, and its planner and the background analyse would skew the first measurements.
    store.db.execute_sql("ANALYZE")
    store.close()


def _check_latency(site: str, samples: int) -> tuple[float, float]:
    session = requests.Session()
    form = session.post(site + "/api/submit-email", json={"email": "probe@example.org"}).json()["form_data"]
    created = session.post(site + "/api/create-user", json={"email": form.pop("user_email"), **form}).json()
    body = {"email": "probe@example.org", "activation_code": created["user_code"]}
    for _ in range(100):  # steady state: the measured calls should not pay for a cold cache
        session.post(site + "/api/check-license", json=body)
    timings = []
    for _ in range(samples):
        started = time.perf_counter()
        response = session.post(site + "/api/check-license", json=body)
        timings.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.text
    timings.sort()
    return statistics.median(timings), timings[int(len(timings) * 0.99) - 1]


def check_latency(sizes: list[int], samples: int) -> None:
    import tempfile

    from vpnsite_adapters.settings import sqlite_url

    for label in ("sqlite", "postgres"):
        results = {}
        for size in sizes:
            if label == "postgres":
                with fresh_postgres() as url:
                    _seed(url, size)
                    with vpnsite(url, THREADS, **SEEDED) as site:
                        results[size] = _check_latency(site, samples)
            else:
                with tempfile.TemporaryDirectory() as folder:
                    url = sqlite_url(Path(folder) / "seeded.db")
                    _seed(url, size)
                    with vpnsite(url, THREADS, **SEEDED) as site:
                        results[size] = _check_latency(site, samples)
        small, large = results[sizes[0]], results[sizes[-1]]
        figures = "   ".join(
            f"{size:>9,} licences: p50 {p50:.2f} ms p99 {p99:.2f} ms" for size, (p50, p99) in results.items()
        )
        print(f"check    {label:8s} {figures}   p50 ratio {large[0] / small[0]:.2f} (budget: flat)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--skip-million", action="store_true", help="compare 1,000 with 10,000 licences only")
    parser.add_argument("--only", choices=["polling", "signups", "check"])
    args = parser.parse_args()
    if args.only in (None, "polling"):
        polling(args.rounds, args.seconds)
    if args.only in (None, "signups"):
        signups(args.rounds, args.seconds)
    if args.only in (None, "check"):
        check_latency([1_000, 10_000 if args.skip_million else 1_000_000], samples=300)


if __name__ == "__main__":
    main()
