"""Sliding-window rate limits per action and subject (client IP, visitor id, e-mail, or one
e-mail from one client)."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Literal, Protocol

from attrs import frozen

from vpnsite.errors import RateLimited
from vpnsite.keyed_hashes import Hasher

Subject = Literal["ip", "visitor", "email", "email_ip"]
SUBJECTS: tuple[Subject, ...] = ("ip", "visitor", "email", "email_ip")

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

    def wait(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        """The longest wait among the counters, recording nothing."""
        ...

    def record(self, counters: Sequence[Counter], now: datetime) -> None: ...


@frozen
class Limiter:
    rules: tuple[RateLimit, ...]
    hasher: Hasher
    store: RateLimitStore

    def admit(self, action: str, subjects: Mapping[Subject, str | None], now: datetime) -> None:
        """Count one call of ``action``; raise :class:`RateLimited` when a rule refuses it."""
        wait = self.store.admit(self._counters(action, subjects, failures_only=False), now)
        if wait is not None:
            raise RateLimited(wait, action)

    def refuse_if_failing(self, action: str, subjects: Mapping[Subject, str | None], now: datetime) -> None:
        counters = [
            counter
            for counter in self._counters(action, subjects, failures_only=True)
            if counter.rule.subject != "email" or self._has_failed(action, subjects, counter.rule.window, now)
        ]
        wait = self.store.wait(counters, now)
        if wait is not None:
            raise RateLimited(wait, action)

    def count_failure(self, action: str, subjects: Mapping[Subject, str | None], now: datetime) -> None:
        own = self._own_failures_key(action, subjects)
        # Recording uses only the key; the rule is there because a Counter carries one.
        marks = [Counter(RateLimit(action, "email_ip", 1, timedelta(seconds=1), True), own)] if own else []
        self.store.record([*self._counters(action, subjects, failures_only=True), *marks], now)

    def _has_failed(
        self, action: str, subjects: Mapping[Subject, str | None], window: timedelta, now: datetime
    ) -> bool:
        """Whether this client has failed for this e-mail within ``window``; a client that cannot
        be told apart from others (no address) is taken to have."""
        own = self._own_failures_key(action, subjects)
        if own is None:
            return True
        # A one-event rule over the client's own failures refuses exactly when there is one.
        return (
            self.store.wait([Counter(RateLimit(action, "email_ip", 1, window, True), own)], now) is not None
        )

    def _own_failures_key(self, action: str, subjects: Mapping[Subject, str | None]) -> str | None:
        """Where a client's failures for one e-mail are recorded, whatever rules are configured."""
        value = self._value("email_ip", subjects)
        return self._key(action, "email_ip", True, value) if value else None

    def _counters(
        self, action: str, subjects: Mapping[Subject, str | None], failures_only: bool
    ) -> list[Counter]:
        counters = []
        for rule in rules_for(self.rules, action, failures_only):
            value = self._value(rule.subject, subjects)
            if value:
                counters.append(Counter(rule, self._key(action, rule.subject, failures_only, value)))
        return counters

    def _key(self, action: str, subject: Subject, failures_only: bool, value: str) -> str:
        # Rules of one action and subject share their events; only the window differs.
        return self.hasher.hash(f"{action}|{subject}|{'failures' if failures_only else 'calls'}|{value}")

    @staticmethod
    def _value(subject: Subject, subjects: Mapping[Subject, str | None]) -> str | None:
        if subject == "email_ip":
            email, ip = subjects.get("email"), subjects.get("ip")
            return f"{email}|{client_network(ip)}" if email and ip else None
        value = subjects.get(subject)
        if value and subject == "ip":
            return client_network(value)
        return value or None
