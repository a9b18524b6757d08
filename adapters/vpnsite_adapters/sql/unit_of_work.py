"""The unit of work: a use case's writes in one transaction on this thread's connection, and what
to do once they are committed (waking the mail sender, say, which must not look before then)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import peewee


class SqlUnitOfWork:
    def __init__(self, db: peewee.Database) -> None:
        self.db = db
        self._local = threading.local()

    @contextmanager
    def atomic(self) -> Iterator[None]:
        outermost = getattr(self._local, "after_commit", None) is None
        if outermost:
            self._local.after_commit = []
        try:
            with self.db.atomic():
                yield
            callbacks: list[Callable[[], None]] = self._local.after_commit if outermost else []
        finally:
            if outermost:
                self._local.after_commit = None
        for callback in callbacks:
            callback()

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the current unit of work has committed, or now outside one; a
        unit of work that is rolled back never runs it."""
        pending = getattr(self._local, "after_commit", None)
        if pending is None:
            callback()
        else:
            pending.append(callback)
