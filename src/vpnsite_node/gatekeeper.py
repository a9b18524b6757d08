"""Who gets into this VPN server, decided by the hub and enforced through OpenVPN's management
interface. Logins are answered from a pool of threads, so a slow hub delays only the clients
waiting for it; the tunnels already up never wait for anyone."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

from attrs import define

from vpnsite.vpn_access import MAX_SESSIONS, superseded
from vpnsite_node.hub import HUB_UNAVAILABLE, HubClient, Verdict
from vpnsite_node.management import ClientEvent, Management

log = logging.getLogger("vpnsite.node")

LOGIN_WORKERS = 32
# Seconds a client waits before it tries again after a login the hub could not decide.
RETRY_AFTER = 5


def told(reason: str, site: str, retry_after: int = 0) -> str:
    """What the VPN app shows after AUTH_FAILED for the hub's refusal ``reason``. A login the hub
    could not decide, or will not judge yet (too many wrong codes for the address lately: it says
    for how long, ``retry_after``), gets OpenVPN 2.6's temporary refusal: the app waits at least
    that long (``backoff``) and tries again by itself instead of giving up."""
    where = f" at {site.rstrip('/')}/license" if site else " on the website"
    return {
        HUB_UNAVAILABLE: f"TEMP[backoff {RETRY_AFTER}]: vpnsite cannot check licences now; trying again",
        "rate_limited": (
            f"TEMP[backoff {max(retry_after, 1)}]: too many wrong codes for this e-mail lately; trying again"
        ),
        "ended": f"Your vpnsite licence has ended. Renew it{where}, then connect again.",
        "too_many_devices": (
            f"Your vpnsite licence is in use on {MAX_SESSIONS} servers. Disconnect one{where}."
        ),
        "bad_credentials": "Wrong e-mail or activation code.",
    }.get(reason, reason)


@define
class Connection:
    instance: Management
    cid: str
    username: str
    session: str
    licence: str
    established: bool = False

    @property
    def protocol(self) -> str:
        return protocol_of(self.instance)


def protocol_of(instance: Management) -> str:
    return instance.name.rpartition("-")[2]  # openvpn-udp, openvpn-tcp


class Gatekeeper:
    def __init__(self, hub: HubClient, site: str = "", workers: int = LOGIN_WORKERS) -> None:
        self.hub = hub
        self.site = site
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="vpnsite-login")
        self._lock = threading.Lock()
        self._connections: dict[tuple[str, str], Connection] = {}
        self._pending: set[tuple[str, str]] = set()
        self._gone: set[tuple[str, str]] = set()

    def on_event(self, instance: Management, event: ClientEvent) -> None:
        key = (instance.name, event.cid)
        if event.kind == "CONNECT":
            with self._lock:
                self._pending.add(key)
            self.pool.submit(self._log_in, instance, event)
        elif event.kind == "REAUTH":
            self._reauthenticate(instance, event)
        elif event.kind == "ESTABLISHED":
            with self._lock:
                connection = self._connections.get(key)
                if connection is not None:
                    connection.established = True
            if connection is not None:
                self.pool.submit(self.hub.session_event, "established", connection.session)
            else:
                # In without a login: a client that came back on a new connection with the session
                # token of an earlier one, which OpenVPN accepts by itself.
                with self._lock:
                    self._pending.add(key)
                self.pool.submit(self._resume, instance, event)
        elif event.kind == "DISCONNECT":
            with self._lock:
                connection = self._connections.pop(key, None)
                if key in self._pending:
                    self._gone.add(key)
            if connection is not None:
                self.pool.submit(self.hub.session_event, "ended", connection.session)

    def _log_in(self, instance: Management, event: ClientEvent) -> None:
        key = (instance.name, event.cid)
        username = event.env.get("username", "")
        verdict = self.hub.log_in(username, event.env.get("password", ""), protocol_of(instance))
        replaced: list[Connection] = []
        with self._lock:
            self._pending.discard(key)
            gone = key in self._gone
            self._gone.discard(key)
            if verdict.admitted and not gone:
                holder = {verdict.licence: verdict.session}
                replaced = [c for c in self._connections.values() if superseded(c.session, c.licence, holder)]
                for connection in replaced:
                    del self._connections[(connection.instance.name, connection.cid)]
                self._connections[key] = Connection(
                    instance, event.cid, username, verdict.session, verdict.licence
                )
        if not verdict.admitted:
            instance.deny(
                event.cid, event.kid, verdict.reason, told(verdict.reason, self.site, verdict.retry_after)
            )
            return
        if gone:
            self.hub.session_event("ended", verdict.session)
            return
        for connection in replaced:
            connection.instance.kill(connection.cid)
        instance.authorise(event.cid, event.kid)

    def _resume(self, instance: Management, event: ClientEvent) -> None:
        """A connection in by an earlier login's token (after a restart, the app may have no
        password left to give): it stays if the hub admits it, which it does only while the
        licence has no session on this server — a token alone never displaces a live session. Any
        other answer sends it back to log in with its code."""
        key = (instance.name, event.cid)
        username = event.env.get("username") or event.env.get("common_name", "")
        with self._lock:
            here = any(c.username == username for c in self._connections.values())
        verdict = (
            self.hub.resume(username, protocol_of(instance))
            if username and not here
            else Verdict(False, "in_use_here")
        )
        with self._lock:
            self._pending.discard(key)
            gone = key in self._gone
            self._gone.discard(key)
            if verdict.admitted and not gone:
                self._connections[key] = Connection(
                    instance, event.cid, username, verdict.session, verdict.licence, established=True
                )
        if verdict.admitted:
            self.hub.session_event("ended" if gone else "established", verdict.session)
            if not gone:
                log.info("%s: a connection back by its session token goes on", instance.name)
            return
        instance.kill(event.cid, "AUTH_FAILED")
        log.info("%s: a connection made with an earlier session's token must log in again", instance.name)

    def _reauthenticate(self, instance: Management, event: ClientEvent) -> None:
        """A renegotiation of a session the hub already admitted, from a client that does not use
        the session token (with it, OpenVPN checks a renegotiation itself): the same client on the
        same connection, so no new device-limit decision and no call to the hub."""
        with self._lock:
            connection = self._connections.get((instance.name, event.cid))
        if connection is not None and event.env.get("username", "") == connection.username:
            instance.authorise(event.cid, event.kid)
            log.info("%s: renegotiation of a held session accepted", instance.name)
        else:
            instance.deny(event.cid, event.kid, "bad_credentials")
            log.info("%s: renegotiation refused: no such session here", instance.name)

    def held(self) -> list[tuple[str, str, str]]:
        """The sessions this server's OpenVPN holds, as (session, licence, protocol)."""
        with self._lock:
            return [(c.session, c.licence, c.protocol) for c in self._connections.values()]

    def established(self) -> int:
        with self._lock:
            return sum(1 for c in self._connections.values() if c.established)

    def end(self, sessions: Iterable[str]) -> int:
        """Cut the connections of these sessions (the hub says they must end)."""
        wanted = set(sessions)
        with self._lock:
            ending = [c for c in self._connections.values() if c.session in wanted]
            for connection in ending:
                del self._connections[(connection.instance.name, connection.cid)]
        for connection in ending:
            connection.instance.kill(connection.cid)
        if ending:
            log.info("ended %d connection(s) the hub no longer allows", len(ending))
        return len(ending)

    def instance_lost(self, instance: Management) -> None:
        """OpenVPN went away: its clients are gone, and the hub frees their places."""
        with self._lock:
            lost = [c for c in self._connections.values() if c.instance is instance]
            for connection in lost:
                del self._connections[(instance.name, connection.cid)]
        for connection in lost:
            self.pool.submit(self.hub.session_event, "ended", connection.session)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
