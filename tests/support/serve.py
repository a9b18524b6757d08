"""A real `vpnsite serve` process for the tests that must meet the server as users do (waitress in
front, settings from the environment), started and waited for in one place."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import requests

from tests.integration.processes import free_port

# The operator's identity `serve` requires outside the demo.
OPERATOR_ENV = {
    "VPNSITE_OPERATOR_NAME": "Test Operator Ltd",
    "VPNSITE_OPERATOR_NUMBER": "12345678",
    "VPNSITE_OPERATOR_ADDRESS": "1 Test Street, London, EC1A 1AA",
    "VPNSITE_OPERATOR_EMAIL": "operator@example.org",
    "VPNSITE_OPERATOR_FOUNDER": "Test Founder",
}


# What Python runs as `vpnsite`.
VPNSITE = ("-m", "vpnsite_adapters.cli.main")


class Served(NamedTuple):
    base: str
    log: Path
    process: subprocess.Popen[bytes]


def serve(
    env: Mapping[str, str],
    log: Path,
    port: int | None = None,
    host: str | None = None,
    wait: float = 30,
    launcher: Sequence[str] = VPNSITE,
    within: Sequence[str] = (),
    reached_at: str | None = None,
) -> Served:
    """Start `vpnsite serve` with ``env`` (``VPNSITE_PUBLIC_URL`` defaults to the process's own
    address, the operator to :data:`OPERATOR_ENV`), its output appended to ``log``; return once
    /readyz answers at all (a 503 while the database is away counts: the process is up).
    ``launcher``: what Python runs as `vpnsite` (tests/support/moved_clock.py: with a clock the
    test moves). ``within``: the command the process is started by (``ip netns exec NAME``);
    ``reached_at``: where this host reaches it, when not at its own port here."""
    port = port or free_port()
    base = reached_at or f"http://127.0.0.1:{port}"
    command = [*within, sys.executable, *launcher, "serve", "--port", str(port)]
    if host:
        command += ["--host", host]
    with log.open("ab") as output:
        process = subprocess.Popen(
            command,
            env={"VPNSITE_PUBLIC_URL": base, **OPERATOR_ENV, **env},
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + wait
    while True:
        try:
            requests.get(base + "/readyz", timeout=1)
            return Served(base, log, process)
        # Not yet listening, or listening but still busy starting (a loaded machine, other
        # tests' workers beside it): asked again until the deadline.
        except (requests.ConnectionError, requests.Timeout):
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"vpnsite serve did not start:\n{log.read_text(errors='replace')[-4000:]}")
        time.sleep(0.1)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def signed_form(base: str, email: str, **headers: str) -> dict[str, Any]:
    """A create-user body for ``email``, fresh from the server's submit-email."""
    response = requests.post(base + "/api/submit-email", json={"email": email}, headers=headers, timeout=10)
    assert response.status_code == 200, response.text
    form = response.json()["form_data"]
    return {"email": form.pop("user_email"), **form}


@contextmanager
def serving(folder: Path, **common: str) -> Iterator[Callable[..., Served]]:
    """A starter of `vpnsite serve` processes, each with its own port, data directory and log in
    ``folder``, the settings ``common`` and those of the call (``name=value`` for
    ``VPNSITE_NAME``); every one is stopped when the block ends."""
    started: list[subprocess.Popen[bytes]] = []

    def start(**settings: str) -> Served:
        port = free_port()
        given = {**common, **settings}
        env = {
            **os.environ,
            "VPNSITE_DATA_DIR": str(folder / f"data-{port}"),
            **{f"VPNSITE_{key.upper()}": value for key, value in given.items()},
        }
        served = serve(env, folder / f"serve-{port}.log", port=port)
        started.append(served.process)
        return served

    try:
        yield start
    finally:
        for process in started:
            stop(process)
