"""Sliding-window rate limits per action and subject (client IP, visitor id, e-mail, or one
e-mail from one client), who counts as one client when a call comes through one of our own VPN
servers, and the one fixed rule of what is done at most once a window rather than refused (a
ticket's acknowledgement)."""

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
# Not one of ACTIONS: no operator's rule can name it, and nothing is ever refused for it.
ACKNOWLEDGE_TICKET = "acknowledge-ticket"


@frozen
class RateLimit:
    """At most ``limit`` counted events per ``window`` for one subject of one action.

    ``failures_only`` rules count only calls that failed (wrong codes, say), so a person who gets
    it right is never slowed down by them. A failures rule on an e-mail alone is a ceiling shared by
    every client, so it holds back only clients that look like guessers for that e-mail (see
    :meth:`Limiter.refuse_if_failing`): an owner who has not got it wrong, or got it wrong once
    before the ceiling filled, is never locked out by strangers' guesses.
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
    # No rule on a ticket's e-mail alone (parse_rules refuses one): strangers could fill it and
    # lock the address's owner out of support. TICKET_ACKNOWLEDGEMENTS bounds the mail it gets.
    RateLimit(SUPPORT, "ip", 5, timedelta(hours=1)),
    RateLimit(ARCHIVE, "ip", 20, timedelta(minutes=10)),
    # A QR code per server on every activation and dashboard a desktop shows: a few dozen a visit.
    RateLimit(QR_CODE, "ip", 100, timedelta(minutes=10)),
)

TICKET_ACKNOWLEDGEMENTS = RateLimit(ACKNOWLEDGE_TICKET, "email", 1, timedelta(hours=1))
"""A ticket is acknowledged by e-mail to its address at most once an hour (the address as
:func:`vpnsite.emails.mailbox_key` reads it); later tickets within the hour are stored and
forwarded all the same, only not acknowledged. Fixed, not an operator's setting: it is what keeps
the support form from being a way to mail someone in bulk, and it never refuses anything."""

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
        if match["action"] == SUPPORT and subject == "email":
            raise ValueError(
                f"a ticket is never refused for its e-mail alone (strangers could fill the count and "
                f"lock the address's owner out of support): {item!r}"
            )
        rules.append(RateLimit(match["action"], subject, limit, window, bool(match["failures"])))
    return tuple(rules)


def rules_for(rules: Sequence[RateLimit], action: str, failures_only: bool = False) -> list[RateLimit]:
    return [rule for rule in rules if rule.action == action and rule.failures_only == failures_only]


def longest_window(rules: Sequence[RateLimit]) -> timedelta:
    return max((rule.window for rule in rules), default=timedelta(0))


def events_kept_for(rules: Sequence[RateLimit]) -> timedelta:
    """How long counted events must be kept for ``rules`` and the fixed rule of acknowledgements
    (which holds even with every limit off)."""
    return longest_window((*rules, TICKET_ACKNOWLEDGEMENTS))


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
class OwnMarks:
    """The keys of one client's own record for one e-mail: its failures, and its failures counted
    while a ceiling on the e-mail was full."""

    failures: str
    while_full: str


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

    def admits_one_more(self, rule: RateLimit, subjects: Mapping[Subject, str | None], now: datetime) -> bool:
        """Whether ``rule`` admits one more event for these subjects, recording it if it does, in
        one atomic step: for something done at most ``rule.limit`` times a window and otherwise
        left undone (an acknowledgement), never refused. Inside the caller's unit of work, the
        event is kept only if that commits."""
        counters = [
            Counter(applied, self._key(rule.action, applied.subject, rule.failures_only, value))
            for applied, value in counted(rule, subjects, self._through(subjects))
        ]
        return self.store.admit(counters, now) is None

    def refuse_if_failing(self, action: str, subjects: Mapping[Subject, str | None], now: datetime) -> None:
        """Raise :class:`RateLimited` if this client has failed too often for ``action``.

        A failures rule on an e-mail alone is a ceiling every client's failures fill together, so
        it must not hold back everyone, or strangers' guesses lock the owner out. It holds back a
        client only within its window, if the client has failed for that e-mail there itself
        either at least twice, or once while that or another ceiling was already full (a mark
        :meth:`count_failure` records). Why:

        - an owner who mistyped once (a mistyping the check digit did not catch: a transposition,
          an old code) before strangers filled the ceiling still gets in, where any own failure
          used to hold them back for the rest of the hour;
        - guessing is as hard as before. Each client's own rule (20 an hour) holds as ever; once
          the ceiling is full a client gets past it at most once more (that failure is counted
          while it is full), so an hour allows at most the ceiling plus one guess per client, as
          before. Only the clients that had failed exactly once when it filled gain that one guess:
          with twenty addresses in turn the ceiling fills after ten each, so nothing changes
          (bench/attack.py: 20 from one address, 200 from twenty, one per try from a new address
          each time). The worst case is as many addresses as the ceiling allows, each failing once
          before it fills and once after: 400 with 200 addresses, where before the same 200
          addresses got 390 (ten filling the ceiling, 190 fresh ones once each).

        A client with no address of its own (no IP, or through our server with no visitor id and no
        e-mail) cannot be told from others: every ceiling holds it. Everything is read in one look
        at the store.
        """
        server = self._through(subjects)
        counters = self._counters(action, subjects, True, server)
        own = self._own_marks(action, subjects, server)
        ceilings = [counter for counter in counters if counter.rule.subject == "email"]
        marks = (
            [
                Counter(RateLimit(action, "email_ip", limit, ceiling.rule.window, True), key)
                for ceiling in ceilings
                for limit, key in ((2, own.failures), (1, own.while_full))
            ]
            if own is not None
            else []
        )
        waits = self.store.waits([*counters, *marks], now)
        looks_like_a_guesser = iter(
            waits[position] is not None or waits[position + 1] is not None
            for position in range(len(counters), len(waits), 2)
        )
        applying = [
            wait
            for counter, wait in zip(counters, waits, strict=False)
            if counter.rule.subject != "email" or own is None or next(looks_like_a_guesser)
        ]
        wait = max((wait for wait in applying if wait is not None), default=None)
        if wait is not None:
            raise RateLimited(wait, action)

    def count_failure(self, action: str, subjects: Mapping[Subject, str | None], now: datetime) -> None:
        """Record one failure under every failures rule, and under the client's own marks (see
        :meth:`refuse_if_failing`): always its failures for the e-mail, and that it failed while a
        ceiling was full if one was (looked at first, before this failure is counted)."""
        server = self._through(subjects)
        counters = self._counters(action, subjects, True, server)
        own = self._own_marks(action, subjects, server)
        if own is None:
            self.store.record(counters, now)
            return
        ceilings = [counter for counter in counters if counter.rule.subject == "email"]
        full = bool(ceilings) and any(wait is not None for wait in self.store.waits(ceilings, now))
        # Recording uses only the key; the rule is there because a Counter carries one.
        mark = RateLimit(action, "email_ip", 1, timedelta(seconds=1), True)
        marks = [Counter(mark, own.failures), *([Counter(mark, own.while_full)] if full else [])]
        self.store.record([*counters, *marks], now)

    def _through(self, subjects: Mapping[Subject, str | None]) -> str | None:
        """Our server whose exit address the call comes from (its id), if it does."""
        server = self.server_of_exit(subjects.get("ip"))
        return None if server is None else server.location.id

    def _own_marks(
        self, action: str, subjects: Mapping[Subject, str | None], server: str | None
    ) -> OwnMarks | None:
        """Where a client's failures for one e-mail are recorded, whatever rules are configured;
        None for a client that cannot be told from others."""
        value = email_client(subjects, server)
        if not value:
            return None
        return OwnMarks(
            failures=self._key(action, "email_ip", True, value),
            # A kind of its own where _key says "calls" or "failures": never another counter's key.
            while_full=self.hasher.hash(f"{action}|email_ip|failures-while-full|{value}"),
        )

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
