"""The fleet as visitors see it: which VPN servers are up, how loaded and how popular they are."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from enum import Enum

from attrs import frozen

HEARTBEAT_PERIOD = timedelta(seconds=10)
MISSED_BEATS_OFFLINE = 3


class Rank(Enum):
    VERY_HIGH = "very_high"
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


@frozen
class Location:
    id: str
    name: str
    country: str
    city: str


# The eight locations of the product specification: the default fleet of a new installation.
SPEC_LOCATIONS: tuple[Location, ...] = (
    Location("nl-amsterdam", "Netherlands", "nl", "Amsterdam"),
    Location("lv-riga", "Latvia", "lv", "Riga"),
    Location("pl-warsaw", "Poland", "pl", "Warsaw"),
    Location("ch-zurich", "Switzerland", "ch", "Zurich"),
    Location("ro-bucharest", "Romania", "ro", "Bucharest"),
    Location("de-frankfurt", "Germany", "de", "Frankfurt"),
    Location("it-milan", "Italy", "it", "Milan"),
    Location("us-new-york", "USA", "us", "New York"),
)


@frozen
class VpnServer:
    location: Location
    last_seen: datetime | None = None
    load_percent: float | None = None
    ping_ms: int | None = None
    sessions: int = 0
    service_up: bool = False


def is_online(server: VpnServer, now: datetime) -> bool:
    """Up while it reports a working service and has missed fewer than three heartbeats."""
    if server.last_seen is None or not server.service_up:
        return False
    return now - server.last_seen < HEARTBEAT_PERIOD * MISSED_BEATS_OFFLINE


def rank_popularity(sessions: int, all_sessions: int, servers: int) -> Rank:
    """Rank a server by its share of the fleet's sessions against an even share."""
    if servers <= 0 or all_sessions <= 0 or sessions <= 0:
        return Rank.LOW
    ratio = sessions * servers / all_sessions
    if ratio >= 2:
        return Rank.VERY_HIGH
    if ratio >= 1:
        return Rank.HIGH
    if ratio >= 0.5:
        return Rank.MEDIUM
    return Rank.LOW


@frozen
class ServerView:
    server: VpnServer
    online: bool
    rank: Rank


def view_fleet(servers: Sequence[VpnServer], now: datetime) -> list[ServerView]:
    online = [server for server in servers if is_online(server, now)]
    all_sessions = sum(server.sessions for server in online)
    views = []
    for server in servers:
        up = is_online(server, now)
        rank = rank_popularity(server.sessions if up else 0, all_sessions, len(online))
        views.append(ServerView(server, up, rank))
    return views
