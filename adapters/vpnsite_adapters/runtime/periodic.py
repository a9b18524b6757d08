"""Background work that repeats: a daemon thread calling one function every so often."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger("vpnsite")


class Periodic:
    """Calls ``work`` every ``seconds`` (sooner when woken) until stopped. A failure is logged and
    the next round comes as usual: background work must never take the service down."""

    def __init__(self, name: str, seconds: float, work: Callable[[], object]) -> None:
        self.name = name
        self.seconds = seconds
        self.work = work
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    @property
    def stopping(self) -> bool:
        """Work that takes a while looks at this between steps, to leave the rest for later."""
        return self._stop.is_set()

    def signal_stop(self) -> None:
        """No new round starts; the one under way finishes (see :meth:`join`)."""
        self._stop.set()
        self._wake.set()

    def join(self, timeout: float) -> None:
        if self._thread is not None:
            self._thread.join(timeout=max(0.0, timeout))

    def stop(self, timeout: float = 15) -> None:
        self.signal_stop()
        self.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.seconds)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.work()
            except Exception:
                log.exception("%s failed; trying again in %s s", self.name, self.seconds)
