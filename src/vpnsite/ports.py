"""The ports the use cases need. Adapters implement them; tests use the real adapters or the
deterministic ones defined beside the tests."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class RandomSource(Protocol):
    """A cryptographically secure source of randomness."""

    def randbelow(self, upper: int) -> int: ...

    def token_bytes(self, size: int) -> bytes: ...


class UnitOfWork(Protocol):
    """How a caller (a request, a command, a job's round) holds the store. Either block raises
    :class:`vpnsite.errors.StoreUnavailable` when the store cannot be reached."""

    def scope(self) -> AbstractContextManager[None]:
        """Everything one caller does: the store's connection is taken on first use and handed
        back when the outermost scope ends."""
        ...

    def atomic(self) -> AbstractContextManager[None]:
        """A block whose writes, through every store and the notifications, are kept together or
        not at all (inside a scope of its own if the caller opened none)."""
        ...

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the current unit of work has committed, or now outside one; a
        block that is rolled back never runs what it asked for."""
        ...
