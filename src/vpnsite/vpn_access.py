"""Who may connect to a VPN server: a valid, unexpired licence, one session per server and ten
servers in all ("up to 10 devices if they use different servers"). A new login of a licence on a
server where it already has a session replaces that session, so nobody is locked out by their own
dead connection. Sessions hold the licence, the server, the start time and the node's handle for
the connection — nothing about what the user does, and no address."""

from __future__ import annotations

import hmac
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Literal, Protocol

from attrs import frozen

from vpnsite.codes import clean_typed_code, is_well_formed
from vpnsite.emails import email_key, normalise_email
from vpnsite.errors import InvalidField, NodeUnauthorized
from vpnsite.fleet import silent_since
from vpnsite.keyed_hashes import Keyring
from vpnsite.licence_checks import LicenceStore, find_by_code, rekey_if_stale
from vpnsite.licences import Licence
from vpnsite.ports import Clock, RandomSource
from vpnsite.tunnel_addresses import TunnelAddressStore

MAX_SESSIONS = 10
# A login the hub admitted holds its place this long for the server to report it established;
# after that it stops counting (the client gave up, or the server never heard the answer).
UNCONFIRMED_FOR = timedelta(seconds=15)
SESSION_ID_BYTES = 12
DENY_LISTED_FOR = timedelta(days=90)
Refusal = Literal["bad_credentials", "ended", "too_many_devices"]


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


def refusal(
    licence: Licence | None, sessions: Sequence[Session], server_id: str, now: datetime
) -> Refusal | None:
    """Why a login to ``server_id`` is refused, or None when it is admitted. ``sessions`` are the
    licence's sessions that count; one on the same server is replaced, so it takes no place."""
    if licence is None:
        return "bad_credentials"
    if not licence.is_live(now):
        return "ended"
    elsewhere = {session.server_id for session in sessions if session.server_id != server_id}
    if len(elsewhere) >= MAX_SESSIONS:
        return "too_many_devices"
    return None


@frozen
class Settlement:
    """What a server's report of its connections settles: which the server must end, which the
    hub stops counting, and which it counts again (held through a silence the hub took for an
    outage)."""

    end: list[str]
    drop: list[str]
    restore: list[Session]


def settle(
    server_id: str,
    held: Mapping[str, str],
    recorded: Sequence[Session],
    licences: Mapping[str, Licence],
    counted_elsewhere: Mapping[str, int],
    now: datetime,
    protocols: Mapping[str, str] | None = None,
) -> Settlement:
    """``held``: the connections the server reports (session id → licence id). ``recorded``: the
    hub's sessions on that server. ``licences``: the licences of ``held``, where they still exist.
    ``counted_elsewhere``: per licence of ``held``, the servers where it has other sessions.
    ``protocols``: what the server says each connection runs over. A connection the hub did not
    admit — one held through a silence the hub took for an outage, or a WireGuard peer, which
    connects without a login and which the server reports once it has shaken hands — is counted
    like a login: restored when the licence lives and has a place, ended when not."""
    by_id = {session.id: session for session in recorded}
    holders = {session.licence_id: session.id for session in recorded}
    end, restore = [], []
    for session_id, licence_id in sorted(held.items()):
        licence = licences.get(licence_id)
        known = by_id.get(session_id)
        if licence is None or not licence.is_live(now):
            end.append(session_id)
        elif known is not None:
            if known.licence_id != licence_id or known.ending:
                end.append(session_id)
        elif licence_id in holders:
            end.append(session_id)  # replaced by a newer login on this server
        elif counted_elsewhere.get(licence_id, 0) >= MAX_SESSIONS:
            end.append(session_id)
        else:
            protocol = (protocols or {}).get(session_id)
            restore.append(Session(licence_id, server_id, now, session_id, True, protocol))
            holders[licence_id] = session_id
    drop = [
        session.id
        for session in recorded
        if session.id not in held and (session.confirmed or not counts(session, now))
    ]
    return Settlement(end, drop, restore)


class SessionStore(Protocol):
    def server_for_token(self, token_hashes: Sequence[str]) -> str | None:
        """The server holding a token whose hash is any of these."""
        ...

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

    def hold(self, session: Session) -> None:
        """Record the session, replacing the licence's earlier session on that server."""
        ...

    def confirm(self, server_id: str, session_id: str) -> bool: ...

    def release(self, server_id: str, session_ids: Sequence[str]) -> int: ...

    def servers_in_use(
        self, licence_ids: Sequence[str], server_id: str, unconfirmed_since: datetime, heard_since: datetime
    ) -> dict[str, int]:
        """Per licence, how many other servers hold a session of it that counts (as in ``sessions_of``)."""
        ...

    def licences_by_id(self, licence_ids: Sequence[str]) -> dict[str, Licence]: ...


class NodeLicences(LicenceStore, Protocol):
    def erased_ids(self, ended_since: datetime) -> list[str]:
        """The licences that ended at or after ``ended_since`` and are erased (no owner any more)."""
        ...


@frozen
class Admission:
    licence_id: str | None
    refused: Refusal | None
    session_id: str | None = None


@frozen
class NodeAccess:
    """What a VPN server's node asks the hub: may these credentials log in here (and which
    session is theirs), the session is established, it ended, and — with every heartbeat — which
    of the connections it holds must end."""

    sessions: SessionStore
    licences: NodeLicences
    tunnels: TunnelAddressStore
    keys: Keyring
    clock: Clock
    random: RandomSource

    def server(self, token: str) -> str:
        server = self.sessions.server_for_token(self.keys.read().nodes(token).values) if token else None
        if server is None:
            raise NodeUnauthorized()
        return server

    def log_in(self, token: str, username: str, password: str, protocol: str | None = None) -> Admission:
        server = self.server(token)
        licence = self._licence(username, password)
        now = self.clock.now()
        held = (
            self.sessions.sessions_of(licence.id, now - UNCONFIRMED_FOR, silent_since(now))
            if licence is not None
            else []
        )
        why = refusal(licence, held, server, now)
        if why is not None or licence is None:
            return Admission(licence.id if licence else None, why)
        session_id = self.random.token_bytes(SESSION_ID_BYTES).hex()
        session = Session(licence.id, server, now, session_id, protocol=protocol)
        self.sessions.hold(session)
        return Admission(licence.id, None, session.id)

    def deny_list(self, token: str) -> list[str]:
        """The licences whose keys the calling server refuses before any TLS work: the erased
        ones, which nobody may use again. An ended licence is not on it: its owner's app logs in
        and is told it has ended. After ``DENY_LISTED_FOR`` an erased licence leaves the list (its
        login is refused all the same), so the list does not grow for ever."""
        self.server(token)
        return self.licences.erased_ids(self.clock.now() - DENY_LISTED_FOR)

    def tunnel_peers(self, token: str) -> tuple[str, list[tuple[str, str]]]:
        """The calling server, and (licence id, tunnel address) of its live WireGuard peers."""
        server = self.server(token)
        return server, self.tunnels.live_peers(server, self.clock.now())

    def established(self, token: str, session_id: str) -> bool:
        return self.sessions.confirm(self.server(token), session_id)

    def ended(self, token: str, session_id: str) -> bool:
        return self.sessions.release(self.server(token), [session_id]) > 0

    def settle(
        self, server_id: str, held: Mapping[str, str], protocols: Mapping[str, str] | None = None
    ) -> list[str]:
        """Bring the hub's sessions of a server in line with the connections it reports; the
        session ids it must end (licence ended or erased, replaced, or over the limit)."""
        now = self.clock.now()
        licence_ids = sorted(set(held.values()))
        settlement = settle(
            server_id,
            held,
            self.sessions.sessions_on(server_id),
            self.sessions.licences_by_id(licence_ids),
            self.sessions.servers_in_use(licence_ids, server_id, now - UNCONFIRMED_FOR, silent_since(now)),
            now,
            protocols,
        )
        if settlement.drop or settlement.end:
            self.sessions.release(server_id, settlement.drop + settlement.end)
        for session in settlement.restore:
            self.sessions.hold(session)
        return settlement.end

    def _licence(self, username: str, password: str) -> Licence | None:
        code = clean_typed_code(password)
        key = _key(username)
        if not key or not is_well_formed(code):
            return None
        licence, candidates = find_by_code(self.licences, self.keys, code)
        held_by = email_key(licence.email) if licence is not None and licence.email else "\x00nobody"
        if licence is None or not hmac.compare_digest(held_by.encode(), key.encode()):
            return None
        return rekey_if_stale(self.licences, licence, candidates)


def _key(username: str) -> str:
    try:
        return email_key(normalise_email(username))
    except InvalidField:
        return ""
