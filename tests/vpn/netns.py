"""Test hosts in network namespaces joined by veth pairs, torn down whatever happens.

Nothing here adds or removes an interface, address or route of this host's own network: a
browser on this host (the e2e suite, run beside this one) drops a page it is loading when the
host's network changes ("net::ERR_NETWORK_CHANGED"). The host reaches a namespace through a
:class:`Doorway` instead.
"""

from __future__ import annotations

import contextlib
import ctypes
import socket
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path

CLONE_NEWNET = 0x40000000


def sh(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, check=check)


class Namespaces:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.names: list[str] = []
        self.processes: list[subprocess.Popen[bytes]] = []

    def add(self, name: str) -> str:
        full = f"{self.prefix}{name}"
        sh("ip", "netns", "add", full)
        self.names.append(full)
        sh("ip", "-n", full, "link", "set", "lo", "up")
        return full

    def link(self, a: str, a_ip: str, b: str, b_ip: str, tag: str) -> None:
        """A veth pair from namespace ``a`` to ``b``, with a /24 address each; made inside ``a``,
        so that it never appears on this host."""
        end_a, end_b = f"{self.prefix}{tag}a"[:15], f"{self.prefix}{tag}b"[:15]
        sh("ip", "-n", a, "link", "add", end_a, "type", "veth", "peer", "name", end_b, "netns", b)
        for namespace, end, address in ((a, end_a, a_ip), (b, end_b, b_ip)):
            sh("ip", "-n", namespace, "addr", "add", f"{address}/24", "dev", end)
            sh("ip", "-n", namespace, "link", "set", end, "up")

    def start(
        self,
        namespace: str,
        args: Sequence[str],
        log: Path,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> subprocess.Popen[bytes]:
        output = log.open("wb")
        process = subprocess.Popen(
            ["ip", "netns", "exec", namespace, *args],
            stdout=output,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=cwd,
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


def traces_on_this_host(prefix: str, networks: Sequence[str]) -> list[str]:
    """This host's interfaces named with ``prefix``, and its addresses and routes in ``networks``
    (``10.77.``, say): what a test's network has left on the host's own."""
    links = sh("ip", "-o", "link", "show").stdout.splitlines()
    found = [line for line in links if line.split(": ")[1].startswith(prefix)]
    for listing in (("ip", "-o", "addr", "show"), ("ip", "route", "show"), ("ip", "-6", "route", "show")):
        found += [line for line in sh(*listing).stdout.splitlines() if any(n in line for n in networks)]
    return found


def enter(namespace: str) -> None:
    """Move the calling thread (only it) into ``namespace``: the sockets it makes from now on
    live there, wherever they are used afterwards."""
    with open(f"/run/netns/{namespace}") as handle:
        if ctypes.CDLL(None, use_errno=True).setns(handle.fileno(), CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"setns into {namespace}")


class Doorway:
    """A port on this host's loopback that leads to ``port`` on the loopback of ``namespace``:
    this host's tests speak to a server in a namespace as its users would, with no link between
    the two networks."""

    def __init__(self, namespace: str, port: int) -> None:
        self.namespace, self.target = namespace, port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                visitor, _ = self.listener.accept()
            except OSError:  # closed
                return
            threading.Thread(target=self._carry, args=(visitor,), daemon=True).start()

    def _carry(self, visitor: socket.socket) -> None:
        enter(self.namespace)
        try:
            server = socket.create_connection(("127.0.0.1", self.target), timeout=10)
        except OSError:
            visitor.close()  # as a refused connection looks to the visitor
            return
        server.settimeout(None)
        with visitor, server:
            back = threading.Thread(target=_pipe, args=(server, visitor), daemon=True)
            back.start()
            _pipe(visitor, server)
            back.join()

    def close(self) -> None:
        self.listener.close()


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    """Copy ``source`` to ``sink`` until either ends; then end both ways of both, so that the
    copy the other way ends too."""
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
    for end in (sink, source):
        with contextlib.suppress(OSError):
            end.shutdown(socket.SHUT_RDWR)


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
