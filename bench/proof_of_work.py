"""What the proof of work of sign-ups under pressure costs, against a real `vpnsite serve` that asks
every sign-up for a challenge (VPNSITE_SIGNUP_CHALLENGE=always):

1. an attacker without a browser: each licence is a 428, a challenge solved with Python's hashlib
   (the CPU-seconds of this process), the sign-up sent again with its solution, and create-user;
   and what native code would pay instead, from the rate at which this machine's OpenSSL compresses
   SHA-256 blocks (one block a candidate: the salt and number fit in one);
2. a phone: Chromium with its CPU slowed four times (CDP ``Emulation.setCPUThrottlingRate``), the
   home page's own script asked for a challenge, solving it and reaching the activation screen; the
   solve is timed in the page, from the 428's arrival to the solved sign-up's departure.

Medians over the runs, and the rates behind them, so the median of the challenge (half of
``maxnumber`` tried) can be read off however the drawn numbers fell.

Usage: ``python bench/proof_of_work.py [--licences N] [--phone-solves N] [--throttle R]`` after
``python build_ui.py`` (the phone part needs Playwright and Chromium, CHROME_PATH, default
/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parent / "src"), str(HERE.parent / "adapters")]

from _harness import free_port, wait_until_up  # noqa: E402
from tests.support.serve import OPERATOR_ENV  # noqa: E402

CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")


@contextmanager
def challenging_site() -> Iterator[str]:
    """A `vpnsite serve` that asks every sign-up for a challenge, with no rate limit in the way."""
    with tempfile.TemporaryDirectory(prefix="vpnsite-pow-") as data_dir:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = {
            **os.environ,
            **OPERATOR_ENV,
            "VPNSITE_DATA_DIR": data_dir,
            "VPNSITE_PUBLIC_URL": base,
            "VPNSITE_ACCESS_LOG": "false",
            "VPNSITE_SIGNUP_CHALLENGE": "always",
            "VPNSITE_RATE_LIMITS": "off",
            "PYTHONPATH": os.pathsep.join(sys.path[:4]),
        }
        env.pop("VPNSITE_DATABASE_URL", None)
        command = [sys.executable, "-m", "vpnsite_adapters.cli.main", "serve", "--port", str(port)]
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_until_up(base + "/readyz", server)
            yield base
        finally:
            server.terminate()
            server.wait(timeout=15)


def solve(challenge: dict[str, Any]) -> tuple[int, int]:
    """ALTCHA's search with hashlib, as an attacker's script runs it: the number, and how many
    candidates it took."""
    salt = challenge["salt"].encode()
    target = bytes.fromhex(challenge["challenge"])
    sha256 = hashlib.sha256
    for number in range(challenge["maxnumber"] + 1):
        if sha256(salt + str(number).encode()).digest() == target:
            return number, number + 1
    raise RuntimeError("no solution")


def attacker(base: str, licences: int) -> dict[str, float]:
    seconds, tried, maxnumber = [], [], 0
    for n in range(licences):
        email = f"attacker{n}@example.org"
        asked = requests.post(base + "/api/submit-email", json={"email": email}, timeout=10)
        assert asked.status_code == 428, asked.text
        challenge = asked.json()["challenge"]
        maxnumber = challenge["maxnumber"]
        start = time.process_time()
        number, candidates = solve(challenge)
        seconds.append(time.process_time() - start)
        tried.append(candidates)
        fields = {name: challenge[name] for name in ("algorithm", "challenge", "salt", "signature")}
        altcha = base64.b64encode(json.dumps({**fields, "number": number}).encode()).decode()
        signed = requests.post(
            base + "/api/submit-email", json={"email": email, "altcha": altcha}, timeout=10
        )
        assert signed.status_code == 200, signed.text
        form = signed.json()["form_data"]
        made = requests.post(
            base + "/api/create-user", json={"email": form.pop("user_email"), **form}, timeout=10
        )
        assert made.status_code == 200, made.text
    rate = sum(tried) / sum(seconds)
    return {
        "maxnumber": maxnumber,
        "median_seconds": statistics.median(seconds),
        "mean_seconds": statistics.fmean(seconds),
        "hashes_per_second": rate,
        "median_challenge_seconds": (maxnumber / 2) / rate,
    }


def native_blocks_per_second() -> float:
    """How many 64-byte SHA-256 blocks this machine's OpenSSL compresses a second on one core: what a
    solver in C (or any native code) does per candidate, without Python's per-call cost."""
    data = b"\0" * (64 << 20)
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        hashlib.sha256(data).digest()
        best = max(best, len(data) / 64 / (time.perf_counter() - start))
    return best


PHONE_SCRIPT = """
window.__solves = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.name.endsWith("/api/submit-email")) continue;
    window.__submits = (window.__submits || []).concat([[entry.startTime, entry.responseEnd]]);
  }
}).observe({ type: "resource", buffered: true });
"""


WEB_CRYPTO = """async ([salt, count]) => {
  const encoder = new TextEncoder();
  const start = performance.now();
  for (let first = 0; first < count; first += 1000) {
    const batch = [];
    for (let number = first; number < first + 1000; number++) {
      batch.push(crypto.subtle.digest("SHA-256", encoder.encode(salt + number)));
    }
    await Promise.all(batch);
  }
  return count / ((performance.now() - start) / 1000);
}"""


def phone(base: str, solves: int, throttle: float, maxnumber: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    seconds: list[float] = []
    numbers: list[int] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROME, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True, base_url=base)
        page = context.new_page()
        page.add_init_script(PHONE_SCRIPT)
        cdp = context.new_cdp_session(page)

        def sent(request: Any) -> None:
            body = json.loads(request.post_data or "{}") if request.url.endswith("/api/submit-email") else {}
            if body.get("altcha"):
                numbers.append(json.loads(base64.b64decode(body["altcha"]))["number"])

        page.on("request", sent)
        for n in range(solves):
            page.goto("/", wait_until="networkidle")
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            page.fill("#signup-email", f"phone{n}@example.org")
            page.locator("#signup button[type=submit]").click()
            page.wait_for_url("**/activation", timeout=120_000)
            submits = page.evaluate("window.__submits")
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            assert len(submits) == 2, submits
            # From the 428's arrival to the solved sign-up leaving: loading the solver (the first
            # time), solving, and sending.
            seconds.append((submits[1][0] - submits[0][1]) / 1000)
        # What Web Crypto would do in the same page, batched a thousand digests at a time: why the
        # site's solver hashes in JavaScript instead.
        page.goto("/", wait_until="networkidle")
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        web_crypto = float(
            page.evaluate(WEB_CRYPTO, ["0a1b2c3d4e5f60718293a4b5?expires=1800000000&", 100_000])
        )
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        browser.close()
    rate = (sum(numbers) + len(numbers)) / sum(seconds)
    return {
        "median_seconds": statistics.median(seconds),
        "max_seconds": max(seconds),
        "solves": len(seconds),
        "hashes_per_second": rate,
        "median_challenge_seconds": (maxnumber / 2) / rate,
        "web_crypto_hashes_per_second": web_crypto,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--licences", type=int, default=30, help="licences the attacker takes")
    parser.add_argument("--phone-solves", type=int, default=9, help="sign-ups the phone makes")
    parser.add_argument("--throttle", type=float, default=4, help="Chromium's CPU slow-down")
    args = parser.parse_args()
    with challenging_site() as base:
        taken = attacker(base, args.licences)
        native = native_blocks_per_second()
        half = taken["maxnumber"] / 2
        print(f"challenge: maxnumber {taken['maxnumber']:,}: {half:,.0f} candidates at the median")
        print(
            f"attacker, Python hashlib ({args.licences} licences): "
            f"{taken['median_seconds']:.3f} CPU-s a licence "
            f"(median; mean {taken['mean_seconds']:.3f}), {taken['hashes_per_second'] / 1e6:.2f} M hashes/s, "
            f"{taken['median_challenge_seconds']:.3f} CPU-s for the median challenge"
        )
        print(
            f"attacker, native code: {native / 1e6:.1f} M blocks/s on one core (OpenSSL), "
            f"{taken['maxnumber'] / 2 / native * 1000:.1f} ms CPU for the median challenge"
        )
        if args.phone_solves:
            held = phone(base, args.phone_solves, args.throttle, int(taken["maxnumber"]))
            print(
                f"phone, Chromium at {args.throttle:g}x CPU slow-down ({held['solves']:.0f} solves): "
                f"{held['median_seconds']:.2f} s median, {held['max_seconds']:.2f} s at most; "
                f"{held['hashes_per_second'] / 1e6:.2f} M hashes/s, "
                f"{held['median_challenge_seconds']:.2f} s for the median challenge "
                f"(Web Crypto in the same page: {held['web_crypto_hashes_per_second'] / 1e6:.2f} M hashes/s)"
            )


if __name__ == "__main__":
    main()
