"""Sliding-window rate limits per action and subject (client IP, visitor id, e-mail, or one
e-mail from one client), and who counts as one client when a call comes through one of our own
VPN servers."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Literal, Protocol

import attrs
from attrs import frozen

from vpnsite.errors import RateLimited
from vpnsite.fleet import VpnServer
from vpnsite.keyed_hashes import Hasher

Subject = Literal["ip", "visitor", "email", "email_ip"]
SUBJECTS: tuple[Subject, ...] = ("ip", "visitor", "email", "email_ip")
PER_ADDRESS: tuple[Subject, ...] = ("ip", "email_ip")

SUBMIT_EMAIL = "submit-email"
CREATE_USER = "create-user"
CHECK_LICENSE = "check-license"
SUPPORT = "support"
ARCHIVE = "archive"
QR_CODE = "qr-code"
ACTIONS = (SUBMIT_EMAIL, CREATE_USER, CHECK_LICENSE, SUPPORT, ARCHIVE, QR_CODE)


@frozen
class RateLimit:
    """At most ``limit`` counted events per ``window`` for one subject of one action.

    ``failures_only`` rules count only calls that failed (wrong codes, say), so a person who gets
    it right is never slowed down by them. A failures rule on an e-mail alone is a ceiling shared by
    every client, so it holds back only clients that have failed for that e-mail themselves: an
    owner who has not got it wrong is never locked out by strangers' guesses.
    """

    action: str
    subject: Subject
    limit: int
    window: timedelta
    failures_only: bool = False

    @property
    def name(self) -> str:
        suffix = ":failures" if self.failures_only else ""
        return f"{self.action}:{self.subject}:{self.limit}/{int(self.window.total_seconds())}s{suffix}"

    def retry_after(self, hits: Sequence[datetime], now: datetime) -> timedelta | None:
        """None when one more event is admitted; otherwise how long until it would be.

        ``hits`` are the times of the events counted so far, in any order.
        """
        since = now - self.window
        recent = sorted(hit for hit in hits if since < hit <= now)
        if len(recent) < self.limit:
            return None
        # The window admits one more once enough of the oldest hits have slid out of it.
        return recent[len(recent) - self.limit] + self.window - now


DEFAULT_RULES: tuple[RateLimit, ...] = (
    RateLimit(SUBMIT_EMAIL, "ip", 5, timedelta(minutes=10)),
    RateLimit(SUBMIT_EMAIL, "visitor", 5, timedelta(minutes=10)),
    RateLimit(SUBMIT_EMAIL, "ip", 30, timedelta(days=1)),
    RateLimit(CREATE_USER, "ip", 10, timedelta(minutes=10)),
    RateLimit(CHECK_LICENSE, "ip", 10, timedelta(minutes=1)),
    RateLimit(CHECK_LICENSE, "email_ip", 20, timedelta(hours=1), failures_only=True),
    RateLimit(CHECK_LICENSE, "email", 200, timedelta(hours=1), failures_only=True),
    RateLimit(SUPPORT, "ip", 5, timedelta(hours=1)),
    RateLimit(SUPPORT, "email", 5, timedelta(hours=1)),
    RateLimit(ARCHIVE, "ip", 20, timedelta(minutes=10)),
    # A QR code per server on every activation and dashboard a desktop shows: a few dozen a visit.
    RateLimit(QR_CODE, "ip", 100, timedelta(minutes=10)),
)

_RULE = re.compile(
    r"^(?P<action>[a-z-]+):(?P<subject>ip|visitor|email_ip|email)=(?P<limit>\d+)/(?P<count>\d*)(?P<unit>[smhd])"
    r"(?P<failures>!)?$"
)
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


def client_network(ip: str) -> str:
    """What one client is counted as: an IPv4 address, or an IPv6 address's /64 — a subscriber
    is given a whole /64 and could otherwise take a fresh address for every request."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def parse_rules(text: str) -> tuple[RateLimit, ...]:
    """Rules written as ``action:subject=limit/window`` separated by commas or spaces, e.g.
    ``submit-email:ip=5/10m, check-license:email=20/1h!`` (``!``: count failures only)."""
    rules = []
    for item in re.split(r"[,\s]+", text.strip()):
        if not item:
            continue
        match = _RULE.match(item)
        if match is None or match["action"] not in ACTIONS:
            raise ValueError(f"not a rate-limit rule: {item!r}")
        window = timedelta(**{_UNITS[match["unit"]]: int(match["count"] or 1)})
        limit = int(match["limit"])
        if limit < 1 or window <= timedelta(0):
            raise ValueError(f"a rule needs a limit and a window of at least 1: {item!r}")
        subject: Subject = match["subject"]  # type: ignore[assignment]
        rules.append(RateLimit(match["action"], subject, limit, window, bool(match["failures"])))
    return tuple(rules)


def rules_for(rules: Sequence[RateLimit], action: str, failures_only: bool = False) -> list[RateLimit]:
    return [rule for rule in rules if rule.action == action and rule.failures_only == failures_only]


def longest_window(rules: Sequence[RateLimit]) -> timedelta:
    return max((rule.window for rule in rules), default=timedelta(0))


@frozen
class Counter:
    """One rule applied to one subject: the events it counts are kept under ``key``."""

    rule: RateLimit
    key: str


class RateLimitStore(Protocol):
    def admit(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        """Atomically: if every counter admits one more event, record one under each key and
        return None; otherwise record nothing and return the longest wait."""
        ...

    def waits(self, counters: Sequence[Counter], now: datetime) -> list[timedelta | None]:
        """Each counter's wait (None: it admits one more), in their order, recording nothing."""
        ...

    def record(self, counters: Sequence[Counter], now: datetime) -> None: ...


# Everyone on one of our VPN servers reaches the hub from its exit address: a per-address rule
# holds them all to one person's allowance unless they are told apart, and a server must not
# become an unlimited source of sign-ups either, so it gets this many people's worth.
EXIT_FACTOR = 20

ExitOf = Callable[[str | None], VpnServer | None]
"""The online server of ours whose exit address a client address is; None for any other."""


def no_exits(address: str | None) -> VpnServer | None:
    """A hub that knows no servers: every address is a client's own."""
    return None


def counted(
    rule: RateLimit, subjects: Mapping[Subject, str | None], server: str | None
) -> list[tuple[RateLimit, str]]:
    """Which counts one call makes under ``rule``: each the rule it is held to and the value it is
    counted under (kept only as a keyed hash).

    ``server`` is the id of the online server of ours whose exit address the call comes from, if
    it does. That address stands for everyone on the server, so a per-address rule counts the call
    twice: for the server, at ``EXIT_FACTOR`` times the rule's limit, and at the rule's own limit
    for the person — for ``ip`` their visitor id or, without one, the e-mail they give; for
    ``email_ip`` the e-mail with their visitor id (see :func:`email_client`).
    """
    if server is None or rule.subject not in PER_ADDRESS:
        found = [(rule, _value(rule.subject, subjects))]
    elif rule.subject == "ip":
        person: Subject = "visitor" if subjects.get("visitor") else "email"
        found = [(_shared(rule), _server(server)), (attrs.evolve(rule, subject=person), subjects.get(person))]
    else:
        email = subjects.get("email")
        found = [
            (_shared(rule), email and f"{email}|{_server(server)}"),
            (rule, email_client(subjects, server)),
        ]
    return [(applied, value) for applied, value in found if value]


def email_client(subjects: Mapping[Subject, str | None], server: str | None) -> str | None:
    """One e-mail from one client, as ``email_ip`` counts it and a client's own failures are kept:
    the client is its address (an IPv6 one's /64); through one of our servers, its visitor id —
    without one it cannot be told from the others on that server, who share one count as any
    clients behind one address do."""
    email, ip, visitor = subjects.get("email"), subjects.get("ip"), subjects.get("visitor")
    if not email:
        return None
    if server is None:
        return f"{email}|{client_network(ip)}" if ip else None
    return f"{email}|visitor:{visitor}" if visitor else f"{email}|{_server(server)}"


def _shared(rule: RateLimit) -> RateLimit:
    return attrs.evolve(rule, limit=rule.limit * EXIT_FACTOR)


def _server(server: str) -> str:
    # No client's address reads so: the server's count is never one client's.
    return f"server:{server}"


def _value(subject: Subject, subjects: Mapping[Subject, str | None]) -> str | None:
    if subject == "email_ip":
        return email_client(subjects, None)
    value = subjects.get(subject)
    if value and subject == "ip":
        return client_network(value)
    return value or None


@frozen
class Limiter:
    rules: tuple[RateLimit, ...]
    hasher: Hasher
    store: RateLimitStore
    server_of_exit: ExitOf = no_exits

    def admit(self, action: str, subjects: Mapping[Subject, str | None], now: datetime) -> None:
        """Count one call of ``action``; raise :class:`RateLimited` when a rule refuses it."""
        counters = self._counters(action, subjects, False, self._through(subjects))
        wait = self.store.admit(counters, now)
        if wait is not None:
            raise RateLimited(wait, action)

    def refuse_if_failing(self, action: str, subjects: Mapping[Subject, str | None], now: datetime) -> None:
        server = self._through(subjects)
        counters = self._counters(action, subjects, True, server)
        own = self._own_failures_key(action, subjects, server)
        # A rule on an e-mail alone holds back only a client that has failed for it within the
        # rule's window: a one-event rule over the client's own failures refuses exactly then.
        # Both are read in one look at the store.
        marks = [
            Counter(RateLimit(action, "email_ip", 1, counter.rule.window, True), own)
            for counter in counters
            if counter.rule.subject == "email" and own is not None
        ]
        waits = self.store.waits([*counters, *marks], now)
        failed = iter(wait is not None for wait in waits[len(counters) :])
        applying = [
            wait
            for counter, wait in zip(counters, waits, strict=False)
            if counter.rule.subject != "email" or own is None or next(failed)
        ]
        wait = max((wait for wait in applying if wait is not None), default=None)
        if wait is not None:
            raise RateLimited(wait, action)

    def count_failure(self, action: str, subjects: Mapping[Subject, str | None], now: datetime) -> None:
        server = self._through(subjects)
        own = self._own_failures_key(action, subjects, server)
        # Recording uses only the key; the rule is there because a Counter carries one.
        marks = [Counter(RateLimit(action, "email_ip", 1, timedelta(seconds=1), True), own)] if own else []
        self.store.record([*self._counters(action, subjects, True, server), *marks], now)

    def _through(self, subjects: Mapping[Subject, str | None]) -> str | None:
        """Our server whose exit address the call comes from (its id), if it does."""
        server = self.server_of_exit(subjects.get("ip"))
        return None if server is None else server.location.id

    def _own_failures_key(
        self, action: str, subjects: Mapping[Subject, str | None], server: str | None
    ) -> str | None:
        """Where a client's failures for one e-mail are recorded, whatever rules are configured."""
        value = email_client(subjects, server)
        return self._key(action, "email_ip", True, value) if value else None

    def _counters(
        self, action: str, subjects: Mapping[Subject, str | None], failures_only: bool, server: str | None
    ) -> list[Counter]:
        return [
            Counter(applied, self._key(action, applied.subject, failures_only, value))
            for rule in rules_for(self.rules, action, failures_only)
            for applied, value in counted(rule, subjects, server)
        ]

    def _key(self, action: str, subject: Subject, failures_only: bool, value: str) -> str:
        # Rules of one action and subject share their events; only the window differs.
        return self.hasher.hash(f"{action}|{subject}|{'failures' if failures_only else 'calls'}|{value}")
