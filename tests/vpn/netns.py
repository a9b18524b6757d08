"""Test hosts in network namespaces joined by veth pairs, torn down whatever happens."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Sequence
from pathlib import Path


def sh(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, check=check)


class Namespaces:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.names: list[str] = []
        self.host_links: list[str] = []
        self.processes: list[subprocess.Popen[bytes]] = []

    def add(self, name: str) -> str:
        full = f"{self.prefix}{name}"
        sh("ip", "netns", "add", full)
        self.names.append(full)
        sh("ip", "-n", full, "link", "set", "lo", "up")
        return full

    def link(self, a: str | None, a_ip: str, b: str, b_ip: str, tag: str) -> None:
        """A veth pair from namespace ``a`` (None: this host) to ``b``, with a /24 address each."""
        end_a, end_b = f"{self.prefix}{tag}a"[:15], f"{self.prefix}{tag}b"[:15]
        sh("ip", "link", "add", end_a, "type", "veth", "peer", "name", end_b)
        if a is None:
            self.host_links.append(end_a)
        else:
            sh("ip", "link", "set", end_a, "netns", a)
        sh("ip", "link", "set", end_b, "netns", b)
        for namespace, end, address in ((a, end_a, a_ip), (b, end_b, b_ip)):
            prefix = [] if namespace is None else ["ip", "netns", "exec", namespace]
            sh(*prefix, "ip", "addr", "add", f"{address}/24", "dev", end)
            sh(*prefix, "ip", "link", "set", end, "up")

    def start(
        self, namespace: str, args: Sequence[str], log: Path, env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        output = log.open("wb")
        process = subprocess.Popen(
            ["ip", "netns", "exec", namespace, *args], stdout=output, stderr=subprocess.STDOUT, env=env
        )
        self.processes.append(process)
        return process

    def run(self, namespace: str, *args: str) -> subprocess.CompletedProcess[str]:
        return sh("ip", "netns", "exec", namespace, *args, check=False)

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + 5
        for process in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
        for name in self.names:
            # wireguard-go runs detached inside the namespace: stop it with its namespace.
            pids = sh("ip", "netns", "pids", name, check=False).stdout.split()
            if pids:
                sh("kill", *pids, check=False)
            sh("ip", "netns", "delete", name, check=False)
        for link in self.host_links:
            sh("ip", "link", "delete", link, check=False)


def wait_for(path: Path, text: str, seconds: float, failure: str | None = None) -> bool:
    """True once ``text`` appears in the log at ``path``; False on ``failure`` or time out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        content = path.read_text(errors="replace") if path.exists() else ""
        if text in content:
            return True
        if failure and failure in content:
            return False
        time.sleep(0.2)
    return False
