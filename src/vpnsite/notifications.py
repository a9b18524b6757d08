"""What the use cases tell people, as a port. A use case calls it inside the unit of work that
writes the licence, ticket or reminder the message is about, so a crash cannot keep one and lose
the other."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from vpnsite.renewals import Reminder
    from vpnsite.signups import Activation
    from vpnsite.support import Ticket


class Notifications(Protocol):
    def licence_issued(self, activation: Activation) -> None: ...

    def renewal_due(self, reminder: Reminder) -> None: ...

    def ticket_opened(self, ticket: Ticket) -> None:
        """The ticket goes to the support team."""
        ...

    def acknowledgement_due(self, ticket: Ticket) -> None:
        """Its address is told the ticket was opened, and its number (never what it says)."""
        ...
