"""Builds the website into the package data the Flask adapter serves (adapters/vpnsite_adapters/http/site/).

Runs `npm ci` in ui/ and the esbuild build (bundles per language, prerendered pages, sitemap).
`pip install .` runs it through setup.py; run it by hand after changing the website:

    python build_ui.py
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
UI = ROOT / "ui"
SITE = ROOT / "adapters" / "vpnsite_adapters" / "http" / "site"
MINIMUM_NODE = 18


class UiBuildError(RuntimeError):
    pass


def node_version() -> int:
    node = shutil.which("node")
    if node is None:
        raise UiBuildError(
            f"Node.js {MINIMUM_NODE} or newer is needed to build the website, and `node` is not on PATH. "
            "Install it (e.g. `apt-get install nodejs npm`) and try again."
        )
    output = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout
    match = re.match(r"v(\d+)", output.strip())
    major = int(match.group(1)) if match else 0
    if major < MINIMUM_NODE:
        raise UiBuildError(
            f"Node.js {MINIMUM_NODE} or newer is needed to build the website; found {output.strip()}."
        )
    return major


def build(out: Path = SITE) -> None:
    node_version()
    npm = shutil.which("npm")
    if npm is None:
        raise UiBuildError("npm is needed to build the website (it comes with Node.js).")
    env = {**os.environ, "npm_config_fund": "false", "npm_config_audit": "false"}
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=UI, check=True, env=env)
    subprocess.run(["node", "build.mjs", "--out", str(out)], cwd=UI, check=True, env=env)


if __name__ == "__main__":
    try:
        build()
    except (UiBuildError, subprocess.CalledProcessError) as error:
        print(f"build_ui: {error}", file=sys.stderr)
        sys.exit(1)
