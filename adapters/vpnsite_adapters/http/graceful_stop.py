"""`vpnsite serve` stops on SIGTERM or SIGINT without dropping what it took on: it stops
listening, answers every request it has read or is still reading, closes the connections that
wait idle, and then lets the caller stop the rest (bounded by ``VPNSITE_SHUTDOWN_TIMEOUT``).

waitress's own ``run()`` ends on KeyboardInterrupt by cancelling queued requests and closing every
connection at once; so the loop is run here, where a signal only sets a flag it looks at.
"""

from __future__ import annotations

import logging
import select
import signal
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from waitress import wasyncore
from waitress.server import BaseWSGIServer

log = logging.getLogger("vpnsite")

# A connection accepted while draining may have its request still on the wire: it is not idle
# until it has said nothing for this long.
SETTLE_SECONDS = 0.25
DRAIN_POLL_SECONDS = 0.05


class GracefulServer:
    def __init__(self, servers: list[Any], sockets: dict[int, Any], timeout: float) -> None:
        """``servers``: waitress servers watching ``sockets``, one loop for them all (the first
        one's settings choose how the loop waits)."""
        self.servers = servers
        self.sockets = sockets
        self.timeout = timeout
        self.stop_requested = False
        self.listeners = [d for d in sockets.values() if isinstance(d, BaseWSGIServer)]
        self._poll: Callable[[float, dict[int, Any]], None] = (
            wasyncore.poll2 if servers[0].adj.asyncore_use_poll else wasyncore.poll
        )

    def request_stop(self, _signum: int = 0, _frame: FrameType | None = None) -> None:
        self.stop_requested = True

    def serve(self, on_stop: Callable[[], None]) -> None:
        """Serve until a signal, then drain; ``on_stop`` runs as soon as the signal is seen (work
        that should not start anew)."""
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, self.request_stop)
        loop_timeout = self.servers[0].adj.asyncore_loop_timeout
        while not self.stop_requested:
            self._poll(loop_timeout, self.sockets)
        deadline = time.monotonic() + self.timeout
        on_stop()
        log.info("stopping: no new connections; finishing the requests in flight")
        self._stop_listening()
        self._drain(deadline)
        # Nothing is queued unless the deadline passed: then what waits is dropped, not served.
        for server in self.servers:
            left = max(0.0, deadline - time.monotonic())
            server.task_dispatcher.shutdown(cancel_pending=True, timeout=left)
        wasyncore.close_all(self.sockets)

    def _stop_listening(self) -> None:
        """Take every connection the kernel already completed, then close the listening socket:
        a client that connected before the signal is served, one after it is refused."""
        for listener in self.listeners:
            listener.draining = True
            listener.accepting = False
            # Bounded by what the kernel can hold: an accept that keeps failing (out of file
            # descriptors) leaves the socket readable.
            for _ in range(listener.adj.backlog):
                if not select.select([listener.socket], [], [], 0)[0]:
                    break
                listener.handle_accept()
            # Not listener.close(): that closes the trigger that wakes the loop for answers.
            wasyncore.dispatcher.close(listener)

    def _drain(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            self._poll(0, self.sockets)
            if not self._close_idle_channels():
                return
            self._poll(DRAIN_POLL_SECONDS, self.sockets)
        log.warning("shutdown timeout reached with requests still in flight")

    def _close_idle_channels(self) -> bool:
        """Close the connections with nothing to read, answer or send; False once none is open."""
        settled = time.time() - SETTLE_SECONDS
        channels = [c for listener in self.listeners for c in list(listener.active_channels.values())]
        for channel in channels:
            working = channel.requests or channel.request is not None or channel.total_outbufs_len
            if not working and channel.last_activity < settled:
                # Closed by the next poll, which finds it writable.
                channel.will_close = True
        return bool(channels)
