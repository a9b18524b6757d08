"""Deterministic stand-ins for the clock and the randomness ports, for the domain's own tests."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta


class SeededRandom:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def randbelow(self, upper: int) -> int:
        return self.rng.randrange(upper)

    def token_bytes(self, size: int) -> bytes:
        return self.rng.randbytes(size)


class ManualClock:
    def __init__(self, start: datetime | None = None) -> None:
        self.moment = start or datetime(2026, 3, 1, 9, 30, tzinfo=UTC)

    def now(self) -> datetime:
        return self.moment

    def advance(self, **delta: float) -> None:
        self.moment += timedelta(**delta)
