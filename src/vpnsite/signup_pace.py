"""Whether sign-ups come faster than people do: the service's own recent pace, the rule that
compares the last hour with it, and the counts the rule reads, kept a few seconds so a flood does
not ask the store for them on every request.

The pace of an hour is the mean number of licences started in the same hour-long window on each of
the seven days before: people sign up at their own hours (evenings, weekdays), so the last hour is
held to the same hour of earlier days, not to a day's average. Sign-ups are *under pressure* when
the last hour would hold more than ``factor`` times that pace, and more than the ``floor``: a new
service, with no history, is never challenged for its first visitors, nor is any hour that stays
within the floor.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

from attrs import Factory, define, field, frozen

from vpnsite.errors import StoreUnavailable
from vpnsite.ports import UnitOfWork

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
DAYS_OF_HISTORY = 7

DEFAULT_FACTOR = 3.0
DEFAULT_FLOOR = 60
"""Sign-ups an hour that are never challenged, whatever the history: one a minute. A new service
reaches it only on a launch day's spike (and people then pay about a second of a phone's work),
while an attacker who stays under it takes at most 1,440 licences a day, 0.14 % of the default
free tier, before the per-network limits."""

COUNTS_FRESH_FOR = timedelta(seconds=5)
"""How long one reading of the counts serves every request of a process: a flood costs the store
one query per process every five seconds, and pressure is seen at most that late."""

Window = tuple[datetime, datetime]
"""Licences started after the first moment, up to and including the second."""


def pace_windows(now: datetime) -> tuple[Window, ...]:
    """The last hour, then the same hour on each of the seven days before it, yesterday first."""
    return tuple((now - days * DAY - HOUR, now - days * DAY) for days in range(DAYS_OF_HISTORY + 1))


@frozen
class PaceReading:
    """Licences started in the last hour, and in the same hour of each of the seven days before."""

    last_hour: int
    same_hours: tuple[int, ...]

    @property
    def usual(self) -> float:
        """The service's own pace for this hour: the mean of the same hours before."""
        return sum(self.same_hours) / len(self.same_hours) if self.same_hours else 0.0


@frozen
class Pace:
    """The operator's rule: more than ``factor`` times the usual pace, and more than ``floor`` an
    hour, is faster than people sign up."""

    factor: float = DEFAULT_FACTOR
    floor: int = DEFAULT_FLOOR

    def under_pressure(self, reading: PaceReading) -> bool:
        """Whether the sign-up asking now would make the last hour hold more than the floor and
        more than ``factor`` times the usual pace: with a floor of 60, the 61st of an hour is
        challenged, whatever the history."""
        coming, days = reading.last_hour + 1, len(reading.same_hours) or 1
        # Compared as whole sums (coming × days > factor × total), not as a mean, so no rounding
        # decides a boundary.
        return coming > self.floor and coming * days > self.factor * sum(reading.same_hours)

    def unchallenged_allowance(self, reading: PaceReading) -> int:
        """Sign-ups an hour that may go through unchallenged while under pressure (a page without a
        script cannot solve a challenge): the usual pace, or the floor if that is more."""
        return max(self.floor, math.ceil(reading.usual))


class SignupCounts(Protocol):
    def licences_started(self, windows: Sequence[Window]) -> list[int]:
        """How many licences started within each window, in the windows' order."""
        ...


NO_SIGN_UPS = PaceReading(0, (0,) * DAYS_OF_HISTORY)


@define
class PaceGauge:
    """The counts the rule reads, from the store every hub shares, read at most once every
    ``fresh_for`` by the injected clock in each process (a clock that moved back reads afresh).

    While the store cannot be reached the last reading stands (none yet: no sign-ups), for as long
    as a fresh one would: no licence can be written then anyway, and a page that only starts a
    sign-up (submit-email, which writes nothing) keeps working as it did without the gauge."""

    counts: SignupCounts
    unit_of_work: UnitOfWork
    fresh_for: timedelta = COUNTS_FRESH_FOR
    _last: tuple[datetime, PaceReading] | None = field(default=None, init=False)
    _lock: threading.Lock = field(default=Factory(threading.Lock), init=False)

    def read(self, now: datetime) -> PaceReading:
        with self._lock:
            if self._last is not None and self._last[0] <= now < self._last[0] + self.fresh_for:
                return self._last[1]
            try:
                # A scope of its own, so an unreachable store is said here, as StoreUnavailable.
                with self.unit_of_work.scope():
                    last_hour, *same_hours = self.counts.licences_started(pace_windows(now))
                reading = PaceReading(last_hour, tuple(same_hours))
            except StoreUnavailable:
                reading = NO_SIGN_UPS if self._last is None else self._last[1]
            self._last = (now, reading)
            return reading
