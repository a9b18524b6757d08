"""The hub as a VPN server's node sees it: the node API, called with the server's own token.
Every call is bounded; a login that gets no clear yes is a no. A redirect is an answer like any
other, never followed: the token (and every login's e-mail and code) goes to the hub's address in
``node.json`` and nowhere else."""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import TypeVar

from attrs import frozen

from vpnsite.fleet import Heartbeat
from vpnsite_contract.node_calls import (
    HeartbeatBody,
    HeartbeatResult,
    HeldConnection,
    NodeLogin,
    NodeLoginResult,
    NodeResume,
    NodeSession,
    WireGuardPeers,
)
from vpnsite_contract.structuring import InvalidBody, structure, unstructure

T = TypeVar("T")

log = logging.getLogger("vpnsite.node")

LOGIN_TIMEOUT = 3.0
CALL_TIMEOUT = 5.0
# The refusal of a login the hub could not decide.
HUB_UNAVAILABLE = "hub_unavailable"


@frozen
class Verdict:
    admitted: bool
    reason: str
    session: str = ""
    licence: str = ""
    # Refused for now ("rate_limited"): seconds before the hub judges this address's login again.
    retry_after: int = 0


class HubUnavailable(Exception):
    """No answer, or not one the node can read."""


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_: object) -> None:
        return None


# urllib would follow a redirect to any address with every header of the call, Authorization too.
_OPENER = urllib.request.build_opener(_NoRedirects)


class HubClient:
    def __init__(self, url: str, token: str, exit_addresses: Sequence[str] = ()) -> None:
        self.url = url.rstrip("/")
        self.token = token
        # Where this server's clients' traffic leaves from, reported with every heartbeat.
        self.exit_addresses = list(exit_addresses)

    def _call(self, path: str, body: object | None, timeout: float) -> tuple[int, bytes]:
        request = urllib.request.Request(
            f"{self.url}/api/node/{path}",
            data=None if body is None else json.dumps(unstructure(body)).encode(),
            method="GET" if body is None else "POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"},
        )
        try:
            with _OPENER.open(request, timeout=timeout) as response:
                return int(response.status), response.read()
        except urllib.error.HTTPError as error:
            if 300 <= error.code < 400:
                raise HubUnavailable(
                    f"redirected ({error.code}), not followed: node.json must give the hub's own address"
                ) from None
            return int(error.code), error.read()
        except (OSError, ValueError) as error:
            raise HubUnavailable(type(error).__name__) from None

    def _answer(
        self, path: str, body: object | None, cls: type[T], timeout: float = CALL_TIMEOUT
    ) -> tuple[int, T | None]:
        """The hub's status and its answer as ``cls``; None when the answer is not one (an error's
        JSON, say)."""
        status, raw = self._call(path, body, timeout)
        return status, _read(status, raw, cls)

    def log_in(self, username: str, password: str, protocol: str | None = None) -> Verdict:
        body = NodeLogin(username=username, password=password, protocol=protocol)
        try:
            status, answer = self._answer("login", body, NodeLoginResult, LOGIN_TIMEOUT)
        except HubUnavailable as error:
            log.warning("login refused: the hub did not answer (%s)", error)
            return Verdict(False, HUB_UNAVAILABLE)
        if status == 200 and answer is not None and answer.admitted:
            return Verdict(True, "", answer.session or "", answer.licence or "")
        if status != 403 or answer is None or not answer.reason:
            # Busy, failing or misconfigured: the hub did not decide, so the client tries again.
            log.warning("login refused for now: the hub answered %s", status)
            return Verdict(False, HUB_UNAVAILABLE)
        return Verdict(False, answer.reason, retry_after=answer.retry_after or 0)

    def resume(self, username: str, protocol: str | None = None) -> Verdict:
        """May a connection OpenVPN let in by an earlier login's session token stay?"""
        try:
            status, answer = self._answer(
                "resume", NodeResume(username, protocol), NodeLoginResult, LOGIN_TIMEOUT
            )
        except HubUnavailable as error:
            log.warning("a reconnection by token not judged: the hub did not answer (%s)", error)
            return Verdict(False, HUB_UNAVAILABLE)
        if status == 200 and answer is not None and answer.admitted:
            return Verdict(True, "", answer.session or "", answer.licence or "")
        return Verdict(False, (answer.reason if answer is not None else None) or HUB_UNAVAILABLE)

    def session_event(self, event: str, session: str) -> None:
        """Tell the hub a session was established or ended; a miss is put right by the next
        heartbeat, which lists what the server holds."""
        try:
            self._call(event, NodeSession(session), CALL_TIMEOUT)
        except HubUnavailable as error:
            log.warning("the hub did not hear a session %s (%s)", event, error)

    def heartbeat(
        self, beat: Heartbeat, connections: Sequence[tuple[str, str, str]] | None
    ) -> list[str] | None:
        """Report; the sessions the hub says must end, or None when the report did not arrive."""
        body = HeartbeatBody(
            cpu_load=round(beat.cpu_load, 1),
            bandwidth_mbps=round(beat.bandwidth_mbps, 2),
            sessions=beat.sessions,
            service_up=beat.service_up,
            connections=None
            if connections is None
            else [HeldConnection(session, licence, protocol) for session, licence, protocol in connections],
            # None: the hub keeps what it was told before (the address the beat comes from).
            exit_addresses=self.exit_addresses or None,
            wireguard=beat.wireguard,
        )
        try:
            status, raw = self._call("heartbeat", body, CALL_TIMEOUT)
            answer = _read(status, raw, HeartbeatResult)
        except HubUnavailable as error:
            log.warning("the hub is unreachable (%s)", error)
            return None
        if status != 200 or answer is None:
            # The hub's reasons, such as an exit address only the operator may set.
            log.warning("the hub answered %s to a heartbeat%s", status, _reasons(raw))
            return None
        return answer.end

    def deny_list(self) -> bytes | None:
        try:
            status, raw = self._call("deny-list", None, CALL_TIMEOUT)
        except HubUnavailable as error:
            log.warning("deny list not refreshed (%s)", error)
            return None
        return raw if status == 200 else None

    def wireguard_peers(self) -> dict[str, tuple[str, str]] | None:
        """Public key → (allowed IPs, licence) of the peers this server must have."""
        try:
            status, answer = self._answer("wireguard-peers", None, WireGuardPeers)
        except HubUnavailable as error:
            log.warning("WireGuard peers not refreshed (%s)", error)
            return None
        if status != 200 or answer is None:
            return None
        return {peer.public_key: (peer.allowed_ips, peer.licence) for peer in answer.peers}


def _read(status: int, raw: bytes, cls: type[T]) -> T | None:
    """The hub's answer as ``cls``; None when it is not one (an error's JSON, say)."""
    try:
        return structure(json.loads(raw), cls)
    except InvalidBody:
        return None
    except ValueError:
        raise HubUnavailable(f"unreadable answer ({status})") from None


def _reasons(raw: bytes) -> str:
    """What a refusal's JSON says, for the log: its detail, or each field's message."""
    try:
        detail = json.loads(raw).get("detail")
    except (ValueError, AttributeError):
        return ""
    if isinstance(detail, list):
        detail = "; ".join(str(problem.get("msg", "")) for problem in detail if isinstance(problem, dict))
    return f": {detail}" if isinstance(detail, str) and detail else ""
