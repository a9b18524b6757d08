"""Running `vpnsite` as a process, the way an operator does."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys

# Ports for the servers the tests start, below the kernel's ephemeral range (32768 and up): a
# port the kernel hands out was seen taken, between the test's pick and the server's bind, by an
# outgoing connection of another pytest-xdist worker ("cannot listen: Address already in use").
# Each worker picks from its own slice, so two workers never pick the same port either.
_PORTS_FROM, _PORTS_PER_WORKER = 10_000, 2_500


def free_port() -> int:
    """A port on 127.0.0.1 that nothing is bound to, from this worker's slice."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    first = _PORTS_FROM + (int(worker) if worker.isdigit() else 0) % 8 * _PORTS_PER_WORKER
    for port in random.sample(range(first, first + _PORTS_PER_WORKER), _PORTS_PER_WORKER):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port from {first} to {first + _PORTS_PER_WORKER - 1}")


def vpnsite(
    *args: str, env: dict[str, str], cwd: str | os.PathLike[str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vpnsite_adapters.cli.main", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
