"""Builds the website into the package data the Flask adapter serves (adapters/vpnsite_adapters/http/site/).

Runs `npm ci` in ui/ and the esbuild build (bundles per language, prerendered pages, sitemap),
then packs the project's own source into the site (`source/vpnsite-source.tar.gz`), which the site
serves and links to as its source code, so the link always reaches the code that is running.
`pip install .` runs it through setup.py; run it by hand after changing the website:

    python build_ui.py
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent
UI = ROOT / "ui"
SITE = ROOT / "adapters" / "vpnsite_adapters" / "http" / "site"
MINIMUM_NODE = 18
SOURCE_ARCHIVE = Path("source") / "vpnsite-source.tar.gz"
"""Where, in the built site, the source tarball is: the shipped operator facts link to it."""
SOURCE_FILES = (
    "pyproject.toml",
    "setup.py",
    "build_ui.py",
    "add_language.py",
    "README.md",
    "LICENSE",
    "MANIFEST.in",
)
SOURCE_DIRS = ("src", "adapters", "ui", "tests", "bench", "docs")
# Built output, installed dependencies, caches and local data or keys: never part of the source.
LEFT_OUT_NAMES = frozenset(
    {"__pycache__", ".git", "node_modules", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"}
)
LEFT_OUT_DIRS = frozenset(
    {"adapters/vpnsite_adapters/http/site", "ui/dist-ssr", "ui/dist-tests", "ui/dist-site", "bench/results"}
)
LEFT_OUT_FILES = re.compile(r"(\.py[cod]|\.db|\.db-wal|\.db-shm|^secret\.key|^\.env)$")


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
    pack_source(out / SOURCE_ARCHIVE)


def source_files(root: Path = ROOT) -> Iterator[Path]:
    """The project's source files, relative to ``root``, in a stable order."""
    for name in SOURCE_FILES:
        if (root / name).is_file():
            yield Path(name)
    for top in SOURCE_DIRS:
        for folder, dirs, files in os.walk(root / top):
            here = Path(folder).relative_to(root)
            dirs[:] = sorted(
                d for d in dirs if d not in LEFT_OUT_NAMES and (here / d).as_posix() not in LEFT_OUT_DIRS
            )
            yield from (here / f for f in sorted(files) if not LEFT_OUT_FILES.search(f))


def pack_source(target: Path, root: Path = ROOT) -> None:
    """A gzipped tarball of the source under ``vpnsite/``: the same files give the same bytes."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with (
        open(target, "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as packed,
        tarfile.open(fileobj=packed, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for path in source_files(root):
            info = tar.gettarinfo(str(root / path), arcname=f"vpnsite/{path.as_posix()}")
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = 0
            info.mode = 0o755 if info.mode & 0o100 else 0o644
            with open(root / path, "rb") as content:
                tar.addfile(info, content)


if __name__ == "__main__":
    try:
        build()
    except (UiBuildError, subprocess.CalledProcessError) as error:
        print(f"build_ui: {error}", file=sys.stderr)
        sys.exit(1)
