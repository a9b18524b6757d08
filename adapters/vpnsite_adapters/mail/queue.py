"""Queued delivery: a message is stored (sealed, since it may carry an activation code) before
anyone tries to send it, then handed to the mailer by a background sender that retries with
backoff. A mail failure therefore never loses a licence or a ticket, nor the message itself."""

from __future__ import annotations

import json
import logging
import os
from datetime import timedelta

import attrs
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from vpnsite.keyed_hashes import Keyring
from vpnsite.mail import Mailer, MailFailed, MailQueueStore, Message, next_attempt
from vpnsite.ports import Clock, UnitOfWork
from vpnsite_adapters.jobs.periodic import Periodic

log = logging.getLogger("vpnsite.mail")

LEASE = timedelta(minutes=2)
POLL_SECONDS = 5.0


class Sealer:
    """AES-GCM with a key of the server's: the queue table never holds a readable message. Sealed
    with the first key; opened with whichever key sealed it, so a message queued before a key
    rotation is still delivered after it."""

    def __init__(self, *keys: bytes) -> None:
        self.aeads = [AESGCM(key) for key in keys]

    def seal(self, message: Message) -> str:
        nonce = os.urandom(12)
        plain = json.dumps(attrs.asdict(message)).encode()
        return (nonce + self.aeads[0].encrypt(nonce, plain, b"vpnsite-mail")).hex()

    def open(self, sealed: str) -> Message:
        raw = bytes.fromhex(sealed)
        for aead in self.aeads:
            try:
                plain = aead.decrypt(raw[:12], raw[12:], b"vpnsite-mail")
            except InvalidTag:
                continue
            return Message(**json.loads(plain))
        raise InvalidTag()


class MailQueue:
    def __init__(
        self,
        store: MailQueueStore,
        mailer: Mailer,
        keys: Keyring,
        clock: Clock,
        unit_of_work: UnitOfWork,
    ) -> None:
        self.store = store
        self.unit_of_work = unit_of_work
        self.mailer = mailer
        self.keys = keys
        self.clock = clock
        self.sender = Periodic("mail-sender", POLL_SECONDS, self.deliver_due)

    @property
    def sealer(self) -> Sealer:
        """The ring as it is now: a rotation takes effect without a restart."""
        return Sealer(*(keys.mail for keys in self.keys.read().sets))

    def enqueue(self, kind: str, message: Message) -> None:
        """Store the message in the caller's unit of work; the sender looks once it is committed."""
        self.store.add(os.urandom(16).hex(), kind, self.sealer.seal(message), self.clock.now())
        self.unit_of_work.after_commit(self.sender.wake)

    def deliver_due(self, limit: int = 50) -> tuple[int, int]:
        """Try every message that is due; return (sent, failed)."""
        with self.unit_of_work.scope():
            return self._deliver(limit)

    def _deliver(self, limit: int) -> tuple[int, int]:
        sent = failed = 0
        claimed = self.store.claim_due(self.clock.now(), limit, LEASE)
        for position, queued in enumerate(claimed):
            if self.sender.stopping:
                # The process is stopping: what it has not begun goes back at once, for the next
                # process to send, rather than waiting out the lease.
                self.store.release([left.id for left in claimed[position:]])
                break
            try:
                self.mailer.send(self.sealer.open(queued.payload))
            except (MailFailed, InvalidTag, ValueError) as error:
                attempts = queued.attempts + 1
                retry_at = next_attempt(attempts, self.clock.now())
                self.store.mark_failed(queued.id, attempts, str(error) or type(error).__name__, retry_at)
                log.warning(
                    "%s mail not sent (attempt %d): %s; %s",
                    queued.kind,
                    attempts,
                    error,
                    "will retry" if retry_at else "giving up",
                )
                failed += 1
            else:
                self.store.mark_sent(queued.id, self.clock.now())
                sent += 1
        return sent, failed
