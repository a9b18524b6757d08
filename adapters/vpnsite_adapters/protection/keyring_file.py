"""The ring of master keys on disk: ``keyring.json`` in the data directory (mode 0600), never in the
database, so a copy of the database reveals no key. Key 1 is the original secret
(``VPNSITE_SECRET_KEY`` or ``secret.key``) and is not written here; without the file the ring is
key 1 alone, as before rotation existed.

A running process re-reads the file when it changes (looked at no more than every
``RELOAD_SECONDS``), so `vpnsite keys rotate` takes effect without a restart."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from vpnsite.key_ring import KeyRing, MasterKey
from vpnsite.keyed_hashes import Keyring, RingKeys

log = logging.getLogger("vpnsite")

RING_FILE = "keyring.json"
RELOAD_SECONDS = 2.0
_FORMAT = 1


class KeyRingFileError(RuntimeError):
    """The ring file cannot be read as a ring; the message names the file and the problem."""


def ring_path(data_dir: Path) -> Path:
    return data_dir / RING_FILE


def load_ring(path: Path) -> KeyRing:
    try:
        text = path.read_text()
    except FileNotFoundError:
        return KeyRing()
    except OSError as error:
        raise KeyRingFileError(f"{path}: {error.strerror}") from None
    try:
        return _ring_from(json.loads(text))
    except (ValueError, KeyError, TypeError) as error:
        raise KeyRingFileError(f"{path} is not a key ring vpnsite wrote ({error})") from None


def save_ring(path: Path, ring: KeyRing) -> None:
    """Replace the file in one step, so a process re-reading it sees the old ring or the new one."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as file:
        json.dump(_ring_to(ring), file, indent=2)
        file.flush()
        os.fsync(file.fileno())
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)


def file_keyring(data_dir: Path, original: bytes) -> Keyring:
    return Keyring(RingFileReader(ring_path(data_dir), original))


class RingFileReader:
    """The ring as the file says now. A file that becomes unreadable while the process runs is
    logged and the ring last read stays in use: a bad edit must not stop the service."""

    def __init__(self, path: Path, original: bytes, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.path = path
        self.original = original
        self.monotonic = monotonic
        self.lock = threading.Lock()
        self.stamp = self._stamp()
        self.keys = load_ring(path).keys(original)
        self.looked_at = monotonic()

    def __call__(self) -> RingKeys:
        if self.monotonic() - self.looked_at < RELOAD_SECONDS:
            return self.keys
        with self.lock:
            self.looked_at = self.monotonic()
            stamp = self._stamp()
            if stamp != self.stamp:
                try:
                    self.keys = load_ring(self.path).keys(self.original)
                    log.info("the key ring changed: key %d is current", self.keys.current.id)
                except (KeyRingFileError, ValueError) as error:
                    log.warning("keeping the key ring read before: %s", error)
                self.stamp = stamp
        return self.keys

    def _stamp(self) -> tuple[int, int, int] | None:
        try:
            status = self.path.stat()
        except FileNotFoundError:
            return None
        return status.st_ino, status.st_mtime_ns, status.st_size


def _ring_to(ring: KeyRing) -> dict[str, Any]:
    return {
        "format": _FORMAT,
        "current": ring.current,
        "retired": sorted(ring.retired),
        "keys": [
            {
                "id": key.id,
                "secret": key.secret.hex(),
                "created": key.created.isoformat(),
                "staged": key.staged,
            }
            for key in ring.rotated
        ],
    }


def _ring_from(data: dict[str, Any]) -> KeyRing:
    if data.get("format") != _FORMAT:
        raise ValueError(f"unknown format {data.get('format')!r}")
    rotated = tuple(
        MasterKey(
            int(key["id"]),
            bytes.fromhex(key["secret"]),
            datetime.fromisoformat(key["created"]),
            bool(key.get("staged", False)),
        )
        for key in data["keys"]
    )
    ring = KeyRing(int(data["current"]), rotated, frozenset(int(key_id) for key_id in data["retired"]))
    if ring.current not in ring.ids():
        raise ValueError(f"the current key {ring.current} is not in the ring")
    return ring
