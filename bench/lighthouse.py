"""Lighthouse on the website as served: starts its own `vpnsite serve --demo` on a fresh data
directory, runs Lighthouse (mobile unless --desktop) on every route in English and on three
routes in Russian, French and Portuguese, and prints one row per page: performance,
accessibility, best practices and SEO scores, CLS and LCP.

Budgets (--check exits 1 when one is missed): performance ≥ 98, accessibility 100, best
practices 100, CLS 0. SEO is reported, not budgeted: pages that must not be indexed
(/activation, /license) say so, and Lighthouse counts that against them.

Usage: ``python bench/lighthouse.py [--check] [--desktop] [--runs N] [--only PATH ...]`` after
``python build_ui.py``. Needs Lighthouse (LIGHTHOUSE, default `lighthouse` on PATH:
`npm install -g lighthouse`) and Chromium (CHROME_PATH, default /usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parent / "src"), str(HERE.parent / "adapters")]

from _harness import free_port, wait_until_up  # noqa: E402
from tests.site_map import ROUTES, localised  # noqa: E402

LIGHTHOUSE = os.environ.get("LIGHTHOUSE", "lighthouse")
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
PAGES = [*ROUTES, localised("/", "ru"), localised("/server-status", "fr"), localised("/license", "pt")]
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
# The least score per category; CLS must be nothing at all.
BUDGETS = {"performance": 98, "accessibility": 100, "best-practices": 100}
OPERATOR = {
    "VPNSITE_OPERATOR_NAME": "Bench Operator Ltd",
    "VPNSITE_OPERATOR_NUMBER": "00000000",
    "VPNSITE_OPERATOR_ADDRESS": "1 Bench Street, London",
    "VPNSITE_OPERATOR_EMAIL": "operator@example.org",
    "VPNSITE_OPERATOR_FOUNDER": "Bench Founder",
}


@contextmanager
def demo_site() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="vpnsite-lighthouse-") as data_dir:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = {
            **os.environ,
            **OPERATOR,
            "VPNSITE_DATA_DIR": data_dir,
            "VPNSITE_PUBLIC_URL": base,
            "VPNSITE_ACCESS_LOG": "false",
            "PYTHONPATH": os.pathsep.join(sys.path[:3]),
        }
        env.pop("VPNSITE_DATABASE_URL", None)
        command = [sys.executable, "-m", "vpnsite_adapters.cli.main", "serve", "--demo", "--port", str(port)]
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_until_up(base + "/readyz", server)
            yield base
        finally:
            server.terminate()
            server.wait(timeout=15)


class Row(NamedTuple):
    scores: dict[str, int]
    cls: float
    lcp_ms: float
    failing: list[str]  # the accessibility and best-practice audits that did not pass

    def misses(self) -> list[str]:
        missed = [
            f"{name} {self.scores[name]} < {least}"
            for name, least in BUDGETS.items()
            if self.scores[name] < least
        ]
        return missed + ([f"CLS {self.cls:.3f}"] if self.cls > 0 else [])


def audit(url: str, desktop: bool) -> Row:
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        command = [
            LIGHTHOUSE,
            url,
            "--quiet",
            "--output=json",
            f"--output-path={report.name}",
            f"--only-categories={','.join(CATEGORIES)}",
            "--chrome-flags=--headless=new --no-sandbox",
            *(["--preset=desktop"] if desktop else []),
        ]
        run = subprocess.run(
            command, env={**os.environ, "CHROME_PATH": CHROME}, capture_output=True, text=True
        )
        if run.returncode != 0:
            raise RuntimeError(f"lighthouse failed on {url}: {run.stderr.strip()[-600:]}")
        result = json.loads(Path(report.name).read_text())
    audits = result["audits"]
    failing = [
        ref["id"]
        for name in ("accessibility", "best-practices")
        for ref in result["categories"][name]["auditRefs"]
        if ref["weight"] and audits[ref["id"]]["score"] is not None and audits[ref["id"]]["score"] < 1
    ]
    return Row(
        scores={name: round(100 * (result["categories"][name]["score"] or 0)) for name in CATEGORIES},
        cls=audits["cumulative-layout-shift"]["numericValue"],
        lcp_ms=audits["largest-contentful-paint"]["numericValue"],
        failing=failing,
    )


def median_run(url: str, desktop: bool, runs: int) -> Row:
    """The run with the median performance score: one run on a busy machine can be an outlier."""
    rows = sorted((audit(url, desktop) for _ in range(runs)), key=lambda row: row.scores["performance"])
    return rows[len(rows) // 2]


def positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a whole number of runs: {text!r}")
    return int(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a page misses a budget")
    parser.add_argument("--desktop", action="store_true", help="Lighthouse's desktop preset")
    parser.add_argument("--only", nargs="+", metavar="PATH", help="these paths instead of the twelve")
    parser.add_argument(
        "--runs", type=positive, default=1, help="runs per page, the median reported (default 1)"
    )
    args = parser.parse_args()
    for tool in (LIGHTHOUSE, CHROME):
        if shutil.which(tool) is None:
            print(f"lighthouse.py: {tool} not found", file=sys.stderr)
            return 2
    missed: list[str] = []
    print(f"{'route':<20} {'perf':>4} {'a11y':>4} {'best':>4} {'seo':>4} {'CLS':>6} {'LCP':>7}")
    with demo_site() as base:
        for path in args.only or PAGES:
            row = median_run(base + path, args.desktop, args.runs)
            scores = " ".join(f"{row.scores[name]:>4}" for name in CATEGORIES)
            failing = f"  failing: {', '.join(row.failing)}" if row.failing else ""
            print(f"{path:<20} {scores} {row.cls:>6.3f} {row.lcp_ms / 1000:>6.2f}s{failing}", flush=True)
            missed += [f"{path}: {miss}" for miss in row.misses()]
    for line in missed:
        print(f"over budget: {line}")
    print("within budget" if not missed else f"{len(missed)} budget(s) missed")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
