"""The hub at a glance, for its operator (``vpnsite stats``): users, sign-ups per day, servers
online and open tickets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from attrs import frozen

from vpnsite.fleet import VpnServer, is_online

STATS_DAYS = 14


@frozen
class Glance:
    users: int
    # Each of the last ``STATS_DAYS`` days, oldest first, today last, with its sign-ups.
    signups_per_day: tuple[tuple[date, int], ...]
    servers: int
    servers_online: int
    open_tickets: int

    @property
    def busiest_day(self) -> int:
        """The most sign-ups of any of the days; 0 when there were none."""
        return max((count for _, count in self.signups_per_day), default=0)


def first_counted(now: datetime, days: int = STATS_DAYS) -> datetime:
    """From when the sign-ups of the last ``days`` days (today one of them) are counted."""
    return now - timedelta(days=days - 1)


def glance(
    now: datetime,
    users: int,
    starts: Sequence[datetime],
    servers: Sequence[VpnServer],
    open_tickets: int,
    days: int = STATS_DAYS,
) -> Glance:
    """``starts``: when each licence counted began (since ``first_counted``), grouped by their
    calendar day in ``now``'s time zone as given."""
    per_day = Counter(start.date() for start in starts)
    dates = [(now - timedelta(days=back)).date() for back in range(days - 1, -1, -1)]
    return Glance(
        users=users,
        signups_per_day=tuple((day, per_day.get(day, 0)) for day in dates),
        servers=len(servers),
        servers_online=sum(1 for server in servers if is_online(server, now)),
        open_tickets=open_tickets,
    )
