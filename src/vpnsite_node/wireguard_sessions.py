"""WireGuard peers as devices (experimental). A peer has no login: it is connected while its
handshakes are fresh, which the node reads from the interface. Each such peer is reported to the
hub with the server's other connections, so it counts toward its licence's limit, shows in the
licence's devices and can be ended; an ended peer is removed from the interface at once. The hub
holds an ended peer out of its list until its owner connects it again, so the sync that follows
does not put it back, and no restart of the node does either: the node remembers nothing of it."""

from __future__ import annotations

import logging
import secrets
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Mapping

log = logging.getLogger("vpnsite.node")

# WireGuard renews a busy session's keys every 2 minutes and drops keys older than 3 (its
# REJECT_AFTER_TIME): a peer with no handshake for that long has gone quiet, and its place frees.
QUIET_AFTER = 180.0
SESSION_ID_BYTES = 12


def latest_handshakes(interface: str) -> dict[str, float]:
    """Public key → the time of its latest handshake (0: none yet), as `wg show` says."""
    shown = subprocess.run(
        ["wg", "show", interface, "latest-handshakes"], capture_output=True, text=True, check=True
    ).stdout
    found = {}
    for line in shown.splitlines():
        key, _, seconds = line.partition("\t")
        if key and seconds.strip().isdigit():
            found[key] = float(seconds)
    return found


class WireguardSessions:
    """The interface's peers as sessions: those with a fresh handshake, each with a session id of
    its own for as long as it stays connected."""

    def __init__(
        self,
        interface: str,
        handshakes: Callable[[str], Mapping[str, float]] = latest_handshakes,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.interface = interface
        self.handshakes = handshakes
        self.clock = clock
        self._lock = threading.Lock()
        self._licences: dict[str, str] = {}  # public key → licence, from the hub's list
        self._sessions: dict[str, str] = {}  # public key → session id, while connected
        self._stopped = False

    def sync(self, listed: Mapping[str, tuple[str, str]]) -> None:
        """Make the interface's peers the hub's list (key → (allowed IPs, licence)): new licences
        in, ended or held-out ones out. Remembers whose each key is."""
        with self._lock:
            self._licences = {key: licence for key, (_, licence) in listed.items()}
        try:
            shown = self._wg("show", self.interface, "peers").split()
            for key in set(shown) - set(listed):
                self._wg("set", self.interface, "peer", key, "remove")
            for key, (allowed, _) in listed.items():
                if key not in shown:
                    self._wg("set", self.interface, "peer", key, "allowed-ips", allowed)
        except (OSError, subprocess.CalledProcessError) as error:
            log.warning("WireGuard peers not synced (%s)", type(error).__name__)

    def stop(self) -> None:
        """The node is stopping and the interface goes with it: nothing is held any more."""
        with self._lock:
            self._stopped = True
            self._sessions = {}

    @property
    def connected(self) -> int:
        """How many peers the last look at the interface (``held``) found connected."""
        return len(self._sessions)

    def held(self) -> list[tuple[str, str, str]]:
        """(session, licence, "wireguard") of the peers connected now."""
        if self._stopped:
            return []
        try:
            handshakes = self.handshakes(self.interface)
        except (OSError, subprocess.CalledProcessError) as error:
            log.warning("WireGuard handshakes not read (%s)", type(error).__name__)
            return []
        now = self.clock()
        with self._lock:
            connected = {
                key
                for key, at in handshakes.items()
                if at and now - at < QUIET_AFTER and key in self._licences
            }
            self._sessions = {
                key: self._sessions.get(key) or secrets.token_hex(SESSION_ID_BYTES) for key in connected
            }
            return [(session, self._licences[key], "wireguard") for key, session in self._sessions.items()]

    def end(self, sessions: Iterable[str]) -> int:
        """Take these sessions' peers off the interface. The hub has left them out of its list
        already (it holds them out), so the next sync does not put them back."""
        wanted = set(sessions)
        with self._lock:
            ending = [key for key, session in self._sessions.items() if session in wanted]
            for key in ending:
                del self._sessions[key]
                # Not reported again before the next sync reads the hub's list.
                self._licences.pop(key, None)
        for key in ending:
            try:
                self._wg("set", self.interface, "peer", key, "remove")
            except (OSError, subprocess.CalledProcessError) as error:
                # The next sync takes it off: the hub no longer lists it.
                log.warning("a WireGuard peer the hub ended was not removed yet (%s)", type(error).__name__)
        if ending:
            log.info("ended %d WireGuard peer(s) the hub no longer allows", len(ending))
        return len(ending)

    @staticmethod
    def _wg(*args: str) -> str:
        return subprocess.run(["wg", *args], capture_output=True, text=True, check=True).stdout
