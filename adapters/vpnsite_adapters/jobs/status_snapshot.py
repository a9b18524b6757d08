"""The user count and server status every open page polls, kept in memory and refreshed in the
background, so polling never costs a database query per request."""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import logging
import os
import statistics
import time
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from attrs import define, field

from vpnsite.archives import ServerList
from vpnsite.connection_check import ExitIndex
from vpnsite.fleet import Location, Rank, ServerView, hub_online, view_fleet
from vpnsite.plans import DEFAULT_FREE_TIER_CAP
from vpnsite.ports import Clock, UnitOfWork
from vpnsite.uptime import UptimeStore, fleet_uptime, permille_down, window_start
from vpnsite_adapters.texts.catalogue import CATALOGUES
from vpnsite_contract import website
from vpnsite_contract.structuring import unstructure
from vpnsite_contract.website import ServerStatus, StatusSummary, SystemServer, VpnServer

log = logging.getLogger("vpnsite.status")

REFRESH_SECONDS = 1.0


@define(frozen=True)
class Encoded:
    body: bytes
    etag: str
    # The body gzip-compressed (for a client that accepts it) when that makes it smaller, with an
    # ETag of its own: a strong validator names one representation (RFC 9110, 8.8.3). Compressed
    # once per refresh, never per request.
    gzipped: bytes | None = None
    gzip_etag: str | None = None

    @classmethod
    def of(cls, answer: website.UserCount | ServerStatus) -> Encoded:
        body = json.dumps(unstructure(answer), ensure_ascii=False, separators=(",", ":")).encode()
        tag = hashlib.blake2b(body, digest_size=12).hexdigest()
        gzipped = gzip.compress(body, 6, mtime=0)
        if len(gzipped) >= len(body):
            return cls(body, f'"{tag}"')
        return cls(body, f'"{tag}"', gzipped, f'"{tag}-gzip"')


def host_load_percent() -> float:
    """The one-minute load average of this host as a share of its cores."""
    try:
        return min(100.0, os.getloadavg()[0] / (os.cpu_count() or 1) * 100)
    except OSError:
        return 0.0


class UserCount(Protocol):
    def count_users(self, now: datetime) -> int: ...

    def forget_ended_users(self, now: datetime) -> None: ...


@define
class StatusSnapshot:
    licences: UserCount
    fleet: ServerList
    unit_of_work: UnitOfWork
    clock: Clock
    # How many users the free tier takes (the operator's VPNSITE_FREE_TIER_CAP), told with the count.
    free_tier_cap: int = DEFAULT_FREE_TIER_CAP
    users: int = 0
    user_count: Encoded = field(init=False)
    server_status: Encoded = field(init=False)
    measure_load: Callable[[], float] = host_load_percent
    # The billing service's entry; None when none is configured, and then it is not listed: the
    # public page shows what runs, not what an installation could have.
    billing: Callable[[], SystemServer | None] = lambda: None
    demo: bool = False
    # What the operator's metrics read: the fleet as of the last refresh (its size: ``servers``),
    # and when that was (``time.monotonic()``; None before the first refresh succeeds).
    servers_online: int = 0
    sessions: int = 0
    refreshed_at: float | None = None
    # The home page's figures: the fleet's uptime over the last 30 days in tenths of a per cent,
    # rounded down (None: not yet a day of heartbeats to measure from), and where its servers
    # are: every listed server's location, online or not, in the order listed (the home page's
    # locations section, http/pages/fleet_locations.py; ``countries``).
    uptime: UptimeStore | None = None
    uptime_permille: int | None = None
    locations: tuple[Location, ...] = ()
    # The fleet as of the last refresh, for the per-server profile links and the connection check.
    views: list[ServerView] = field(factory=list)
    exits: ExitIndex = field(factory=ExitIndex)

    def __attrs_post_init__(self) -> None:
        """The answers before the first refresh: no users, nothing listed yet."""
        self.user_count = Encoded.of(website.UserCount(0, self.free_tier_cap))
        summary = StatusSummary(0, 0, 0, 0, self.free_tier_cap, self.demo, 0)
        self.server_status = Encoded.of(ServerStatus([], [], summary))

    @property
    def servers(self) -> int:
        """The listed servers, online or not."""
        return len(self.locations)

    @property
    def countries(self) -> int:
        """The countries the listed servers are in."""
        return len({location.country for location in self.locations})

    def refresh(self) -> None:
        """Read the database once and replace both answers; on failure keep the last ones."""
        started = time.perf_counter()
        try:
            with self.unit_of_work.scope():
                now = self.clock.now()
                self.licences.forget_ended_users(now)
                users = self.licences.count_users(now)
                servers = self.fleet.list_servers()
                if self.uptime is not None:
                    in_service = self.uptime.in_service()
                    up = self.uptime.up_times_since(window_start(now))
            database_ms = round((time.perf_counter() - started) * 1000)
        except Exception:
            log.warning("status refresh failed; serving the last snapshot", exc_info=True)
            return
        views = view_fleet(servers, now)
        load = f"{round(self.measure_load())}%"
        # The hub's ping is the typical round trip to the servers it hears from.
        hub_up = hub_online(servers, now)
        pings = [view.server.ping_ms for view in views if view.online and view.server.ping_ms is not None]
        billing = self.billing()
        system = [
            SystemServer("activation-server", "Hub", "online", database_ms, load),
            SystemServer(
                "hub-server",
                "Hub",
                "online" if hub_up else "offline",
                round(statistics.median(pings)) if pings else None,
                load,
            ),
            *([billing] if billing is not None else []),
        ]
        vpn = [server_entry(view) for view in views]
        self.users = users
        if self.uptime is not None:
            share = fleet_uptime(in_service, up, now)
            self.uptime_permille = None if share is None else permille_down(share)
        self.locations = tuple(server.location for server in servers)
        self.views = views
        self.exits = ExitIndex.of(views)
        self.servers_online = sum(1 for view in views if view.online)
        self.sessions = sum(view.server.sessions for view in views if view.online)
        self.user_count = Encoded.of(website.UserCount(users, self.free_tier_cap))
        summary = StatusSummary(
            vpn_servers_count=len(vpn),
            vpn_servers_online=self.servers_online,
            system_servers_count=len(system),
            user_count=users,
            free_tier_cap=self.free_tier_cap,
            demo=self.demo,
            updated_at=int(now.timestamp()),
        )
        self.server_status = Encoded.of(ServerStatus(vpn, system, summary))
        self.refreshed_at = time.monotonic()


@functools.cache
def popularity_labels(rank: Rank) -> dict[str, str]:
    """A rank's words in every language (the languages' catalogues): made once per rank, not for
    every server at every refresh."""
    return {language: texts.popularity[rank] for language, texts in CATALOGUES.items()}


def server_entry(view: ServerView) -> VpnServer:
    server, location = view.server, view.server.location
    labels = popularity_labels(view.rank)
    return VpnServer(
        id=location.id,
        name=location.name,
        flag=location.country,
        location=location.city,
        status="online" if view.online else "offline",
        ping=server.ping_ms if view.online else None,
        load=f"{round(server.load_percent or 0)}%" if view.online else "0%",
        sessions=server.sessions if view.online else 0,
        rank=view.rank,
        popularity=labels["en"],
        popularity_ru=labels["ru"],
        popularity_by_language=labels,
    )
