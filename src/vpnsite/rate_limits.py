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
# Not ACTIONS: no operator's rule can name them, and nothing is ever refused for them.
ACKNOWLEDGE_TICKET = "acknowledge-ticket"
MAIL_LICENCE = "mail-licence"


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

        ``hits`` are the times of the events counted so far, in any order. One after ``now`` counts
        too: another call's, made at the same moment, whose clock was read a little later (or runs
        a little fast, on another hub); left out, each of a burst of calls would see only those
        that read the clock before it, and the burst would get more than the limit.
        """
        since = now - self.window
        recent = sorted(hit for hit in hits if since < hit)
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

LICENCE_EMAILS = RateLimit(MAIL_LICENCE, "email", 1, timedelta(days=1))
"""A sign-up's licence is e-mailed to its address at most once a day (the mailbox as
:func:`vpnsite.emails.mailbox_key` reads it), whoever signs up for it and from wherever: anyone
may type any address, and the site must not become a way to mail someone over and over. A later
sign-up within the day still gets its licence, shown on screen only. Fixed, like
:data:`TICKET_ACKNOWLEDGEMENTS`, and never refuses anything."""

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
    """How long counted events must be kept for ``rules`` and the fixed rules of the mail an
    address is sent (which hold even with every limit off)."""
    return longest_window((*rules, TICKET_ACKNOWLEDGEMENTS, LICENCE_EMAILS))


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
# A network is held to this many clients' worth of sign-ups, in every window of the per-client
# rules: an IPv4 /24, or an IPv6 /48 (a site: 65,536 /64s, each of which counts as one client).
# Without it one /48 could take a free tier of a million in a day; with it, 90 licences.
NETWORK_FACTOR = 3
NETWORK_PREFIX = {4: 24, 6: 48}
NETWORK_BOUNDED = (SUBMIT_EMAIL, CREATE_USER)
# A client is a guesser for an e-mail, and held back by the e-mail's shared ceiling while it is
# full, once it has got a code wrong for it this many times within the ceiling's window; a network
# (as above) once its clients have together, NETWORK_FACTOR times as often.
GUESSER_FAILURES = 2
# A browser with a device cookie for the e-mail is judged by its own wrong codes alone: this many
# an hour, then it waits like anyone.
DEVICE_FAILURES = 10
DEVICE_WINDOW = timedelta(hours=1)

ExitOf = Callable[[str | None], VpnServer | None]
"""The online server of ours whose exit address a client address is; None for any other."""


def no_exits(address: str | None) -> VpnServer | None:
    """A hub that knows no servers: every address is a client's own."""
    return None


def network_of(ip: str | None) -> str | None:
    """The network a client address is held to with its neighbours (``NETWORK_PREFIX``); None for
    what is not an address."""
    try:
        address = ipaddress.ip_address(ip or "")
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return str(ipaddress.ip_network((address, NETWORK_PREFIX[address.version]), strict=False))


def counted(
    rule: RateLimit, subjects: Mapping[Subject, str | None], server: str | None
) -> list[tuple[RateLimit, str]]:
    """Which counts one call makes under ``rule``: each the rule it is held to and the value it is
    counted under (kept only as a keyed hash).

    A per-client rule of a sign-up counts the client's network too, at ``NETWORK_FACTOR`` times
    its limit. ``server`` is the id of the online server of ours whose exit address the call comes
    from, if it does. That address stands for everyone on the server, so a per-address rule counts
    the call for the server, at ``EXIT_FACTOR`` times the rule's limit, and at the rule's own limit
    for the person: for ``ip`` by their visitor id, and without one with the server only — never by
    the e-mail they give alone, which strangers could type to use up its owner's allowance; for
    ``email_ip`` the e-mail with their visitor id (see :func:`email_client`).
    """
    if server is None or rule.subject not in PER_ADDRESS:
        found = [(rule, _value(rule.subject, subjects))]
        network = network_of(subjects.get("ip"))
        if server is None and rule.subject == "ip" and rule.action in NETWORK_BOUNDED and network:
            found.append((_times(rule, NETWORK_FACTOR), _network(network)))
    elif rule.subject == "ip":
        visitor = subjects.get("visitor")
        found = [(_times(rule, EXIT_FACTOR), _server(server))]
        if visitor:
            found.append((attrs.evolve(rule, subject="visitor"), visitor))
    else:
        email = subjects.get("email")
        found = [
            (_times(rule, EXIT_FACTOR), email and f"{email}|{_server(server)}"),
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


def _times(rule: RateLimit, factor: int) -> RateLimit:
    return attrs.evolve(rule, limit=rule.limit * factor)


def _server(server: str) -> str:
    # No client's address reads so: the server's count is never one client's.
    return f"server:{server}"


def _network(network: str) -> str:
    # Nor a network's: "198.51.100.0/24" would otherwise share a count with no client, but say so.
    return f"network:{network}"


def _value(subject: Subject, subjects: Mapping[Subject, str | None]) -> str | None:
    if subject == "email_ip":
        return email_client(subjects, None)
    value = subjects.get(subject)
    if value and subject == "ip":
        return client_network(value)
    return value or None


@frozen
class OwnMarks:
    """Where one client's failures for one e-mail are kept, and its network's (None: a call
    through one of our servers, whose exit address is no network of the client's)."""

    client: str
    network: str | None


@frozen
class FailureCheck:
    """The counters a failures check reads, and its verdict on their waits (see
    :meth:`Limiter.refuse_if_failing`): the first ``rules`` are the failures rules (or the device's
    own count), each e-mail ceiling among them followed, in order, by the two guesser marks that
    decide whether it holds this client (``own``: the client has marks of its own)."""

    action: str
    counters: tuple[Counter, ...]
    rules: int
    own: bool

    def refuse(self, waits: Sequence[timedelta | None]) -> None:
        """Raise :class:`RateLimited` if the waits read for ``counters``, in their order, hold
        this client back."""
        guessers = iter(
            any(wait is not None for wait in waits[position : position + 2])
            for position in range(self.rules, len(waits), 2)
        )
        applying = [
            wait
            for counter, wait in zip(self.counters[: self.rules], waits, strict=False)
            if counter.rule.subject != "email" or not self.own or next(guessers)
        ]
        wait = max((wait for wait in applying if wait is not None), default=None)
        if wait is not None:
            raise RateLimited(wait, self.action)


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

    def refuse_if_failing(
        self, action: str, subjects: Mapping[Subject, str | None], now: datetime, device: str | None = None
    ) -> None:
        """Raise :class:`RateLimited` if this client has failed too often for ``action``.

        ``device``: the id of the caller's device cookie for the e-mail
        (``device_cookies.DeviceCookies.recognised``). A browser that has opened the licence before
        is judged by its own failures alone (``DEVICE_FAILURES`` an hour): nothing strangers do
        holds it back.

        Otherwise every failures rule holds as configured, but for a failures rule on an e-mail
        alone: that is a ceiling every client's failures fill together, so it must not hold back
        everyone, or strangers' guesses lock the owner out. It holds back, while full, only a
        client that has itself got a code wrong for the e-mail ``GUESSER_FAILURES`` times within
        its window, or whose network's clients have ``NETWORK_FACTOR`` times as often. Why:

        - an owner who mistypes once (a transposition the check digit did not catch, an old
          code), then types the right code, gets in even while strangers keep the ceiling full;
        - guessing stays bounded. Each client's own rule (20 an hour) holds as ever; once the
          ceiling is full a client gets past it only until it has failed twice, and a network until
          its clients have failed six times: an hour allows at most the ceiling plus six guesses
          per network (IPv4 /24 or IPv6 /48) an attacker brings (bench/attack.py). Against 10^19
          codes, a million networks an hour would need 10^12 hours for an even chance.

        A client with no address of its own (no IP) cannot be told from others: every ceiling
        holds it. Everything is read in one look at the
        store.
        """
        check = self.failure_check(action, subjects, device)
        check.refuse(self.store.waits(check.counters, now))

    def failure_check(
        self, action: str, subjects: Mapping[Subject, str | None], device: str | None = None
    ) -> FailureCheck:
        """What :meth:`refuse_if_failing` reads and how it judges it, for a caller that reads the
        counters' waits along with something else of its own, in one look at the store."""
        if device is not None:
            return FailureCheck(action, (self._device_counter(action, device),), rules=1, own=False)
        server = self._through(subjects)
        counters = self._counters(action, subjects, True, server)
        own = self._own_marks(action, subjects, server)
        ceilings = [counter for counter in counters if counter.rule.subject == "email"]
        marks = [
            Counter(RateLimit(action, "email_ip", limit, ceiling.rule.window, True), key)
            for ceiling in ceilings
            for limit, key in self._guesser_marks(own)
        ]
        return FailureCheck(action, (*counters, *marks), rules=len(counters), own=own is not None)

    def count_failure(
        self, action: str, subjects: Mapping[Subject, str | None], now: datetime, device: str | None = None
    ) -> None:
        """Record one failure under every failures rule, under the client's and its network's
        marks (see :meth:`refuse_if_failing`), and under the device's own count when the caller
        showed a device cookie."""
        server = self._through(subjects)
        own = self._own_marks(action, subjects, server)
        marks = [] if own is None else [own.client, *([own.network] if own.network else [])]
        # Recording uses only the key; the rule is there because a Counter carries one.
        mark = RateLimit(action, "email_ip", 1, timedelta(seconds=1), True)
        counters = [
            *self._counters(action, subjects, True, server),
            *(Counter(mark, key) for key in marks),
            *([self._device_counter(action, device)] if device is not None else []),
        ]
        self.store.record(counters, now)

    def _guesser_marks(self, own: OwnMarks | None) -> list[tuple[int, str]]:
        """The two marks that make a client a guesser, each with the failures it takes; a mark
        that cannot fill (no network) is the client's again."""
        if own is None:
            return []
        return [
            (GUESSER_FAILURES, own.client),
            (GUESSER_FAILURES * NETWORK_FACTOR, own.network or own.client),
        ]

    def _device_counter(self, action: str, device: str) -> Counter:
        rule = RateLimit(action, "visitor", DEVICE_FAILURES, DEVICE_WINDOW, True)
        # A kind of its own where _key says "calls" or "failures": never another counter's key.
        return Counter(rule, self.hasher.hash(f"{action}|device|failures|{device}"))

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
        network = network_of(subjects.get("ip")) if server is None else None
        return OwnMarks(
            client=self._key(action, "email_ip", True, value),
            network=network
            and self._key(action, "email_ip", True, f"{subjects.get('email')}|{_network(network)}"),
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
