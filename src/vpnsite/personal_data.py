"""The data inventory: every kind of personal data the service holds or causes to be held, where it
lives, why, on what legal basis, how long it is kept (by which of the core's retention rules), and
what erasure and export do with it. Every column of the database is either named here or declared
not personal, with the reason.

Tests hold the stores, the privacy policy in every language and the README to this list: a new
column, a new kind of data or a changed period fails them until this file says what it is.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any, Literal

from attrs import frozen

from vpnsite.renewals import CLOSES_AFTER_END, OPENS_BEFORE_END
from vpnsite.retention import (
    BACKUPS_KEPT,
    ERASURES_KEPT,
    LOGS_KEPT,
    MAIL_KEPT_AFTER_LAST_ATTEMPT,
    PERSONAL_DATA_KEPT_AFTER_END,
    TICKETS_KEPT_AFTER_CLOSING,
    anonymises_licence,
    deletes_erasure_record,
    deletes_mail,
    deletes_rate_event,
    deletes_renewal_link,
    deletes_ticket,
    deletes_tunnel_address,
    ends_session,
    erases_signup_ip,
)

Basis = Literal["contract", "legitimate interests"]
Place = Literal["file", "mailbox", "browser", "VPN server", "memory"]
KeptBy = Literal["store", "operator", "browser", "nobody"]

VISITOR_COOKIE_KEPT = timedelta(days=365)
SIGNUP_COOKIE_KEPT = timedelta(minutes=30)
"""How long the no-script sign-up's answer stays readable, for a reload (``hz_signup``)."""
RATE_EVENTS_KEPT = timedelta(days=1)
"""The longest window of the default rate limits (an operator's own rules may differ)."""


@frozen
class Column:
    """A column that holds the kind. ``kept_by_erasure``: an erasure leaves it in place (emptied
    columns and deleted rows are not)."""

    table: str
    name: str
    kept_by_erasure: bool = False


@frozen
class Elsewhere:
    """Held outside the database. A file the service writes and keeps (``Kept.by`` the store)
    names, in ``retained_as``, what applies its retention (the composition root's
    ``retained_files``): the same predicate as the kind's rows."""

    place: Place
    name: str
    retained_as: str | None = None


@frozen
class Kept:
    """How long: ``period`` after ``after`` (None: nothing is kept beyond ``after``), applied by
    ``by`` — the store by ``rule``, one of :mod:`vpnsite.retention`'s predicates."""

    period: timedelta | None
    after: str
    by: KeptBy
    rule: Callable[..., bool] | None = None

    @property
    def figure(self) -> str | None:
        """The period as the policy writes it: in days, in hours below two days, in minutes below
        two hours."""
        if self.period is None:
            return None
        if self.period < timedelta(hours=2):
            return str(int(self.period.total_seconds()) // 60)
        if self.period < timedelta(days=2):
            return str(int(self.period.total_seconds()) // 3600)
        return str(self.period.days)


@frozen
class DataKind:
    id: str
    name: str
    held_in: tuple[Column | Elsewhere, ...]
    purpose: str
    basis: Basis
    kept: Kept
    erasure: str
    """What ``vpnsite privacy erase`` does with it."""
    exported: bool
    """Whether ``vpnsite privacy export`` includes it."""


@frozen
class NotPersonal:
    table: str
    columns: tuple[str, ...]
    reason: str


def _columns(table: str, *names: str, kept_by_erasure: tuple[str, ...] = ()) -> tuple[Column, ...]:
    return tuple(Column(table, name, name in kept_by_erasure) for name in names)


INVENTORY: tuple[DataKind, ...] = (
    DataKind(
        "email",
        "E-mail address",
        (*_columns("licence", "email", "email_key"), *_columns("user_end", "email_key", "ends_at")),
        "identifies the address's licences; the licence, reminder and ticket e-mails go to it",
        "contract",
        Kept(PERSONAL_DATA_KEPT_AFTER_END, "the address's last licence ends", "store", anonymises_licence),
        "erased at once",
        True,
    ),
    DataKind(
        "ip_address",
        "Sign-up IP address",
        _columns("licence", "ip"),
        "protects the sign-up form against abuse",
        "legitimate interests",
        Kept(PERSONAL_DATA_KEPT_AFTER_END, "that licence ends", "store", erases_signup_ip),
        "erased at once",
        True,
    ),
    DataKind(
        "licences",
        "Licences",
        _columns(
            "licence",
            "id",
            "request_id",
            "code_hash",
            "starts_at",
            "ends_at",
            "language",
            "reminded_for_end",
            kept_by_erasure=("id", "code_hash", "starts_at", "ends_at", "language", "reminded_for_end"),
        ),
        "whether a licence is valid, when to remind its owner, how many people use the service",
        "contract",
        Kept(None, "the e-mail and IP address are erased; the rest stays, leading to no one", "store", None),
        "ended; the dates, the language and the code's keyed hash stay, without the e-mail",
        True,
    ),
    DataKind(
        "tickets",
        "Support tickets",
        _columns(
            "ticket",
            "number",
            "email",
            "email_key",
            "code_hash",
            "message",
            "created_at",
            "closed_at",
            "language",
            kept_by_erasure=("number", "created_at", "closed_at", "language"),
        ),
        "answering the person who wrote",
        "contract",
        Kept(TICKETS_KEPT_AFTER_CLOSING, "the ticket is closed", "store", deletes_ticket),
        "the e-mail, the message and the code's hash erased at once; number and dates stay until deleted",
        True,
    ),
    DataKind(
        "support_inbox",
        "Ticket copies in the support inbox",
        (Elsewhere("mailbox", "the support address (VPNSITE_SUPPORT_EMAIL)"),),
        "the support team answers from its mailbox",
        "contract",
        Kept(TICKETS_KEPT_AFTER_CLOSING, "the ticket is closed", "operator"),
        "deleted by the operator: `vpnsite privacy erase` lists the ticket numbers",
        False,
    ),
    DataKind(
        "mail_queue",
        "Outgoing e-mails",
        (
            *_columns(
                "mail_queue",
                "id",
                "kind",
                "payload",
                "about_key",
                "created_at",
                "attempts",
                "next_attempt_at",
                "claimed_until",
                "sent_at",
                "last_error",
            ),
            Elsewhere(
                "file", "the outbox folder, used instead of SMTP until a mail server is set", "outbox_files"
            ),
        ),
        "no e-mail is lost while the mail server is briefly down",
        "contract",
        Kept(MAIL_KEPT_AFTER_LAST_ATTEMPT, "it was sent or given up", "store", deletes_mail),
        "deleted, and a message still waiting is never sent",
        True,
    ),
    DataKind(
        "vpn_sessions",
        "Active VPN sessions",
        _columns(
            "vpn_session",
            "licence_id",
            "server_id",
            "started_at",
            "confirmed",
            "session_id",
            "protocol",
            "ending",
        ),
        "the device limit: one device per server",
        "contract",
        Kept(None, "the session ends (or its server has been silent for an hour)", "store", ends_session),
        "deleted; the servers end the sessions",
        True,
    ),
    DataKind(
        "wireguard_peers",
        "WireGuard tunnel addresses",
        (
            *_columns("wg_peer", "licence_id", "server_id", "address", "held_out"),
            Elsewhere("VPN server", "the WireGuard interface's peers"),
        ),
        "a device keeps its tunnel address",
        "contract",
        Kept(
            CLOSES_AFTER_END,
            "the licence ends (it can be renewed until then)",
            "store",
            deletes_tunnel_address,
        ),
        "deleted; the servers take the peers off their interfaces",
        True,
    ),
    DataKind(
        "renewal_links",
        "Renewal links",
        _columns("renewal_link", "token_hash", "token_key", "licence_id", "created_at", "used_at"),
        "the reminder's link renews one licence, once",
        "contract",
        Kept(
            OPENS_BEFORE_END + CLOSES_AFTER_END,
            "the link was sent, or at once when used",
            "store",
            deletes_renewal_link,
        ),
        "deleted",
        True,
    ),
    DataKind(
        "rate_limits",
        "Rate-limit entries",
        _columns("rate_event", "key", "at", kept_by_erasure=("key", "at")),
        "stops abuse such as guessing activation codes",
        "legitimate interests",
        Kept(RATE_EVENTS_KEPT, "the request", "store", deletes_rate_event),
        "left to expire: keyed hashes that mix the address with others cannot be found from it alone",
        False,
    ),
    DataKind(
        "erasure_journal",
        "Erasure journal",
        (
            *_columns(
                "erasure",
                "address_hash",
                "key_id",
                "erased_at",
                kept_by_erasure=("address_hash", "key_id", "erased_at"),
            ),
            Elsewhere(
                "file",
                "the erasure journal beside the backups (VPNSITE_ERASURE_JOURNAL), with its own keys",
                "erasure_journal_lines",
            ),
        ),
        "an erasure is applied again to a backup restored after it",
        "legitimate interests",
        Kept(ERASURES_KEPT, "the erasure", "store", deletes_erasure_record),
        "it is the erasure's own record: a keyed hash of the address under the journal's own key",
        False,
    ),
    DataKind(
        "backups",
        "Backups",
        (Elsewhere("file", "files made by `vpnsite backup`"),),
        "the service can be restored after a failure",
        "legitimate interests",
        Kept(BACKUPS_KEPT, "the backup was made", "operator"),
        "not rewritten; a restore applies every later erasure before the site starts",
        False,
    ),
    DataKind(
        "request_logs",
        "Request logs",
        (Elsewhere("file", "the system journal of the site and of each VPN server"),),
        "finding faults: method, path (personal links removed), status, time; no address, e-mail or code",
        "legitimate interests",
        Kept(LOGS_KEPT, "the request", "operator"),
        "nothing to erase: no line names a person",
        False,
    ),
    DataKind(
        "connection_check",
        "Connection check",
        (Elsewhere("memory", "the visitor's address, compared with our servers' exit addresses"),),
        "tells a visitor whether they reach the site through our VPN",
        "legitimate interests",
        Kept(None, "the answer is sent", "nobody"),
        "nothing is stored",
        False,
    ),
    DataKind(
        "hz_id_cookie",
        "The hz_id cookie",
        (Elsewhere("browser", "cookie hz_id"),),
        "limits abuse of the forms per device; tells apart people who share one of our servers' addresses",
        "legitimate interests",
        Kept(VISITOR_COOKIE_KEPT, "it was set", "browser"),
        "in the visitor's browser: they delete it",
        False,
    ),
    DataKind(
        "device_cookie",
        "The hz_device cookie",
        (Elsewhere("browser", "cookie hz_device: a random id and a keyed hash of a mailbox, no address"),),
        "keeps strangers' wrong codes for an address from locking out a browser that has opened its licence",
        "legitimate interests",
        Kept(VISITOR_COOKIE_KEPT, "the browser last opened a licence", "browser"),
        "in the visitor's browser: they delete it",
        False,
    ),
    DataKind(
        "signup_cookie",
        "The hz_signup cookie",
        (Elsewhere("browser", "cookie hz_signup: a no-script sign-up's new licence, sealed with AES-GCM"),),
        "a reload of the no-script sign-up's answer shows the same licence and never makes a second",
        "contract",
        Kept(SIGNUP_COOKIE_KEPT, "it was set", "browser"),
        "in the visitor's browser: it expires, or they delete it",
        False,
    ),
    DataKind(
        "browser_storage",
        "The browser tab's storage",
        (
            Elsewhere("browser", "sessionStorage vpnsite:activation: a licence's e-mail, term and end"),
            Elsewhere("browser", "sessionStorage vpnsite:signup-sent: a sign-up form's signature"),
        ),
        "fills in the licence form; a reload cannot issue a second licence. Never the activation code",
        "legitimate interests",
        Kept(None, "the tab is closed", "browser"),
        "in the visitor's browser: gone with the tab",
        False,
    ),
)

NOT_PERSONAL: tuple[NotPersonal, ...] = (
    NotPersonal("schema_migrations", ("version", "name", "applied_at"), "the database's schema version"),
    NotPersonal("user_tally", ("stripe", "users"), "a count of users, not of anyone"),
    NotPersonal(
        "licence", ("code_key", "anonymised_at"), "which ring key made a hash; when the e-mail was erased"
    ),
    NotPersonal(
        "vpn_server",
        (
            "id",
            "name",
            "country",
            "city",
            "position",
            "host",
            "port",
            "token_hash",
            "token_key",
            "last_seen",
            "load_percent",
            "bandwidth_mbps",
            "udp_port",
            "tcp_port",
            "wg_port",
            "wg_public_key",
            "wg_running",
            "ping_ms",
            "sessions",
            "service_up",
            "exit_addresses",
            "configured_exit_addresses",
            "heard_since",
        ),
        "our own servers: addresses, keys, health and how many sessions, not whose",
    ),
    NotPersonal(
        "server_uptime",
        ("server_id", "day", "up_seconds"),
        "how long each of our servers was up each day: the home page's uptime, nobody's activity",
    ),
)


def kind(kind_id: str) -> DataKind:
    for found in INVENTORY:
        if found.id == kind_id:
            return found
    raise KeyError(kind_id)


def columns() -> dict[tuple[str, str], DataKind | NotPersonal]:
    """Every declared column of the database and what it is."""
    declared: dict[tuple[str, str], DataKind | NotPersonal] = {}
    for data in INVENTORY:
        for place in data.held_in:
            if isinstance(place, Column):
                declared[(place.table, place.name)] = data
    for other in NOT_PERSONAL:
        for name in other.columns:
            declared[(other.table, name)] = other
    return declared


def kept_by_erasure() -> set[tuple[str, str]]:
    """The columns an erasure leaves in place (with the address's licence ids or hashes in them)."""
    return {
        (place.table, place.name)
        for data in INVENTORY
        for place in data.held_in
        if isinstance(place, Column) and place.kept_by_erasure
    }


def table_of_rows(inventory: tuple[DataKind, ...] = INVENTORY) -> list[dict[str, Any]]:
    """The inventory as rows for people (the README's table, `vpnsite privacy inventory`)."""
    rows = []
    for data in inventory:
        held = ", ".join(
            f"{place.table}.{place.name}" if isinstance(place, Column) else f"{place.place}: {place.name}"
            for place in data.held_in
        )
        kept = data.kept
        period = "not kept" if kept.period is None else _period(kept.period)
        rows.append(
            {
                "id": data.id,
                "data": data.name,
                "held in": held,
                "why": data.purpose,
                "basis": data.basis,
                "kept": f"{period} after {kept.after}" if kept.period is not None else f"until {kept.after}",
                "kept by": kept.by,
                "erasure": data.erasure,
                "export": "yes" if data.exported else "no",
            }
        )
    return rows


def _period(period: timedelta) -> str:
    if period < timedelta(hours=2):
        return f"{int(period.total_seconds()) // 60} minutes"
    if period < timedelta(days=2):
        return f"{int(period.total_seconds()) // 3600} hours"
    return f"{period.days} days"
