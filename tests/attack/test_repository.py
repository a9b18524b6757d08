"""Nothing secret or personal is committed: no key file, no database (a test's data once was)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_no_secret_key_or_database_is_tracked() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    leaks = [
        name
        for name in tracked.splitlines()
        if name.endswith(
            ("secret.key", "keyring.json", "client-secrets.hex", ".db", ".db-wal", ".db-shm", ".pem", ".env")
        )
        or "/.fuzz-data/" in name
    ]
    assert leaks == []
