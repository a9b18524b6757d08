"""Queued delivery: a message is stored (sealed, since it may carry an activation code) before
anyone tries to send it, then handed to the mailer by a background sender that retries with
backoff. A mail failure therefore never loses a licence or a ticket, nor the message itself."""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import time
from collections import deque
from datetime import timedelta
from functools import partial

import attrs
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from vpnsite.emails import mailbox_key
from vpnsite.keyed_hashes import Keyring, KeySet
from vpnsite.mail import Mailer, MailFailed, MailQueueStore, Message, QueuedMail, next_attempt
from vpnsite.ports import Clock, UnitOfWork
from vpnsite_adapters.runtime.periodic import Periodic

log = logging.getLogger("vpnsite.mail")

LEASE = timedelta(minutes=2)
POLL_SECONDS = 5.0
POLL_BATCH = 50
# Woken for a message, the sender waits this long for others: a busy moment's e-mails go out in
# one round, marked sent in one statement. Nobody notices a twentieth of a second on an e-mail.
GATHER_SECONDS = 0.05

Handed = tuple[QueuedMail, Message]
"""A message this process queued, handed to its sender as it was written."""


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
        self.sender = Periodic("mail-sender", POLL_SECONDS, self._send_round)
        # What this process queued is leased to its own sender and handed over in memory once
        # committed: a sign-up's e-mail costs no query to find and claim.
        self._handed: deque[Handed] = deque()
        self._next_poll = -math.inf
        self._sealer: tuple[tuple[KeySet, ...], Sealer] | None = None

    @property
    def sealer(self) -> Sealer:
        """The ring as it is now: a rotation takes effect without a restart."""
        sets = self.keys.read().sets
        sealed_with = self._sealer
        # Setting a cipher up costs more than sealing a message: only a new ring gets new ones.
        if sealed_with is None or sealed_with[0] is not sets:
            sealed_with = self._sealer = (sets, Sealer(*(keys.mail for keys in sets)))
        return sealed_with[1]

    def enqueue(self, kind: str, message: Message, about: str) -> None:
        """Store the message in the caller's unit of work, leased to this process's sender, which is
        handed it once that commits. A rollback hands nothing; should the process die first, the
        lease runs out and any sender takes the message. ``about`` is the address of the person the
        message is about (a ticket's copy to support is about its sender): erasing that address
        deletes the message while it waits."""
        queued = QueuedMail(os.urandom(16).hex(), kind, self.sealer.seal(message), 0)
        about_key = self.keys.current.addresses.hash(mailbox_key(about))
        self.store.add(queued.id, kind, queued.payload, about_key, self.clock.now(), LEASE)
        self.unit_of_work.after_commit(partial(self._hand, queued, message))

    def deliver_due(self, limit: int = POLL_BATCH) -> tuple[int, int]:
        """Send what this process was handed and every message that is due; return (sent, failed)."""
        with self.unit_of_work.scope():
            return self._deliver(self._take_handed(), self.store.claim_due(self.clock.now(), limit, LEASE))

    def give_back(self) -> None:
        """End the lease on what this process was handed and has not sent (it is stopping): the
        messages are due again at once, for the next process."""
        left = self._take_handed()
        if left:
            with self.unit_of_work.scope():
                self.store.release([queued.id for queued, _ in left])

    def _hand(self, queued: QueuedMail, message: Message) -> None:
        self._handed.append((queued, message))
        self.sender.wake()

    def _take_handed(self) -> list[Handed]:
        taken: list[Handed] = []
        with contextlib.suppress(IndexError):
            while True:
                taken.append(self._handed.popleft())
        return taken

    def _send_round(self) -> tuple[int, int]:
        """The sender's round: what it was handed and, every ``POLL_SECONDS``, whatever else is due
        (retries, and messages a stopped or failed process left)."""
        if self._handed and not self.sender.stopping:
            time.sleep(GATHER_SECONDS)
        with self.unit_of_work.scope():
            handed = self._take_handed()
            claimed: list[QueuedMail] = []
            if time.monotonic() >= self._next_poll:
                self._next_poll = time.monotonic() + POLL_SECONDS
                claimed = self.store.claim_due(self.clock.now(), POLL_BATCH, LEASE)
            return self._deliver(handed, claimed)

    def _deliver(self, handed: list[Handed], claimed: list[QueuedMail]) -> tuple[int, int]:
        # What was handed over comes with its message; a handed message whose lease ran out before
        # this round is claimed as well, and sent once. One erased since it was queued is not sent.
        if handed:
            waiting = self.store.still_queued([queued.id for queued, _ in handed])
            handed = [(queued, message) for queued, message in handed if queued.id in waiting]
        ids = {queued.id for queued, _ in handed}
        batch = handed + [(queued, None) for queued in claimed if queued.id not in ids]
        sent: list[str] = []
        failed = 0
        try:
            for position, (queued, message) in enumerate(batch):
                if self.sender.stopping:
                    # The process is stopping: what it has not begun goes back at once, for the
                    # next process to send, rather than waiting out the lease.
                    self.store.release([left.id for left, _ in batch[position:]])
                    break
                try:
                    self.mailer.send(self.sealer.open(queued.payload) if message is None else message)
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
                    sent.append(queued.id)
        finally:
            # Marked together, once the round is over: a crash before then sends the round's
            # messages again, never loses one.
            if sent:
                self.store.mark_sent(sent, self.clock.now())
        return len(sent), failed
