"""The fleet's uptime as the home page states it: the share of the time its servers have been in
service over the last 30 days that they were up, measured from their heartbeats.

A server is in service from its first heartbeat (a server listed but never heard from has not
started). The time between two beats counts as up when the second came within the offline
threshold of the first (the same three missed beats after which the status page says offline) and
says the service works; any other time in service counts as down, including a silence that has
not ended yet. Time is counted per server and UTC day, so what is kept is a few numbers per server
a day, nothing about anyone."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Protocol

from attrs import frozen

WINDOW_DAYS = 30
# Below this much time in service (the longest of any server's), there is no figure to state.
MIN_HISTORY = timedelta(days=1)
_DAY = timedelta(days=1)


@frozen
class UpTime:
    """Seconds a server was up on a UTC day."""

    server_id: str
    day: date
    seconds: float


@frozen
class InService:
    """A listed server and when it was first heard from (None: never)."""

    server_id: str
    since: datetime | None


def up_between(
    server_id: str, previous: datetime | None, now: datetime, service_up: bool, longest_gap: timedelta
) -> list[UpTime]:
    """The up time a beat at ``now`` adds, after the server's previous beat: the interval between
    them, split at UTC midnights, when it is no longer than ``longest_gap`` (the fleet's offline
    threshold, ``fleet.OFFLINE_AFTER``) and the beat says the service works; nothing otherwise
    (the first beat, a silence, a broken service)."""
    if previous is None or not service_up or not timedelta(0) < now - previous <= longest_gap:
        return []
    pieces = []
    start, now = previous.astimezone(UTC), now.astimezone(UTC)
    while start < now:
        midnight = datetime.combine(start.date() + _DAY, time(), tzinfo=start.tzinfo)
        end = min(now, midnight)
        pieces.append(UpTime(server_id, start.date(), (end - start).total_seconds()))
        start = end
    return pieces


def window_start(now: datetime) -> date:
    """The first UTC day of the window that ends today: the last ``WINDOW_DAYS`` days."""
    return now.astimezone(UTC).date() - timedelta(days=WINDOW_DAYS - 1)


def fleet_uptime(servers: Sequence[InService], up: Iterable[UpTime], now: datetime) -> float | None:
    """The share (0 to 1) of the listed servers' time in service within the window that they were
    up; None when no server has been in service for ``MIN_HISTORY`` (there is nothing yet to
    state). Up time of servers no longer listed, or before the window, is not counted."""
    first = datetime.combine(window_start(now), time(), tzinfo=UTC)
    in_service = {
        server.server_id: (now - max(first, server.since)).total_seconds()
        for server in servers
        if server.since is not None and server.since < now
    }
    if not in_service or max(in_service.values()) < MIN_HISTORY.total_seconds():
        return None
    total = sum(in_service.values())
    counted = sum(
        piece.seconds for piece in up if piece.server_id in in_service and piece.day >= window_start(now)
    )
    return min(1.0, counted / total)


def permille_down(share: float) -> int:
    """A share in tenths of a per cent, rounded down: the figure never says more than was
    measured (99.96 % up is 99.9 %, never 100.0 %)."""
    return math.floor(share * 1000 + 1e-9)


class UptimeStore(Protocol):
    def add_up_time(self, pieces: Sequence[UpTime]) -> None:
        """Add each piece's seconds to its server's day."""
        ...

    def up_times_since(self, first_day: date) -> list[UpTime]:
        """Every server's up time from ``first_day`` on, per day or summed over days (a sum is
        dated by its first day)."""
        ...

    def in_service(self) -> list[InService]:
        """Each listed server and its first heartbeat."""
        ...
