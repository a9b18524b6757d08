"""Mail as the domain sees it: a message, a port to send it through, and when to try again."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

from attrs import frozen

FIRST_RETRY = timedelta(minutes=1)
LONGEST_WAIT = timedelta(hours=1)
MAX_ATTEMPTS = 20  # about a day of retries: 1, 2, 4 … 32 minutes, then hourly


@frozen
class Message:
    to: str
    subject: str
    text: str
    html: str | None = None
    reply_to: str | None = None


@frozen
class QueuedMail:
    id: str
    kind: str
    payload: str
    attempts: int


@frozen
class MailQueueStatus:
    queued: int
    sent: int
    failed: int
    oldest_queued: datetime | None
    last_errors: tuple[tuple[str, int, str], ...]
    """(kind, attempts, error) of the most recent messages still waiting or given up."""


class MailQueueStore(Protocol):
    """Sealed messages waiting to be sent; each due message is leased to one sender at a time."""

    def add(
        self, mail_id: str, kind: str, payload: str, about_key: str, now: datetime, lease: timedelta
    ) -> None:
        """Store a message due now, leased for ``lease`` to the caller, who means to send it;
        ``about_key`` is a keyed hash of the address of the person it is about."""
        ...

    def still_queued(self, mail_ids: Sequence[str]) -> set[str]:
        """Of these messages, those still waiting: an erasure may have deleted one since."""
        ...

    def claim_due(self, now: datetime, limit: int, lease: timedelta) -> list[QueuedMail]: ...

    def mark_sent(self, mail_ids: Sequence[str], now: datetime) -> None: ...

    def mark_failed(self, mail_id: str, attempts: int, error: str, retry_at: datetime | None) -> None: ...

    def release(self, mail_ids: list[str]) -> None:
        """End this sender's lease on messages it claimed and will not send: due again at once."""
        ...


class MailFailed(Exception):
    """The message could not be handed over; the reason must not contain the address."""


class Mailer(Protocol):
    def send(self, message: Message) -> None:
        """Hand the message to the mail system; raise :class:`MailFailed` if it was not taken."""
        ...


def next_attempt(failed_attempts: int, now: datetime) -> datetime | None:
    """When to try again after ``failed_attempts`` failures: doubling waits from a minute, at most
    an hour apart; None once the message has failed ``MAX_ATTEMPTS`` times."""
    if failed_attempts >= MAX_ATTEMPTS:
        return None
    wait = FIRST_RETRY * (1 << min(max(failed_attempts - 1, 0), 10))
    return now + min(wait, LONGEST_WAIT)
