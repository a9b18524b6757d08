"""The node API's gate: what a listener decides about a VPN server's call from its headers alone,
before it reads a byte of the body.

A heartbeat may carry megabytes, so only a token the hub knows is let send that much. The listener
keeps the keyed hashes of the servers' tokens in memory (read at start and again every
``RELOAD_SECONDS`` while it serves, learned whenever a request proves one), so the check costs a
hash and a set look-up in the loop that reads sockets; the database still decides every call. A
token replaced (``vpnsite node token``) or a server removed is refused before its body once the
listener has read the tokens again. An unknown token may send no more than a small request, which
the worker checks against the database before parsing it. An address whose tokens keep failing is
refused at once, for a while, unless it brings a token the hub knows.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from datetime import timedelta

from attrs import frozen

from vpnsite.errors import StoreUnavailable
from vpnsite.keyed_hashes import Keyring
from vpnsite.rate_limits import client_network
from vpnsite_adapters.http.client_ip import client_ip
from vpnsite_adapters.http.errors import MAX_BODY_BYTES
from vpnsite_adapters.runtime.periodic import Periodic
from vpnsite_adapters.settings import Network

log = logging.getLogger("vpnsite.http")

NODE_PATHS = "/api/node/"
# A heartbeat lists every connection of a busy server: room for tens of thousands.
HEARTBEAT_BODY_BYTES = 4 * 1024 * 1024
# What a server's other calls (and any call with a token not yet seen) may send: what the app
# takes from anyone.
SMALL_BODY_BYTES = MAX_BODY_BYTES
FAILED_TOKENS = 10
FAILED_TOKEN_WINDOW = timedelta(minutes=1)
RELOAD_SECONDS = 5
# Addresses remembered for their failures: more than any burst of bad tokens needs.
REMEMBERED_ADDRESSES = 10_000


@frozen
class Verdict:
    """What the listener does with a node call once its headers are in: read at most
    ``body_limit`` bytes of body, or answer ``status`` at once (``retry_after`` seconds with 429)."""

    body_limit: int = SMALL_BODY_BYTES
    status: int | None = None
    retry_after: int = 0


def bearer(authorization: str) -> str:
    """The token of an ``Authorization: Bearer ...`` header, or "" when there is none."""
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


class NodeGate:
    def __init__(
        self, keys: Keyring, load: Callable[[], Iterable[str]], monotonic: Callable[[], float]
    ) -> None:
        """``load``: every server's token hash from the database."""
        self._keys = keys
        self._load = load
        # Replaced, never changed in place: the loop reads it while workers learn.
        self._known: frozenset[str] = frozenset()
        self._loaded_at = monotonic()
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()
        self._monotonic = monotonic
        self._reload()
        self._refresh = Periodic("node-gate", RELOAD_SECONDS, self._reload)

    @classmethod
    def load(cls, keys: Keyring, token_hashes: Callable[[], Iterable[str]]) -> NodeGate:
        return cls(keys, token_hashes, time.monotonic)

    def start(self) -> None:
        """Reads the servers' tokens again every ``RELOAD_SECONDS`` (`vpnsite serve`), so that what
        the database no longer holds is refused before its body."""
        self._refresh.start()

    def signal_stop(self) -> None:
        self._refresh.signal_stop()

    def verdict(self, authorization: str, address: str | None) -> Verdict:
        """Called from the loop that reads sockets: no database, no waiting."""
        token = bearer(authorization)
        if not token:
            return Verdict(status=401)
        if self.knows(token):
            # A server is never turned away for what others at its address tried.
            return Verdict(HEARTBEAT_BODY_BYTES)
        self._reload_soon()
        wait = self.refused_for(address)
        return Verdict(status=429, retry_after=wait) if wait else Verdict()

    def knows(self, token: str) -> bool:
        return not self._known.isdisjoint(self._keys.read().nodes(token).values)

    def learn(self, token: str) -> None:
        """The database took this token: it may send a heartbeat's size from now on."""
        hashes = self._keys.read().nodes(token).values
        with self._lock:
            self._known = self._known.union(hashes)

    def forget(self, token: str) -> None:
        hashes = self._keys.read().nodes(token).values
        with self._lock:
            self._known = self._known.difference(hashes)

    def _reload_soon(self) -> None:
        """A server added (or given a new token) while the hub runs is known within
        ``RELOAD_SECONDS``, even if its first call is a heartbeat too large for a stranger; the
        database is asked at most that often, off the loop that reads sockets."""
        now = self._monotonic()
        with self._lock:
            if now - self._loaded_at < RELOAD_SECONDS:
                return
            self._loaded_at = now
        threading.Thread(target=self._reload, name="node-gate-reload", daemon=True).start()

    def _reload(self) -> None:
        """The tokens as the database holds them now: those it no longer holds are forgotten."""
        try:
            loaded = frozenset(self._load())
        except StoreUnavailable:
            log.warning("the node API's tokens were not reloaded: the database is unavailable")
            return
        with self._lock:
            self._known = loaded

    def failed(self, address: str | None) -> None:
        if not address:
            return
        now = self._monotonic()
        with self._lock:
            if len(self._failures) >= REMEMBERED_ADDRESSES:
                self._forget_old(now)
            times = self._failures.setdefault(client_network(address), deque(maxlen=FAILED_TOKENS))
            times.append(now)

    def refused_for(self, address: str | None) -> int:
        """Seconds until this address may call again; 0 when it may now."""
        if not address or not self._failures:
            return 0
        now = self._monotonic()
        with self._lock:
            times = self._failures.get(client_network(address))
            if times is None or len(times) < FAILED_TOKENS:
                return 0
            wait = times[0] + FAILED_TOKEN_WINDOW.total_seconds() - now
        return max(1, math.ceil(wait)) if wait > 0 else 0

    def _forget_old(self, now: float) -> None:
        since = now - FAILED_TOKEN_WINDOW.total_seconds()
        for address in [a for a, times in self._failures.items() if times[-1] <= since]:
            del self._failures[address]
        while len(self._failures) >= REMEMBERED_ADDRESSES:
            del self._failures[next(iter(self._failures))]


def peer_address(peer: str | None, forwarded_for: str, trusted: tuple[Network, ...]) -> str | None:
    """The caller as the app will see it, from what a listener has before the app runs."""
    return client_ip({"REMOTE_ADDR": peer, "HTTP_X_FORWARDED_FOR": forwarded_for}, trusted)
