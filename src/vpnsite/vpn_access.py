"""Who may connect to a VPN server: a valid, unexpired licence, one session per server and ten
servers in all ("up to 10 devices if they use different servers"). A new login of a licence on a
server where it already has a session replaces that session, so nobody is locked out by their own
dead connection. Sessions hold the licence, the server, the start time and an id for the
connection (sealed by the hub for a login, the node's own for a WireGuard peer) — nothing about
what the user does, and no address. Wrong codes for one address are bounded per server and across
the fleet (``vpn_login_limits``)."""

from __future__ import annotations

import hmac
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Literal, Protocol

import attrs
from attrs import frozen

from vpnsite.codes import clean_typed_code, is_well_formed
from vpnsite.emails import mailbox_key, normalise_email
from vpnsite.errors import InvalidField
from vpnsite.fleet import Fleet, Heartbeat, silent_since
from vpnsite.keyed_hashes import Candidates, Keyring, KeySet, RingKeys
from vpnsite.licence_checks import LicenceStore, find_by_code, rekey_if_stale
from vpnsite.licences import Licence
from vpnsite.ports import Clock, RandomSource, UnitOfWork
from vpnsite.protocols import OPENVPN_PROTOCOLS, WIREGUARD
from vpnsite.tunnel_addresses import TunnelAddressStore
from vpnsite.vpn_login_limits import WrongCodeCeilings

MAX_SESSIONS = 10
# A login the hub admitted holds its place this long for the server to report it established;
# after that it stops counting (the client gave up, or the server never heard the answer).
UNCONFIRMED_FOR = timedelta(seconds=15)
SESSION_ID_BYTES = 12
# The rest of a session id the hub issues: 128 bits of a keyed hash of the server, the licence and
# the id's random part. The hub knows its own ids without a record of them, and no server can make
# one for a licence the hub never admitted on it.
SEAL_CHARS = 32
DENY_LISTED_FOR = timedelta(days=90)
# What a server may say a connection runs over; anything else it says is not taken.
SESSION_PROTOCOLS = (*OPENVPN_PROTOCOLS, WIREGUARD)
# rate_limited: too many wrong codes for the address lately; the login is refused for now, its
# code unread, and the answer says how long to wait.
Refusal = Literal["bad_credentials", "ended", "too_many_devices", "rate_limited", "in_use_here"]


@frozen
class Session:
    licence_id: str
    server_id: str
    started_at: datetime
    id: str
    confirmed: bool = False
    protocol: str | None = None
    # Disconnected by its licence's owner: it takes no place, and its server is told to cut it.
    ending: bool = False


def counts(session: Session, now: datetime) -> bool:
    """Whether a session takes a place: connected, or admitted moments ago and still connecting,
    and not being ended at its owner's request."""
    return not session.ending and (session.confirmed or session.started_at > now - UNCONFIRMED_FOR)


def login_refusal(
    licence: Licence, sessions: Sequence[Session], server_id: str, now: datetime
) -> Refusal | None:
    """Why a login of a licence to ``server_id`` is refused, or None when it is admitted.
    ``sessions`` are the licence's sessions that count; one on the same server is replaced, so it
    takes no place."""
    if not licence.is_live(now):
        return "ended"
    elsewhere = {session.server_id for session in sessions if session.server_id != server_id}
    if len(elsewhere) >= MAX_SESSIONS:
        return "too_many_devices"
    return None


def superseded(session_id: str, licence_id: str, holders: Mapping[str, str]) -> bool:
    """One session per licence and server, and the newest login wins it: a connection of
    ``licence_id`` on a server is to end when the hub holds another session of that licence there
    (``holders``: licence id → that session). The hub settles a server's report by it
    (``settlement_of``), and the server applies it at once to the session a login was just
    admitted as, which the hub holds in place of the licence's earlier one (``SessionStore.hold``)."""
    holder = holders.get(licence_id)
    return holder is not None and holder != session_id


def may_restore(licence: Licence, sessions: Sequence[Session], server_id: str, now: datetime) -> bool:
    """Whether a connection the hub had lost count of takes a place again: as a login there
    would, unless the licence has a session there already (a newer login won the server).
    ``sessions`` are the licence's sessions that count."""
    vacant = all(session.server_id != server_id for session in sessions)
    return vacant and login_refusal(licence, sessions, server_id, now) is None


def sealed_id(keys: KeySet, server_id: str, licence_id: str, nonce: str) -> str:
    """The id of a session the hub admits: ``nonce`` (random, in hex) and its seal."""
    return nonce + _seal(keys, server_id, licence_id, nonce)


def hub_issued(ring: RingKeys, session_id: str, server_id: str, licence_id: str) -> bool:
    """Whether the hub issued ``session_id`` for this licence on this server, under any key of
    the ring (a key rotation ends no session)."""
    if len(session_id) != 2 * SESSION_ID_BYTES + SEAL_CHARS:
        return False
    nonce, seal = session_id[: 2 * SESSION_ID_BYTES], session_id[2 * SESSION_ID_BYTES :].encode()
    return any(
        hmac.compare_digest(seal, _seal(keys, server_id, licence_id, nonce).encode()) for keys in ring.sets
    )


def _seal(keys: KeySet, server_id: str, licence_id: str, nonce: str) -> str:
    return keys.sessions.hash("\x00".join((server_id, licence_id, nonce)))[:SEAL_CHARS]


@frozen
class Settlement:
    """What a server's report of its connections settles: which the server must end, which
    sessions the hub forgets, which it counts again if their licences have a place
    (``may_restore``), and the licences whose WireGuard peers it holds out of the server (a live
    licence's peer the server must end: a WireGuard app cannot be told, and would be back at its
    next handshake)."""

    end: list[str]
    forget: list[str]
    restore: list[Session]
    hold_out: list[str] = attrs.Factory(list)


def settlement_of(
    server_id: str,
    held: Mapping[str, str],
    recorded: Sequence[Session],
    licences: Mapping[str, Licence],
    now: datetime,
    protocols: Mapping[str, str],
    issued: Callable[[str, str], bool],
    tunnelled: Callable[[str], bool],
) -> Settlement:
    """``held``: the connections the server reports (session id → licence id). ``recorded``: the
    hub's sessions on that server. ``licences``: the licences of ``held``, where they still exist.
    ``protocols``: what the server says each connection runs over. ``issued(session, licence)``:
    the hub issued that id for that licence on this server. ``tunnelled(licence)``: the licence
    has a tunnel address on this server.

    A server keeps, confirms and ends only what the hub admitted on it. A recorded session it
    reports is kept while its licence lives; one its owner disconnected is ended, and stays
    recorded while the server still reports it, so it cannot come back as a connection the hub
    lost count of. A connection the hub has no record of (held through a silence the hub took for
    an outage, or lost with a restored backup; a WireGuard peer, which connects without a login
    and which the server reports once it has shaken hands) comes back only if the hub could have
    admitted it there: an id the hub issued for that licence on this server, or a WireGuard peer
    of a licence with a tunnel address here; and only if the licence has no other session here.
    Anything else the server names is ended, whatever licence it names. A live licence's
    WireGuard peer it ends for that is held out."""
    by_id = {session.id: session for session in recorded}
    forget = [
        session.id
        for session in recorded
        if session.id not in held and (session.confirmed or not counts(session, now))
    ]
    gone = set(forget)
    holders = {session.licence_id: session.id for session in recorded if session.id not in gone}
    end, restore, hold_out = [], [], []
    for session_id, licence_id in sorted(held.items()):
        licence = licences.get(licence_id)
        live = licence is not None and licence.is_live(now)
        known = by_id.get(session_id)
        if known is not None:
            if known.ending:
                # Held out already, by its owner's disconnect (``Devices.disconnect``); not again
                # here, or a "Connect again" just after it would be undone.
                end.append(session_id)
            elif known.licence_id != licence_id or not live:
                end.append(session_id)
                forget.append(session_id)
            elif not known.confirmed and not counts(known, now):
                # Established after its place lapsed: it takes one again only if one is free.
                restore.append(attrs.evolve(known, confirmed=True))
            continue
        protocol = protocols.get(session_id)
        vouched = (
            live
            and not superseded(session_id, licence_id, holders)
            and (tunnelled(licence_id) if protocol == WIREGUARD else issued(session_id, licence_id))
        )
        if vouched:
            restore.append(Session(licence_id, server_id, now, session_id, True, protocol))
            holders[licence_id] = session_id
        else:
            end.append(session_id)
            if live and protocol == WIREGUARD:
                hold_out.append(licence_id)
    return Settlement(end, forget, restore, hold_out)


class SessionStore(Protocol):
    def sessions_of(
        self, licence_id: str, unconfirmed_since: datetime, heard_since: datetime
    ) -> list[Session]:
        """The licence's sessions on servers heard since ``heard_since``: connected ones, and
        admitted ones started after ``unconfirmed_since``; none being ended."""
        ...

    def mark_ending(self, licence_id: str, session_ids: Sequence[str] | None) -> int:
        """Mark these sessions of the licence (None: all of them) to be ended by their servers;
        how many were marked."""
        ...

    def sessions_on(self, server_id: str) -> list[Session]: ...

    def lock_licence(self, licence_id: str) -> None:
        """Inside an atomic unit of work: hold off every other one that locks this licence until
        this one ends, so what it counted of the licence's sessions is still true when it holds
        one more."""
        ...

    def hold(self, session: Session) -> None:
        """Record the session, replacing the licence's earlier session on that server."""
        ...

    def confirm(self, server_id: str, session_id: str, fresh_since: datetime) -> bool:
        """Mark the session connected if it still holds its place (confirmed already, or admitted
        after ``fresh_since``); whether it was."""
        ...

    def release(self, server_id: str, session_ids: Sequence[str]) -> int: ...

    def licences_by_id(self, licence_ids: Sequence[str]) -> dict[str, Licence]: ...


class NodeLicences(LicenceStore, Protocol):
    def erased_ids(self, ended_since: datetime) -> list[str]:
        """The licences that ended at or after ``ended_since`` and are erased (no owner any more)."""
        ...

    def find_by_email_key(self, key: str) -> list[Licence]: ...


@frozen
class Admission:
    licence_id: str | None
    refused: Refusal | None
    session_id: str | None = None
    # For "rate_limited": how long until a login of the address is judged again.
    retry_after: timedelta | None = None


class _RightCode(Exception):
    """Raised out of the unit of work that judged a right code, so the wrong code counted in
    advance is rolled back with it: a right code is never counted."""

    def __init__(self, licence: Licence, candidates: Candidates) -> None:
        super().__init__()
        self.licence = licence
        self.candidates = candidates


@frozen
class Report:
    """What a server's heartbeat settles: which server sent it, and which of the connections it
    reported it must end."""

    server_id: str
    end: list[str]


@frozen
class NodeAccess:
    """What a VPN server's node asks the hub: may this e-mail and code log in here (and which
    session is theirs), the session is established, it ended, and — with every heartbeat — which
    of the connections it holds must end. ``server``: the calling server, as its token says
    (``ServerAuthentication``)."""

    sessions: SessionStore
    licences: NodeLicences
    tunnels: TunnelAddressStore
    keys: Keyring
    clock: Clock
    random: RandomSource
    unit_of_work: UnitOfWork
    fleet: Fleet
    ceilings: WrongCodeCeilings

    def log_in(self, server: str, email: str, code: str, protocol: str | None = None) -> Admission:
        """``email`` and ``code`` as the app sent them (OpenVPN's username and password);
        ``protocol``: what the server says the login came over, kept only if it is OpenVPN's (a
        WireGuard peer does not log in)."""
        protocol = protocol if protocol in OPENVPN_PROTOCOLS else None
        judged = self._judged(server, email, code)
        if isinstance(judged, timedelta):
            return Admission(None, "rate_limited", retry_after=judged)
        if judged is None:
            return Admission(None, "bad_credentials")
        licence = judged
        now = self.clock.now()
        nonce = self.random.token_bytes(SESSION_ID_BYTES).hex()
        session_id = sealed_id(self.keys.current, server, licence.id, nonce)
        with self._counting(licence.id, now) as held:
            why = login_refusal(licence, held, server, now)
            if why is None:
                self.sessions.hold(Session(licence.id, server, now, session_id, protocol=protocol))
        return Admission(licence.id, why, None if why else session_id)

    def resume(self, server: str, email: str, protocol: str | None = None) -> Admission:
        """A connection the server's OpenVPN let in by the session token it gave at an earlier
        login (after a restart of OpenVPN or of the node; the token's key is the server's, so no
        one else could make it): admitted as a login would be, without the code it no longer has,
        unless the licence holds a session on this server already — a token alone never takes
        the place of a live session (a stolen token must not knock its owner off)."""
        protocol = protocol if protocol in OPENVPN_PROTOCOLS else None
        try:
            address = normalise_email(email)
        except InvalidField:
            return Admission(None, "bad_credentials")
        now = self.clock.now()
        found = self.licences.find_by_email_key(mailbox_key(address))
        live = [licence for licence in found if licence.is_live(now)]
        if not live:
            return Admission(None, "ended" if found else "bad_credentials")
        licence = max(live, key=lambda each: each.ends_at)
        session_id = sealed_id(
            self.keys.current, server, licence.id, self.random.token_bytes(SESSION_ID_BYTES).hex()
        )
        with self._counting(licence.id, now) as held:
            why: Refusal | None = (
                "in_use_here"
                if any(session.server_id == server for session in held)
                else login_refusal(licence, held, server, now)
            )
            if why is None:
                self.sessions.hold(Session(licence.id, server, now, session_id, protocol=protocol))
        return Admission(licence.id, why, None if why else session_id)

    def report(
        self,
        server: str,
        beat: Heartbeat,
        held: Mapping[str, str] | None,
        protocols: Mapping[str, str | None],
        source: str | None,
    ) -> Report:
        """A server's heartbeat: recorded (``source``, the address it came from, stands for the
        server's exit address unless told otherwise), then, when it lists the connections it
        holds (``held``: session id → licence id; ``protocols``: session id → what the server says
        it runs over), those settled against the hub's sessions."""
        self.fleet.heartbeat(server, beat, source)
        if held is None:
            return Report(server, [])
        said = {session: str(kind) for session, kind in protocols.items() if kind in SESSION_PROTOCOLS}
        return Report(server, self.settle(server, held, said))

    def deny_list(self) -> list[str]:
        """The licences whose keys the calling server refuses before any TLS work: the erased
        ones, which nobody may use again. An ended licence is not on it: its owner's app logs in
        and is told it has ended. After ``DENY_LISTED_FOR`` an erased licence leaves the list (its
        login is refused all the same), so the list does not grow for ever."""
        return self.licences.erased_ids(self.clock.now() - DENY_LISTED_FOR)

    def tunnel_peers(self, server: str) -> list[tuple[str, str]]:
        """(licence id, tunnel address) of the server's live WireGuard peers but
        those held out: the server takes a held-out peer off and does not put it back, whatever
        restarts, until its owner connects it again (``Devices.connect_again``)."""
        return self.tunnels.live_peers(server, self.clock.now())

    def established(self, server: str, session_id: str) -> bool:
        """A session connected while its place is held is confirmed; one that connected too late
        is not, and the server's next report gives it a place only if one is free (``settle``)."""
        return self.sessions.confirm(server, session_id, self.clock.now() - UNCONFIRMED_FOR)

    def ended(self, server: str, session_id: str) -> bool:
        return self.sessions.release(server, [session_id]) > 0

    def settle(
        self, server_id: str, held: Mapping[str, str], protocols: Mapping[str, str] | None = None
    ) -> list[str]:
        """Bring the hub's sessions of a server in line with the connections it reports; the
        session ids it must end (licence ended or erased, replaced, disconnected by its owner,
        never admitted there, or over the limit). A live licence's WireGuard peer among them is
        held out of the server."""
        now = self.clock.now()
        ring = self.keys.read()
        licences = self.sessions.licences_by_id(sorted(set(held.values())))
        settlement = settlement_of(
            server_id,
            held,
            self.sessions.sessions_on(server_id),
            licences,
            now,
            protocols or {},
            issued=lambda session_id, licence_id: hub_issued(ring, session_id, server_id, licence_id),
            tunnelled=lambda licence_id: self.tunnels.address_of(licence_id, server_id) is not None,
        )
        self.sessions.release(server_id, settlement.forget)
        end, hold_out = list(settlement.end), list(settlement.hold_out)
        for session in settlement.restore:
            with self._counting(session.licence_id, now) as counting:
                restored = may_restore(licences[session.licence_id], counting, server_id, now)
                if restored:
                    self.sessions.hold(session)
            if not restored:
                end.append(session.id)
                if session.protocol == WIREGUARD:
                    hold_out.append(session.licence_id)
        for licence_id in sorted(set(hold_out)):
            self.tunnels.hold_out(licence_id, [server_id])
        return end

    @contextmanager
    def _counting(self, licence_id: str, now: datetime) -> Iterator[list[Session]]:
        """The licence's sessions that count, in a unit of work that holds off every other
        admission of the licence until it ends: simultaneous logins on many servers are counted
        one after another, never all against the same count."""
        with self.unit_of_work.atomic():
            self.sessions.lock_licence(licence_id)
            yield self.sessions.sessions_of(licence_id, now - UNCONFIRMED_FOR, silent_since(now))

    def _judged(self, server: str, email: str, code: str) -> Licence | timedelta | None:
        """The licence these credentials open; None when they open none; or, when the address has
        had too many wrong codes lately (``WrongCodeCeilings``), how long until its codes are
        judged again — the code is then not looked at. A login whose e-mail is no address
        opens nothing and is counted nowhere: there is no mailbox to guess for."""
        try:
            address = normalise_email(email)
        except InvalidField:
            return None
        try:
            with self.unit_of_work.atomic():
                wait = self.ceilings.count_in_advance(server, mailbox_key(address))
                if wait is not None:
                    return wait
                found = self._licence(address, code)
                if found is None:
                    return None
                raise _RightCode(*found)
        except _RightCode as right:
            return rekey_if_stale(self.licences, right.licence, right.candidates)

    def _licence(self, address: str, typed: str) -> tuple[Licence, Candidates] | None:
        """The licence of this address and code, and the code's hashes it was found by."""
        code = clean_typed_code(typed)
        if not is_well_formed(code):
            return None
        licence, candidates = find_by_code(self.licences, self.keys, code)
        held_by = mailbox_key(licence.email) if licence is not None and licence.email else "\x00nobody"
        if licence is None or not hmac.compare_digest(held_by.encode(), mailbox_key(address).encode()):
            return None
        return licence, candidates
