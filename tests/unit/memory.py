"""The core's ports in memory, for the use-case tests. Every store writes into one
:class:`MemoryDatabase`, so the unit of work can keep or undo their writes together; each answers
as its SQL counterpart in ``vpnsite_adapters.sql`` does (the unit tests run on both to keep them
honest). A write SQL would refuse with an integrity error raises :class:`IntegrityError`."""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import attrs
from attrs import Factory, define, frozen

from vpnsite.emails import mailbox_key
from vpnsite.erasure_journal import ErasureRecord
from vpnsite.errors import RequestAlreadyUsed
from vpnsite.fleet import Heard, Heartbeat, Location, VpnServer
from vpnsite.keyed_hashes import ORIGINAL_KEY, KeyedHash
from vpnsite.licences import Licence
from vpnsite.notifications import Ticket
from vpnsite.privacy import (
    Erased,
    Held,
    HeldLicence,
    HeldRenewalLink,
    HeldSession,
    HeldTicket,
    HeldTunnelAddress,
)
from vpnsite.rate_limits import Counter
from vpnsite.retention import (
    RetentionPlan,
    RetentionReport,
    anonymises_licence,
    deletes_erasure_record,
    deletes_rate_event,
    deletes_renewal_link,
    deletes_ticket,
    deletes_tunnel_address,
    ends_session,
    erases_signup_ip,
)
from vpnsite.server_tokens import TokenHolder
from vpnsite.signups import Redemption
from vpnsite.vpn_access import Session


class IntegrityError(Exception):
    """A unique key or a reference the SQL schema enforces was broken."""


@define
class LicenceRow:
    id: str
    request_id: str | None
    email: str | None
    ip: str | None
    code_hash: str
    starts_at: datetime
    ends_at: datetime
    language: str = "en"
    anonymised_at: datetime | None = None
    reminded_for_end: datetime | None = None
    code_key: int = ORIGINAL_KEY

    @property
    def email_key(self) -> str | None:
        return None if self.email is None else mailbox_key(self.email)

    def licence(self) -> Licence:
        return Licence(
            self.id,
            self.email or "",
            self.code_hash,
            self.starts_at,
            self.ends_at,
            self.language,
            self.code_key,
        )


@define
class RenewalLinkRow:
    licence_id: str
    created_at: datetime
    used_at: datetime | None = None
    token_key: int = ORIGINAL_KEY


@define
class TicketRow:
    ticket: Ticket
    email: str | None
    message: str | None
    code_hash: str | None

    @property
    def email_key(self) -> str | None:
        return None if self.email is None else mailbox_key(self.email)

    def read(self) -> Ticket:
        return attrs.evolve(
            self.ticket, email=self.email or "", message=self.message or "", code_hash=self.code_hash
        )


@define
class ServerRow:
    server: VpnServer
    position: int
    token_hash: str | None = None
    token_key: int = ORIGINAL_KEY


@define
class MemoryDatabase:
    """The tables, as plain dicts keyed as the SQL tables are."""

    licences: dict[str, LicenceRow] = Factory(dict)
    renewal_links: dict[str, RenewalLinkRow] = Factory(dict)
    rate_events: dict[str, list[datetime]] = Factory(dict)
    tickets: dict[str, TicketRow] = Factory(dict)
    servers: dict[str, ServerRow] = Factory(dict)
    sessions: dict[tuple[str, str], Session] = Factory(dict)
    wg_peers: dict[tuple[str, str], str] = Factory(dict)
    # (licence, server) of the peers held out; only those with a peer in wg_peers count.
    wg_held_out: set[tuple[str, str]] = Factory(set)
    erasures: dict[str, ErasureRecord] = Factory(dict)

    def restore(self, saved: MemoryDatabase) -> None:
        for field in attrs.fields(MemoryDatabase):
            setattr(self, field.name, getattr(saved, field.name))

    def live_licence(self, licence_id: str, now: datetime) -> bool:
        row = self.licences.get(licence_id)
        return row is not None and row.ends_at > now and row.email is not None


class MemoryUnitOfWork:
    """``atomic`` keeps every write made inside it through any memory store, or none of them; a
    nested block is a savepoint of the outer one, as with SQL. ``after_commit`` callbacks run once
    the outermost block has committed, never after a rollback."""

    def __init__(self, db: MemoryDatabase) -> None:
        self.db = db
        self._pending: list[Callable[[], None]] | None = None

    @contextmanager
    def scope(self) -> Iterator[None]:
        yield

    @contextmanager
    def atomic(self) -> Iterator[None]:
        outermost = self._pending is None
        pending = self._pending = [] if self._pending is None else self._pending
        registered, saved = len(pending), copy.deepcopy(self.db)
        try:
            yield
        except BaseException:
            self.db.restore(saved)
            del pending[registered:]
            raise
        finally:
            if outermost:
                self._pending = None
        if outermost:
            for callback in pending:
                callback()

    def after_commit(self, callback: Callable[[], None]) -> None:
        if self._pending is None:
            callback()
        else:
            self._pending.append(callback)


@frozen
class MemorySignupStore:
    db: MemoryDatabase

    def redeem(self, request_id: str, licence: Licence, ip: str | None) -> Redemption:
        if self.was_redeemed(request_id):
            return "already_used"
        if licence.id in self.db.licences or any(
            other.code_hash == licence.code_hash for other in self.db.licences.values()
        ):
            return "code_taken"
        self.db.licences[licence.id] = LicenceRow(
            licence.id,
            request_id,
            licence.email,
            ip,
            licence.code_hash,
            licence.starts_at,
            licence.ends_at,
            licence.language,
            code_key=licence.code_key,
        )
        return "redeemed"

    def was_redeemed(self, request_id: str) -> bool:
        return any(row.request_id == request_id for row in self.db.licences.values())


@frozen
class MemoryLicenceStore:
    db: MemoryDatabase

    def find_by_code_hashes(self, code_hashes: Sequence[str]) -> Licence | None:
        rows = self.db.licences.values()
        return next((row.licence() for row in rows if row.code_hash in code_hashes), None)

    def find_by_code_hashes_with_waits(
        self, code_hashes: Sequence[str], counters: Sequence[Counter], now: datetime
    ) -> tuple[Licence | None, list[timedelta | None]]:
        return self.find_by_code_hashes(code_hashes), MemoryRateLimitStore(self.db).waits(counters, now)

    def rekey_code(self, licence_id: str, old_hash: str, new: KeyedHash) -> None:
        row = self.db.licences.get(licence_id)
        if row is not None and row.code_hash == old_hash:
            row.code_hash, row.code_key = new.value, new.key_id

    def find_by_id(self, licence_id: str) -> Licence | None:
        row = self.db.licences.get(licence_id)
        return None if row is None else row.licence()

    def find_by_email_key(self, key: str) -> list[Licence]:
        rows = sorted(self.db.licences.values(), key=lambda row: row.starts_at)
        return [row.licence() for row in rows if row.email_key == key]

    def count_users(self, now: datetime) -> int:
        live = (row for row in self.db.licences.values() if row.ends_at > now and row.email is not None)
        return len({row.email_key for row in live})

    def started_since(self, since: datetime) -> list[datetime]:
        return [row.starts_at for row in self.db.licences.values() if row.starts_at >= since]

    def licences_started(self, windows: Sequence[tuple[datetime, datetime]]) -> list[int]:
        starts = [row.starts_at for row in self.db.licences.values()]
        return [sum(start < at <= end for at in starts) for start, end in windows]

    def erased_ids(self, ended_since: datetime) -> list[str]:
        return [
            row.id for row in self.db.licences.values() if row.ends_at >= ended_since and row.email is None
        ]


@frozen
class MemoryRenewalStore:
    db: MemoryDatabase

    def extend(self, licence_id: str, ends_at: datetime, new_end: datetime) -> bool:
        row = self.db.licences.get(licence_id)
        if row is None or row.ends_at != ends_at:
            return False
        row.ends_at = new_end
        return True

    def add_renewal_link(self, link: KeyedHash, licence_id: str, now: datetime) -> None:
        if link.value in self.db.renewal_links or licence_id not in self.db.licences:
            raise IntegrityError("renewal_link")
        self.db.renewal_links[link.value] = RenewalLinkRow(licence_id, now, token_key=link.key_id)

    def take_renewal_link(self, link_hashes: Sequence[str], now: datetime) -> Licence | None:
        link = next(
            (self.db.renewal_links[value] for value in link_hashes if value in self.db.renewal_links), None
        )
        if link is None:
            return None
        if link.used_at is not None:
            raise RequestAlreadyUsed()
        link.used_at = now
        row = self.db.licences.get(link.licence_id)
        return None if row is None else row.licence()

    def licences_ending(self, before: datetime, now: datetime) -> list[tuple[Licence, datetime | None]]:
        return [
            (row.licence(), row.reminded_for_end)
            for row in self.db.licences.values()
            if now < row.ends_at < before and row.email is not None
        ]

    def mark_reminded(self, licence_id: str, ends_at: datetime) -> bool:
        row = self.db.licences.get(licence_id)
        if row is None or row.reminded_for_end == ends_at:
            return False
        row.reminded_for_end = ends_at
        return True


@frozen
class MemoryRateLimitStore:
    """Events per key; admission all or nothing."""

    db: MemoryDatabase = Factory(MemoryDatabase)

    @property
    def events(self) -> dict[str, list[datetime]]:
        return self.db.rate_events

    def admit(self, counters: Sequence[Counter], now: datetime) -> timedelta | None:
        wait = max((wait for wait in self.waits(counters, now) if wait is not None), default=None)
        if wait is None:
            self.record(counters, now)
        return wait

    def waits(self, counters: Sequence[Counter], now: datetime) -> list[timedelta | None]:
        waits = []
        for counter in counters:
            # As in SQL: the newest `limit` events inside the window decide whether one more fits.
            inside = [at for at in self.events.get(counter.key, []) if at > now - counter.rule.window]
            waits.append(counter.rule.retry_after(sorted(inside, reverse=True)[: counter.rule.limit], now))
        return waits

    def record(self, counters: Sequence[Counter], now: datetime) -> None:
        for key in sorted({counter.key for counter in counters}):
            self.events.setdefault(key, []).append(now)

    def lock(self, counters: Sequence[Counter]) -> None:
        """One thread at a time: nothing else can come between."""


@frozen
class MemoryTicketStore:
    db: MemoryDatabase

    def add_ticket(self, ticket: Ticket) -> bool:
        if ticket.number in self.db.tickets:
            return False
        stored = attrs.evolve(ticket, closed_at=None)
        self.db.tickets[ticket.number] = TicketRow(stored, ticket.email, ticket.message, ticket.code_hash)
        return True

    def find_ticket(self, number: str) -> Ticket | None:
        row = self.db.tickets.get(number)
        return None if row is None else row.read()

    def list_tickets(self, open_only: bool, limit: int) -> list[Ticket]:
        rows = sorted(self.db.tickets.values(), key=lambda row: row.ticket.created_at, reverse=True)
        return [row.read() for row in rows if not open_only or row.ticket.closed_at is None][:limit]

    def count_open(self) -> int:
        return sum(row.ticket.closed_at is None for row in self.db.tickets.values())

    def close_ticket(self, number: str, now: datetime) -> bool:
        row = self.db.tickets.get(number)
        if row is None or row.ticket.closed_at is not None:
            return False
        row.ticket = attrs.evolve(row.ticket, closed_at=now)
        return True


@frozen
class MemoryFleetStore:
    """FleetStore, ServerList and ServerTokens, with what tests set a fleet up with."""

    db: MemoryDatabase

    def list_servers(self) -> list[VpnServer]:
        rows = sorted(self.db.servers.values(), key=lambda row: (row.position, row.server.location.id))
        return [row.server for row in rows]

    def _next_position(self) -> int:
        return max((row.position for row in self.db.servers.values()), default=0) + 1

    def add_locations(self, locations: Iterable[Location]) -> None:
        first = self._next_position()
        for n, location in enumerate(locations):
            self.db.servers.setdefault(location.id, ServerRow(VpnServer(location), first + n))

    def is_empty(self) -> bool:
        return not self.db.servers

    def add_server(self, location: Location, host: str, udp_port: int | None, tcp_port: int | None) -> bool:
        if location.id in self.db.servers:
            return False
        server = VpnServer(
            location, host=host, port=tcp_port or udp_port, udp_port=udp_port, tcp_port=tcp_port
        )
        self.db.servers[location.id] = ServerRow(server, self._next_position())
        return True

    def find_server(self, server_id: str) -> VpnServer | None:
        row = self.db.servers.get(server_id)
        return None if row is None else row.server

    def set_token(self, server_id: str, token: KeyedHash) -> bool:
        row = self.db.servers.get(server_id)
        if row is None:
            return False
        if any(other.token_hash == token.value for key, other in self.db.servers.items() if key != server_id):
            raise IntegrityError("vpn_server.token_hash")
        row.token_hash, row.token_key = token.value, token.key_id
        return True

    def rekey_token(self, server_id: str, old_hash: str, new: KeyedHash) -> None:
        row = self.db.servers.get(server_id)
        if row is not None and row.token_hash == old_hash:
            row.token_hash, row.token_key = new.value, new.key_id

    def token_hashes(self) -> list[str]:
        return [row.token_hash for row in self.db.servers.values() if row.token_hash]

    def set_wireguard(self, server_id: str, port: int, public_key: str) -> None:
        self._update(server_id, wg_port=port, wg_public_key=public_key)

    def last_heard(self, server_id: str) -> Heard | None:
        row = self.db.servers.get(server_id)
        return None if row is None else Heard(row.server.last_seen, row.server.configured_exit_addresses)

    def token_holder(self, token_hashes: Sequence[str]) -> TokenHolder | None:
        row = next((row for row in self.db.servers.values() if row.token_hash in token_hashes), None)
        if row is None or row.token_hash is None:
            return None
        return TokenHolder(row.server.location.id, row.token_hash)

    def record_heartbeat(
        self,
        server_id: str,
        beat: Heartbeat,
        exits: Sequence[str],
        now: datetime,
        end_sessions: bool,
        up: Sequence[Any] = (),
    ) -> None:
        # The up time is the SQL store's (tests/integration/test_social_proof.py); the rule is
        # vpnsite.uptime's (tests/unit/test_uptime.py).
        if end_sessions:
            self.db.sessions = {
                key: s for key, s in self.db.sessions.items() if s.server_id != server_id or s.ending
            }
        self._update(
            server_id,
            last_seen=now,
            load_percent=beat.cpu_load,
            bandwidth_mbps=beat.bandwidth_mbps,
            sessions=beat.sessions,
            service_up=beat.service_up,
            exit_addresses=tuple(exits),
        )

    def configure_exit_addresses(self, server_id: str, addresses: Sequence[str]) -> None:
        self._update(server_id, exit_addresses=tuple(addresses), configured_exit_addresses=tuple(addresses))

    def _update(self, server_id: str, **changes: Any) -> None:
        row = self.db.servers.get(server_id)
        if row is not None:
            row.server = attrs.evolve(row.server, **changes)


@frozen
class MemorySessionStore:
    db: MemoryDatabase

    def _counts(self, session: Session, unconfirmed_since: datetime, heard_since: datetime) -> bool:
        server = self.db.servers.get(session.server_id)
        last_seen = None if server is None else server.server.last_seen
        fresh = session.confirmed or session.started_at > unconfirmed_since
        return fresh and not session.ending and last_seen is not None and last_seen >= heard_since

    def sessions_of(
        self, licence_id: str, unconfirmed_since: datetime, heard_since: datetime
    ) -> list[Session]:
        return [
            s
            for s in self.db.sessions.values()
            if s.licence_id == licence_id and self._counts(s, unconfirmed_since, heard_since)
        ]

    def sessions_on(self, server_id: str) -> list[Session]:
        return [s for s in self.db.sessions.values() if s.server_id == server_id]

    def lock_licence(self, licence_id: str) -> None:
        """One thread uses the memory store: nothing to hold off."""

    def hold(self, session: Session) -> None:
        self.db.sessions[(session.licence_id, session.server_id)] = session

    def mark_ending(self, licence_id: str, session_ids: Sequence[str] | None) -> int:
        marked = [
            key
            for key, s in self.db.sessions.items()
            if s.licence_id == licence_id and not s.ending and (session_ids is None or s.id in session_ids)
        ]
        for key in marked:
            self.db.sessions[key] = attrs.evolve(self.db.sessions[key], ending=True)
        return len(marked)

    def confirm(self, server_id: str, session_id: str, fresh_since: datetime) -> bool:
        found = [
            k
            for k, s in self.db.sessions.items()
            if s.server_id == server_id and s.id == session_id and (s.confirmed or s.started_at > fresh_since)
        ]
        for key in found:
            self.db.sessions[key] = attrs.evolve(self.db.sessions[key], confirmed=True)
        return bool(found)

    def release(self, server_id: str, session_ids: Sequence[str]) -> int:
        gone = [k for k, s in self.db.sessions.items() if s.server_id == server_id and s.id in session_ids]
        for key in gone:
            del self.db.sessions[key]
        return len(gone)

    def licences_by_id(self, licence_ids: Sequence[str]) -> dict[str, Licence]:
        return {i: self.db.licences[i].licence() for i in licence_ids if i in self.db.licences}


@frozen
class MemoryWireGuardStore:
    db: MemoryDatabase

    def address_of(self, licence_id: str, server_id: str) -> str | None:
        return self.db.wg_peers.get((licence_id, server_id))

    def taken_on(self, server_id: str) -> set[str]:
        return {address for (_, server), address in self.db.wg_peers.items() if server == server_id}

    def claim(self, licence_id: str, server_id: str, address: str) -> bool:
        if (licence_id, server_id) in self.db.wg_peers or address in self.taken_on(server_id):
            return False
        self.db.wg_peers[(licence_id, server_id)] = address
        self.db.wg_held_out.discard((licence_id, server_id))  # a new peer, as a new row is
        return True

    def live_peers(self, server_id: str, now: datetime) -> list[tuple[str, str]]:
        return [
            (licence_id, address)
            for (licence_id, server), address in self.db.wg_peers.items()
            if server == server_id
            and self.db.live_licence(licence_id, now)
            and (licence_id, server) not in self.db.wg_held_out
        ]

    def hold_out(self, licence_id: str, server_ids: Collection[str]) -> int:
        new = {(licence_id, server) for server in server_ids if (licence_id, server) in self.db.wg_peers}
        new -= self.db.wg_held_out
        self.db.wg_held_out.update(new)
        return len(new)

    def let_in(self, licence_id: str, server_id: str) -> bool:
        held = (licence_id, server_id) in self.db.wg_held_out
        self.db.wg_held_out.discard((licence_id, server_id))
        return held and (licence_id, server_id) in self.db.wg_peers

    def held_out(self, licence_id: str) -> list[str]:
        return sorted(
            server
            for licence, server in self.db.wg_held_out
            if licence == licence_id and (licence, server) in self.db.wg_peers
        )


def _last_seen(db: MemoryDatabase, server_id: str) -> datetime | None:
    row = db.servers.get(server_id)
    return None if row is None else row.server.last_seen


@frozen
class MemoryRetentionStore:
    db: MemoryDatabase

    def apply_retention(self, plan: RetentionPlan) -> RetentionReport:
        db = self.db
        ips = 0
        for row in db.licences.values():
            if row.ip is not None and erases_signup_ip(plan, row.ends_at):
                row.ip, ips = None, ips + 1
        live = {
            row.email_key for row in db.licences.values() if row.ends_at > plan.now and row.email is not None
        }
        anonymised = 0
        for row in db.licences.values():
            if row.email is not None and anonymises_licence(plan, row.ends_at, row.email_key in live):
                row.email, row.ip, row.request_id, row.anonymised_at = None, None, None, plan.now
                anonymised += 1
        peers = [
            key
            for key in db.wg_peers
            if key[0] in db.licences
            and deletes_tunnel_address(
                plan, db.licences[key[0]].ends_at, db.licences[key[0]].anonymised_at is not None
            )
        ]
        for key in peers:
            del db.wg_peers[key]
        events = 0
        for rate_key, times in db.rate_events.items():
            kept = [at for at in times if not deletes_rate_event(plan, at)]
            events += len(times) - len(kept)
            db.rate_events[rate_key] = kept
        links = len(db.renewal_links)
        db.renewal_links = {
            key: link
            for key, link in db.renewal_links.items()
            if not deletes_renewal_link(plan, link.created_at, link.used_at)
        }
        closed = [number for number, row in db.tickets.items() if deletes_ticket(plan, row.ticket.closed_at)]
        for number in closed:
            del db.tickets[number]
        erasures = [
            address_hash
            for address_hash, record in db.erasures.items()
            if deletes_erasure_record(plan, record.erased_at)
        ]
        for address_hash in erasures:
            del db.erasures[address_hash]
        silent = [
            key
            for key, session in db.sessions.items()
            if ends_session(plan, _last_seen(db, session.server_id))
        ]
        for key in silent:
            del db.sessions[key]
        return RetentionReport(
            licences_anonymised=anonymised,
            rate_events_deleted=events,
            tickets_deleted=len(closed),
            mail_deleted=0,
            signup_ips_erased=ips,
            tunnel_addresses_deleted=len(peers),
            renewal_links_deleted=links - len(db.renewal_links),
            erasure_records_deleted=len(erasures),
            sessions_ended=len(silent),
        )


@frozen
class MemoryPrivacyStore:
    """Holds no mail: the use-case tests record notifications instead of queueing them."""

    db: MemoryDatabase

    def held(self, key: str, hashes: Sequence[str]) -> Held:
        db = self.db
        licences = sorted(
            (row for row in db.licences.values() if row.email_key == key),
            key=lambda row: (row.starts_at, row.id),
        )
        ids = {row.id for row in licences}
        tickets = sorted(
            (row for row in db.tickets.values() if row.email_key == key),
            key=lambda row: (row.ticket.created_at, row.ticket.number),
        )
        sessions = sorted(
            (s for s in db.sessions.values() if s.licence_id in ids),
            key=lambda s: (s.started_at, s.server_id),
        )
        links = sorted(
            ((value, link) for value, link in db.renewal_links.items() if link.licence_id in ids),
            key=lambda pair: (pair[1].created_at, pair[0]),
        )
        return Held(
            licences=tuple(
                HeldLicence(
                    row.id,
                    row.email or "",
                    row.ip,
                    row.language,
                    row.starts_at,
                    row.ends_at,
                    row.reminded_for_end,
                )
                for row in licences
            ),
            tickets=tuple(
                HeldTicket(
                    row.ticket.number,
                    row.email or "",
                    row.message or "",
                    row.ticket.created_at,
                    row.ticket.closed_at,
                    row.ticket.language,
                    row.code_hash is not None,
                )
                for row in tickets
            ),
            vpn_sessions=tuple(
                HeldSession(s.licence_id, s.server_id, s.started_at, s.protocol) for s in sessions
            ),
            wireguard_peers=tuple(
                HeldTunnelAddress(licence_id, server_id, address, (licence_id, server_id) in db.wg_held_out)
                for (licence_id, server_id), address in sorted(db.wg_peers.items())
                if licence_id in ids
            ),
            mail_queue=(),
            renewal_links=tuple(
                HeldRenewalLink(link.licence_id, link.created_at, link.used_at) for _, link in links
            ),
        )

    def erase_address(self, key: str, hashes: Sequence[str], record: ErasureRecord) -> Erased:
        db, now = self.db, record.erased_at
        rows = [row for row in db.licences.values() if row.email_key == key and row.starts_at <= now]
        ids = {row.id for row in rows}
        sessions = [k for k, s in db.sessions.items() if s.licence_id in ids]
        for session in sessions:
            del db.sessions[session]
        peers = [k for k in db.wg_peers if k[0] in ids]
        for peer in peers:
            del db.wg_peers[peer]
        links = [k for k, link in db.renewal_links.items() if link.licence_id in ids]
        for link in links:
            del db.renewal_links[link]
        ended = 0
        for row in rows:
            if row.ends_at > now:
                row.ends_at, ended = now, ended + 1
            row.email, row.ip, row.request_id, row.anonymised_at = None, None, None, now
        tickets = sorted(
            (row for row in db.tickets.values() if row.email_key == key and row.ticket.created_at <= now),
            key=lambda row: row.ticket.number,
        )
        for ticket in tickets:
            ticket.email = ticket.message = ticket.code_hash = None
        db.erasures[record.address_hash] = record
        return Erased(
            licences_ended=ended,
            licences_erased=len(rows),
            tickets=tuple(row.ticket.number for row in tickets),
            sessions_dropped=len(sessions),
            tunnel_addresses_deleted=len(peers),
            renewal_links_deleted=len(links),
            mail_deleted=0,
            record=record,
        )

    def addresses(self) -> set[str]:
        db = self.db
        keys = {row.email_key for row in db.licences.values()} | {
            row.email_key for row in db.tickets.values()
        }
        return {key for key in keys if key is not None}

    def erasures(self) -> list[ErasureRecord]:
        return sorted(self.db.erasures.values(), key=lambda record: (record.erased_at, record.address_hash))


class MemoryStore:
    """The counterpart of ``SqlStore``: the same stores under the same names, on one database."""

    def __init__(self) -> None:
        self.db = MemoryDatabase()
        self.signups = MemorySignupStore(self.db)
        self.licences = MemoryLicenceStore(self.db)
        self.rate_limits = MemoryRateLimitStore(self.db)
        self.tickets = MemoryTicketStore(self.db)
        self.fleet = MemoryFleetStore(self.db)
        self.retention = MemoryRetentionStore(self.db)
        self.privacy = MemoryPrivacyStore(self.db)
        self.renewals = MemoryRenewalStore(self.db)
        self.sessions = MemorySessionStore(self.db)
        self.wireguard = MemoryWireGuardStore(self.db)
        self.unit_of_work = MemoryUnitOfWork(self.db)

    def close(self) -> None:
        """Nothing to hand back."""
