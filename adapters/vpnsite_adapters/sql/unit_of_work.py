"""The unit of work: what one caller does with the database, on this thread's connection, handed
back to the pool when the caller is done; a use case's writes in one transaction; and what to do
once they are committed (waking the mail sender, say, which must not look before then)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import peewee

from vpnsite.errors import StoreUnavailable
from vpnsite_adapters.sql.database import release

# What the drivers raise when the server is down, restarting or unreachable, or the connection
# broke: the caller learns the store is unavailable, never a driver's exception.
_UNREACHABLE = (peewee.OperationalError, peewee.InterfaceError)


class SqlUnitOfWork:
    def __init__(self, db: peewee.Database) -> None:
        self.db = db
        self._local = threading.local()
        # Told of every time the database could not be reached (the operator's metrics count them).
        self.on_unavailable: Callable[[], None] = lambda: None

    @contextmanager
    def scope(self) -> Iterator[None]:
        depth = getattr(self._local, "depth", 0)
        self._local.depth = depth + 1
        try:
            yield
        except _UNREACHABLE as error:
            self.on_unavailable()
            raise StoreUnavailable() from error
        finally:
            self._local.depth = depth
            if depth == 0:
                self._hand_back()

    @contextmanager
    def atomic(self) -> Iterator[None]:
        pending: list[Callable[[], None]] | None = getattr(self._local, "after_commit", None)
        outermost = pending is None
        callbacks: list[Callable[[], None]] = [] if pending is None else pending
        kept = len(callbacks)
        self._local.after_commit = callbacks
        try:
            with self.scope(), self.db.atomic():
                yield
        except BaseException:
            # A block rolled back (a savepoint, when nested) takes back what it asked for.
            del callbacks[kept:]
            raise
        finally:
            if outermost:
                self._local.after_commit = None
        if outermost:
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

    def _hand_back(self) -> None:
        # A broken connection is dropped by the pool; nothing is lost by not returning it.
        with contextlib.suppress(*_UNREACHABLE):
            release(self.db)
