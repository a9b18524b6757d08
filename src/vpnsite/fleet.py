"""The fleet as visitors see it: which VPN servers are up, how loaded and how popular they are,
from the heartbeats the servers send."""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from enum import Enum
from typing import Protocol

import attrs
from attrs import frozen

from vpnsite.errors import InvalidField, NodeUnauthorized
from vpnsite.ports import Clock
from vpnsite.uptime import UpTime, up_between

HEARTBEAT_PERIOD = timedelta(seconds=10)
MISSED_BEATS_OFFLINE = 3
# A server silent for longer is offline (and was offline in between, for its uptime).
OFFLINE_AFTER = HEARTBEAT_PERIOD * MISSED_BEATS_OFFLINE
MAX_SESSIONS_REPORTED = 1_000_000
MAX_BANDWIDTH_MBPS = 1_000_000.0
MAX_EXIT_ADDRESSES = 16
# The widest network a server's clients may leave from, per IP version: a small IPv4 range, an
# IPv6 site. A wider one would tell visitors who never came near the server (0.0.0.0/0: every
# visitor) that they are protected.
WIDEST_EXIT_PREFIX = {4: 24, 6: 48}

# Where no visitor comes from over the internet: unspecified, private, shared (CGNAT), loopback,
# link-local, benchmarking, multicast and reserved networks. A heartbeat from one of these has come
# through a proxy the hub was not told to trust (a local nginx, a container bridge), whose address
# every visitor would share: learnt, it would tell them all they are protected. A server may not
# report one as its exit either (``unvouched_exit``): only its operator may set one.
NOT_LEARNED = tuple(
    ipaddress.ip_network(network)
    for network in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "224.0.0.0/4",
        "240.0.0.0/4",
        "::/127",
        "fc00::/7",
        "fe80::/10",
        "fec0::/10",
        "ff00::/8",
    )
)


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
class Heartbeat:
    """What a server reports every ten seconds."""

    cpu_load: float
    bandwidth_mbps: float
    sessions: int
    service_up: bool
    # Where the server's clients' traffic leaves from, as the server says; None (or none): not
    # reported, and the hub goes by where the beat comes from (see ``exits_in_use``).
    exit_addresses: tuple[str, ...] | None = None
    # Whether its WireGuard interface runs (False: the machine lacks WireGuard's tools); None:
    # not said (a node from before it said, or a simulated server), and the hub keeps what it knew.
    wireguard: bool | None = None

    def __attrs_post_init__(self) -> None:
        if not (math.isfinite(self.cpu_load) and 0 <= self.cpu_load <= 100):
            raise InvalidField("cpu_load", "out_of_range")
        if not (math.isfinite(self.bandwidth_mbps) and 0 <= self.bandwidth_mbps <= MAX_BANDWIDTH_MBPS):
            raise InvalidField("bandwidth_mbps", "out_of_range")
        if not 0 <= self.sessions <= MAX_SESSIONS_REPORTED:
            raise InvalidField("sessions", "out_of_range")
        if self.exit_addresses is not None:
            exit_addresses(self.exit_addresses)


def exit_addresses(texts: Sequence[str]) -> tuple[str, ...]:
    """Exit addresses as the hub keeps them: each an IPv4 or IPv6 address, or a network no wider
    than ``WIDEST_EXIT_PREFIX`` (a server whose clients leave from an IPv6 /64, say), written
    canonically, without repeats."""
    if len(texts) > MAX_EXIT_ADDRESSES:
        raise InvalidField("exit_addresses", "too_many")
    found: list[str] = []
    for text in texts:
        try:
            network = ipaddress.ip_network(text.strip(), strict=False)
        except ValueError:
            raise InvalidField("exit_addresses", "not_an_address") from None
        if network.prefixlen < WIDEST_EXIT_PREFIX[network.version]:
            raise InvalidField("exit_addresses", "network_too_wide")
        canonical = str(network.network_address) if network.num_addresses == 1 else str(network)
        if canonical not in found:
            found.append(canonical)
    return tuple(found)


def _may_exit(address: str) -> bool:
    try:
        exit_addresses([address])
    except InvalidField:
        return False
    return True


def learned_exit(source: str | None) -> tuple[str, ...]:
    """The exit address a heartbeat's source address gives: that address (an IPv4 one seen
    through IPv6, ``::ffff:198.51.100.7``, as IPv4), or none when it is not an address or one no
    visitor comes from over the internet (``NOT_LEARNED``)."""
    try:
        address = ipaddress.ip_address((source or "").strip())
    except ValueError:
        return ()
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id is not None:
            return ()
        address = address.ipv4_mapped or address
    if any(address.version == network.version and address in network for network in NOT_LEARNED):
        return ()
    return (str(address),)


def unvouched_exit(configured: Sequence[str], reported: Sequence[str]) -> str | None:
    """The first of the exits a server reports (as ``exit_addresses`` keeps them) that no visitor
    comes from over the internet (one of, or in, ``NOT_LEARNED``; an IPv4 network seen through
    IPv6 as IPv4) and that is not within an exit its operator gave; None when there is none.

    A server that said its clients leave from 127.0.0.0/24, or from a private network that homes
    and offices everywhere use, would have the hub tell everyone there that they are protected
    (and count them as our exits' people): only the operator (``vpn add-server --exit-address``)
    may set such an exit, and a server that reports its operator's own is believed."""
    operators = [_plain(ipaddress.ip_network(text)) for text in configured if _may_exit(text)]
    for text in reported:
        network = _plain(ipaddress.ip_network(text))
        internal = any(network.version == other.version and network.overlaps(other) for other in NOT_LEARNED)
        if internal and not any(_within(network, other) for other in operators):
            return text
    return None


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _within(network: Network, other: Network) -> bool:
    if isinstance(network, ipaddress.IPv4Network) and isinstance(other, ipaddress.IPv4Network):
        return network.subnet_of(other)
    if isinstance(network, ipaddress.IPv6Network) and isinstance(other, ipaddress.IPv6Network):
        return network.subnet_of(other)
    return False


def _plain(network: Network) -> Network:
    """An IPv4 network written as IPv6 (``::ffff:10.0.0.0/120``) as the IPv4 one it is."""
    if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= 96:
        mapped = network.network_address.ipv4_mapped
        if mapped is not None:
            return ipaddress.IPv4Network((mapped, network.prefixlen - 96))
    return network


def exits_in_use(
    configured: Sequence[str], reported: Sequence[str] | None, source: str | None
) -> tuple[str, ...]:
    """The exit addresses the connection check goes by after a heartbeat: the operator's
    (``vpn add-server --exit-address``) if any; else those the beat reports, if any; else the
    address the beat came from, when it is one a visitor could come from. Nothing is kept from
    earlier beats: a server whose address changes is followed. An operator's entry the hub would
    refuse now (a network wider than an exit, stored before the hub refused them) is passed over."""
    operators = tuple(address for address in configured if _may_exit(address))
    if operators:
        return exit_addresses(operators)
    if reported:
        return exit_addresses(reported)
    return learned_exit(source)


@frozen
class VpnServer:
    location: Location
    last_seen: datetime | None = None
    load_percent: float | None = None
    ping_ms: int | None = None
    sessions: int = 0
    service_up: bool = False
    host: str | None = None
    port: int | None = None
    bandwidth_mbps: float | None = None
    udp_port: int | None = None
    tcp_port: int | None = None
    wg_port: int | None = None
    wg_public_key: str | None = None
    # False once its node said it cannot run WireGuard: no WireGuard profile is offered for it.
    wg_running: bool | None = None
    # Those the connection check goes by (``exits_in_use``), and the operator's own.
    exit_addresses: tuple[str, ...] = ()
    configured_exit_addresses: tuple[str, ...] = ()


def silent_since(now: datetime) -> datetime:
    """A server not heard from after this moment has missed three heartbeats: it is offline, and
    the sessions it held are gone."""
    return now - OFFLINE_AFTER


def back_from_silence(last_seen: datetime | None, now: datetime) -> bool:
    """A server heard again after three missed beats (a restart, a network cut) no longer holds
    the devices it had: their sessions end."""
    return last_seen is None or last_seen < silent_since(now)


def is_online(server: VpnServer, now: datetime) -> bool:
    """Up while it reports a working service and has missed fewer than three heartbeats."""
    if server.last_seen is None or not server.service_up:
        return False
    return server.last_seen > silent_since(now)


def hub_online(servers: Sequence[VpnServer], now: datetime) -> bool:
    """The hub, as the status page lists it, is the API the servers call: up while heartbeats keep
    arriving, from any server, working or not; down once every one has been silent for three."""
    freshest = max((server.last_seen for server in servers if server.last_seen is not None), default=None)
    return freshest is not None and freshest > silent_since(now)


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


def recommended(views: Sequence[ServerView]) -> ServerView | None:
    """The server a new device is pointed to: the least loaded of those online (the first listed
    among equals); None when none is online."""
    online = [view for view in views if view.online]
    return min(online, key=lambda view: view.server.load_percent or 0, default=None)


def view_fleet(servers: Sequence[VpnServer], now: datetime) -> list[ServerView]:
    online = [server for server in servers if is_online(server, now)]
    all_sessions = sum(server.sessions for server in online)
    views = []
    for server in servers:
        up = is_online(server, now)
        rank = rank_popularity(server.sessions if up else 0, all_sessions, len(online))
        views.append(ServerView(server, up, rank))
    return views


@frozen
class Heard:
    """A server as a heartbeat finds it: when it last reported, and the exit addresses its
    operator gave."""

    last_seen: datetime | None
    configured_exits: tuple[str, ...] = ()


class FleetStore(Protocol):
    def last_heard(self, server_id: str) -> Heard | None:
        """None for a server the fleet does not hold (any more)."""
        ...

    def record_heartbeat(
        self,
        server_id: str,
        beat: Heartbeat,
        exits: Sequence[str],
        now: datetime,
        end_sessions: bool,
        up: Sequence[UpTime] = (),
    ) -> None:
        """Store the beat and the exit addresses now in use; with ``end_sessions``, the server's
        sessions are dropped in the same write, but for those its licences' owners disconnected:
        the server's next report of them must still end them, not count them again. The up time
        the beat adds (``uptime.up_between``) goes in with it, and a first beat marks when the
        server went into service."""
        ...


@frozen
class Fleet:
    store: FleetStore
    clock: Clock

    def heartbeat(self, server: str, beat: Heartbeat, source: str | None = None) -> None:
        """Record a server's beat; ``source`` is the address it came from, as the hub sees its
        callers (through trusted proxies only)."""
        heard = self.store.last_heard(server)
        if heard is None:
            raise NodeUnauthorized()
        if beat.exit_addresses is not None:
            reported = exit_addresses(beat.exit_addresses)
            refused = unvouched_exit(heard.configured_exits, reported)
            if refused is not None:
                # Nothing of the beat is recorded: the server is told why, in its operator's log.
                raise InvalidField("exit_addresses", "exit_not_public", network=refused)
            beat = attrs.evolve(beat, exit_addresses=reported)
        now = self.clock.now()
        exits = exits_in_use(heard.configured_exits, beat.exit_addresses, source)
        self.store.record_heartbeat(
            server,
            beat,
            exits,
            now,
            end_sessions=back_from_silence(heard.last_seen, now),
            up=up_between(server, heard.last_seen, now, beat.service_up, OFFLINE_AFTER),
        )
