"""The node API in a process of its own (``VPNSITE_NODE_ADDRESS``): VPN logins never wait on the
website's interpreter, whatever a flood of visitors makes it do.

`vpnsite serve` binds the node listener itself (a port that cannot be had is said at once, and
the kernel queues the servers' connections while the process starts or is started again), then
runs `vpnsite serve-node` with that socket: a waitress server on the node API alone, sharing the
database and nothing else. The hub starts the process again whenever it ends, and stops it when it
stops. The process's counters reach the hub's metrics through a socket pair: the hub asks, the
process answers with its scrape.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence

log = logging.getLogger("vpnsite")

# Between two starts of a process that keeps ending: long enough not to spin, short enough that
# servers hardly notice.
RESTART_SECONDS = (0.5, 1, 2, 5, 10)
# A process that served this long before it ended starts again at once.
STEADY_SECONDS = 60
SCRAPE_SECONDS = 2.0
# An answer: the request it answers (a byte the hub counts up) and the length of the scrape.
_ANSWER = struct.Struct("!BI")


def bind_listener(host: str, port: int, backlog: int = 1024) -> socket.socket:
    """The node listener, bound and listening; raises OSError as ``bind`` does."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM, socket.IPPROTO_TCP, socket.AI_PASSIVE
    )[0]
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(backlog)
    except OSError:
        listener.close()
        raise
    return listener


def this_command() -> list[str]:
    """How this process was started, without its arguments: the node process runs the same
    `vpnsite` (a test's launcher included) with another command."""
    main = sys.modules["__main__"]
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name:
        return [sys.executable, "-m", spec.name.removesuffix(".__main__")]
    return [sys.executable, os.path.abspath(sys.argv[0])]


class NodeProcess:
    """The node API's process, supervised by the hub's."""

    def __init__(self, listener: socket.socket, command: Sequence[str], stop_seconds: float) -> None:
        """``command``: `vpnsite ... serve-node`, to which the descriptors are appended."""
        self._listener = listener
        self._command = list(command)
        self._stop_seconds = stop_seconds
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._metrics: socket.socket | None = None
        self._metrics_lock = threading.Lock()
        self._asked = 0
        self._watcher = threading.Thread(target=self._watch, name="node-process", daemon=True)

    def start(self) -> None:
        self._spawn()
        self._watcher.start()

    @property
    def pid(self) -> int | None:
        process = self._process
        return None if process is None else process.pid

    def _spawn(self) -> None:
        with self._lock:
            if self._stopping.is_set():
                return
            ours, theirs = socket.socketpair()
            listener = self._listener.fileno()
            command = [*self._command, "--listen-fd", str(listener), "--metrics-fd", str(theirs.fileno())]
            try:
                self._process = subprocess.Popen(command, pass_fds=(listener, theirs.fileno()))
            finally:
                theirs.close()
            with self._metrics_lock:
                if self._metrics is not None:
                    self._metrics.close()
                self._metrics = ours

    def _watch(self) -> None:
        failures = 0
        while True:
            process = self._process
            assert process is not None
            started = time.monotonic()
            code = process.wait()
            if self._stopping.is_set():
                return
            failures = 0 if time.monotonic() - started > STEADY_SECONDS else failures + 1
            pause = RESTART_SECONDS[min(failures, len(RESTART_SECONDS)) - 1] if failures else 0
            log.error("the node API's process ended (exit status %s): starting it again", code)
            if self._stopping.wait(pause):
                return
            self._spawn()

    def signal_stop(self) -> None:
        """The process stops as the hub does: it finishes what it took on."""
        with self._lock:
            self._stopping.set()
            if self._process is not None and self._process.poll() is None:
                self._process.send_signal(signal.SIGTERM)

    def stop(self) -> None:
        self.signal_stop()
        process = self._process
        if process is not None:
            try:
                process.wait(self._stop_seconds)
            except subprocess.TimeoutExpired:
                log.warning("the node API's process did not stop in time: killed")
                process.kill()
                process.wait()
        with self._metrics_lock:
            if self._metrics is not None:
                self._metrics.close()
                self._metrics = None
        self._listener.close()

    def scrape(self) -> bytes:
        """The process's metrics in the text format; empty when it does not answer in time."""
        with self._metrics_lock:
            channel = self._metrics
            if channel is None:
                return b""
            self._asked = (self._asked + 1) % 256
            try:
                channel.settimeout(SCRAPE_SECONDS)
                channel.sendall(bytes([self._asked]))
                while True:
                    asked, length = _ANSWER.unpack(_read(channel, _ANSWER.size))
                    body = _read(channel, length)
                    # An answer to a scrape that gave up waiting is dropped, not taken as this one.
                    if asked == self._asked:
                        return body
            except _Torn:
                # The next answer could not be told from the rest of this one: the process, its
                # channel closed, stops and is started again with a new one.
                channel.close()
                self._metrics = None
                return b""
            except OSError:
                return b""


class _Torn(OSError):
    """An answer cut off after its start."""


def _read(channel: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        try:
            chunk = channel.recv(size - len(data))
        except TimeoutError:
            if data:
                raise _Torn() from None
            raise
        if not chunk:
            raise OSError("closed")
        data += chunk
    return bytes(data)


def answer_scrapes(channel: socket.socket, scrape: Callable[[], bytes]) -> threading.Thread:
    """In the node process: a scrape for each request the hub sends. The channel closing means
    the hub is gone, however it ended: the process stops as on SIGTERM rather than serve on alone."""

    def serve() -> None:
        with channel:
            while asked := channel.recv(1):
                body = scrape()
                channel.sendall(_ANSWER.pack(asked[0], len(body)) + body)
        os.kill(os.getpid(), signal.SIGTERM)

    thread = threading.Thread(target=serve, name="node-metrics", daemon=True)
    thread.start()
    return thread
