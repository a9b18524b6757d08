"""A client of OpenVPN's management interface (a Unix socket), as `management-client-auth` uses
it: the server announces each client's CONNECT, REAUTH, ESTABLISHED and DISCONNECT with its
environment, and waits — without blocking other clients — for `client-auth` or `client-deny`."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from attrs import frozen

from vpnsite_node.log_privacy import scrub

log = logging.getLogger("vpnsite.node")

# The notifications that come with an environment block ending in ">CLIENT:ENV,END".
WITH_ENVIRONMENT = {"CONNECT", "REAUTH", "ESTABLISHED", "DISCONNECT", "CR_RESPONSE"}


@frozen
class ClientEvent:
    kind: str
    cid: str
    kid: str
    env: dict[str, str]


def quoted(text: str) -> str:
    """A parameter for OpenVPN's command lexer: in double quotes, with quotes and backslashes escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Management:
    """One OpenVPN instance's management socket: events go to ``on_event`` in the reader thread;
    commands may be sent from any thread."""

    def __init__(self, name: str, path: Path, on_event: Callable[[Management, ClientEvent], None]) -> None:
        self.name = name
        self.path = path
        self.on_event = on_event
        self._sock: socket.socket | None = None
        self._send_lock = threading.Lock()
        self.connected = threading.Event()

    def attach(self, timeout: float) -> bool:
        """Connect to the socket (OpenVPN creates it when it starts); False if it did not appear."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(str(self.path))
        except OSError:
            sock.close()
            return False
        sock.settimeout(None)
        self._sock = sock
        self.connected.set()
        return True

    def serve(self) -> None:
        """Read events until OpenVPN closes the socket; first, release OpenVPN from its hold
        (``--management-hold``), and again whenever it holds after a restart of its own."""
        assert self._sock is not None
        reader = self._sock.makefile("r", encoding="utf-8", errors="replace", newline="\n")
        self.send("hold release")
        pending: ClientEvent | None = None
        try:
            for raw in reader:
                line = raw.rstrip("\r\n")
                if pending is not None:
                    if line == ">CLIENT:ENV,END":
                        self._dispatch(pending)
                        pending = None
                    elif line.startswith(">CLIENT:ENV,"):
                        name, _, value = line[len(">CLIENT:ENV,") :].partition("=")
                        pending.env[name] = value
                    continue
                if line.startswith(">CLIENT:"):
                    kind, _, rest = line[len(">CLIENT:") :].partition(",")
                    if kind in WITH_ENVIRONMENT:
                        ids = rest.split(",")
                        pending = ClientEvent(kind, ids[0], ids[1] if len(ids) > 1 else "", {})
                elif line.startswith(">HOLD:"):
                    self.send("hold release")
                elif line.startswith("ERROR:"):
                    log.warning("%s: OpenVPN refused a command: %s", self.name, scrub(line))
        except OSError:
            pass
        finally:
            self.connected.clear()
            self.close()

    def _dispatch(self, event: ClientEvent) -> None:
        try:
            self.on_event(self, event)
        except Exception:  # one bad event must not stop the reader of every other client
            log.exception("%s: handling %s failed", self.name, event.kind)

    def send(self, command: str) -> bool:
        sock = self._sock
        if sock is None:
            return False
        with self._send_lock:
            try:
                sock.sendall(command.encode() + b"\n")
            except OSError:
                return False
        return True

    def authorise(self, cid: str, kid: str) -> bool:
        return self.send(f"client-auth-nt {cid} {kid}")

    def deny(self, cid: str, kid: str, reason: str, told: str | None = None) -> bool:
        """Refuse a login: ``reason`` is the hub's short code, for OpenVPN's log; the client sees
        ``told`` after AUTH_FAILED (the code itself when there is nothing better to say)."""
        return self.send(f"client-deny {cid} {kid} {quoted(reason)} {quoted(told or reason)}")

    def kill(self, cid: str, message: str = "HALT") -> bool:
        """End a client's connection. HALT tells its app to stop rather than reconnect;
        AUTH_FAILED to drop the session token and log in again with its password."""
        return self.send(f"client-kill {cid} {message}")

    def close(self) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
