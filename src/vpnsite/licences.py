"""Licences: who holds one, its code (kept only as a keyed hash) and how long it runs."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from attrs import frozen

from vpnsite.keyed_hashes import ORIGINAL_KEY

DEFAULT_TERM_DAYS = 90
DAY = timedelta(days=1)


@frozen
class Licence:
    id: str
    email: str
    code_hash: str
    starts_at: datetime
    ends_at: datetime
    language: str = "en"
    code_key: int = ORIGINAL_KEY
    """The master key that made ``code_hash``."""

    def days_remaining(self, now: datetime) -> int:
        return days_remaining(self.ends_at, now)

    @property
    def term_days(self) -> int:
        """How many days the licence runs from its start to its end, to the nearest day."""
        return round((self.ends_at - self.starts_at) / DAY)

    def is_live(self, now: datetime) -> bool:
        return now < self.ends_at


def days_remaining(ends_at: datetime, now: datetime) -> int:
    """Whole days left, a started day counting as one; 0 once the licence has ended."""
    left = ends_at - now
    if left <= timedelta(0):
        return 0
    return math.ceil(left / DAY)


def licence_term(starts_at: datetime, days: int) -> tuple[datetime, datetime]:
    return starts_at, starts_at + days * DAY
