"""Deterministic stand-ins for the randomness, rate-limit and notification ports (domain tests)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from vpnsite.rate_limits import Counter


class SeededRandom:
    """The RandomSource port over ``random.Random(seed)``: the same seed, the same codes and ids."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def randbelow(self, upper: int) -> int:
        return self.rng.randrange(upper)

    def token_bytes(self, size: int) -> bytes:
        return self.rng.randbytes(size)


class ScriptedRandom(SeededRandom):
    """A seeded source whose next ``randbelow`` answers are given in advance (to force a clash)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.script: list[int] = []

    def then(self, digits: Iterable[int]) -> None:
        self.script.extend(digits)

    def randbelow(self, upper: int) -> int:
        if self.script:
            value = self.script.pop(0)
            assert 0 <= value < upper
            return value
        return super().randbelow(upper)


class MemoryRateLimitStore:
    """The RateLimitStore port in a dict: events per key, admission all or nothing."""

    def __init__(self) -> None:
        self.events: dict[str, list[datetime]] = {}

    def admit(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        wait = self.wait(counters, now)
        if wait is None:
            self.record(counters, now)
        return wait

    def wait(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        waits = [c.rule.retry_after(self.events.get(c.key, []), now) for c in counters]
        return max((w for w in waits if w is not None), default=None)

    def record(self, counters: Sequence[Counter], now: datetime) -> None:
        for key in {counter.key for counter in counters}:
            self.events.setdefault(key, []).append(now)


class RecordingNotifications:
    """The Notifications port as a list of what was said; ``failing`` makes the next one raise, as
    a full disk or a lost connection would."""

    def __init__(self) -> None:
        self.said: list[tuple[str, object]] = []
        self.failing = False

    def _say(self, kind: str, subject: object) -> None:
        if self.failing:
            raise OSError("the outbox could not be written")
        self.said.append((kind, subject))

    def licence_issued(self, activation: object) -> None:
        self._say("licence", activation)

    def renewal_due(self, reminder: object) -> None:
        self._say("renewal", reminder)

    def ticket_opened(self, ticket: object) -> None:
        self._say("ticket", ticket)
