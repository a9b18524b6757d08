"""Who may connect to a VPN server: a valid, unexpired licence, at most one session per server
and ten in all ("up to 10 devices if they use different servers"). Sessions hold the licence,
the server and the start time — nothing about what the user does, and no address."""

from __future__ import annotations

import hmac
from datetime import datetime
from typing import Literal, Protocol

from attrs import frozen

from vpnsite.codes import clean_typed_code, is_well_formed
from vpnsite.emails import email_key, normalise_email
from vpnsite.errors import InvalidField, NodeUnauthorized
from vpnsite.keyed_hashes import Keyring
from vpnsite.licence_checks import LicenceStore
from vpnsite.licences import Licence
from vpnsite.ports import Clock

MAX_SESSIONS = 10
Refusal = Literal["bad_credentials", "ended", "same_server", "too_many_devices"]


@frozen
class Session:
    licence_id: str
    server_id: str
    started_at: datetime


def refusal(
    licence: Licence | None, sessions: list[Session], server_id: str, now: datetime
) -> Refusal | None:
    """Why a login to ``server_id`` is refused, or None when it is admitted."""
    if licence is None:
        return "bad_credentials"
    if not licence.is_live(now):
        return "ended"
    if any(session.server_id == server_id for session in sessions):
        return "same_server"
    if len(sessions) >= MAX_SESSIONS:
        return "too_many_devices"
    return None


class SessionStore(Protocol):
    def server_for_token(self, token_hash: str) -> str | None: ...

    def sessions_of(self, licence_id: str, now: datetime) -> list[Session]:
        """The licence's sessions: connected ones, and logins still on their way to connecting."""
        ...

    def reserve(self, session: Session) -> bool:
        """Hold a place for a login that passed (False if the licence is already on that server)."""
        ...

    def confirm(self, email_key: str, server_id: str) -> int:
        """The login of this address on this server connected; how many places it confirmed."""
        ...

    def release(self, email_key: str, server_id: str) -> int: ...


@frozen
class Admission:
    licence_id: str | None
    refused: Refusal | None


@frozen
class NodeAccess:
    """What the VPN servers' hooks ask the hub. The login hook checks the e-mail and the code and
    holds a place; the connect hook confirms it; the disconnect hook frees it. OpenVPN passes the
    password to the login hook only, so the later two know the address, never the code."""

    sessions: SessionStore
    licences: LicenceStore
    keys: Keyring
    clock: Clock

    def server(self, token: str) -> str:
        server = self.sessions.server_for_token(self.keys.nodes.hash(token)) if token else None
        if server is None:
            raise NodeUnauthorized()
        return server

    def log_in(self, token: str, username: str, password: str) -> Admission:
        server = self.server(token)
        licence = self._licence(username, password)
        now = self.clock.now()
        why = refusal(licence, self.sessions.sessions_of(licence.id, now) if licence else [], server, now)
        if (
            why is None
            and licence is not None
            and not self.sessions.reserve(Session(licence.id, server, now))
        ):
            why = "same_server"
        return Admission(licence.id if licence else None, why)

    def connected(self, token: str, username: str) -> int:
        return self.sessions.confirm(_key(username), self.server(token))

    def disconnected(self, token: str, username: str) -> int:
        return self.sessions.release(_key(username), self.server(token))

    def _licence(self, username: str, password: str) -> Licence | None:
        code = clean_typed_code(password)
        key = _key(username)
        if not key or not is_well_formed(code):
            return None
        licence = self.licences.find_by_code_hash(self.keys.codes.hash(code))
        held_by = email_key(licence.email) if licence is not None and licence.email else "\x00nobody"
        if licence is None or not hmac.compare_digest(held_by.encode(), key.encode()):
            return None
        return licence


def _key(username: str) -> str:
    try:
        return email_key(normalise_email(username))
    except InvalidField:
        return ""
