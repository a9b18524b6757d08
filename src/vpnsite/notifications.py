"""What the use cases tell people, as a port. A use case calls it inside the unit of work that
writes the licence, ticket or reminder the message is about, so a crash cannot keep one and lose
the other. The messages it carries are defined here, beside it: the use cases that send them
import them from the port, never the port from its callers."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from attrs import frozen

from vpnsite.licences import Licence


@frozen
class Activation:
    """What a redeemed request gives the visitor; the only time the code exists in clear.
    ``emailed``: whether the licence e-mail went too, or the mailbox had had one within the day
    (:data:`vpnsite.rate_limits.LICENCE_EMAILS`) and this licence is shown on screen only."""

    licence: Licence
    code: str
    archive_token: str
    emailed: bool = True


@frozen
class Reminder:
    licence: Licence
    renewal_token: str


@frozen
class Ticket:
    number: str
    email: str
    message: str
    created_at: datetime
    code_hash: str | None = None
    """The keyed hash of the activation code the visitor gave, so support can find the licence."""
    closed_at: datetime | None = None
    language: str = "en"


class Notifications(Protocol):
    def licence_issued(self, activation: Activation) -> None: ...

    def renewal_due(self, reminder: Reminder) -> None: ...

    def ticket_opened(self, ticket: Ticket) -> None:
        """The ticket goes to the support team."""
        ...

    def acknowledgement_due(self, ticket: Ticket) -> None:
        """Its address is told the ticket was opened, and its number (never what it says)."""
        ...
