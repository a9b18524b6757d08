"""Which e-mails the service sends, and when: all of them through the queue."""

from __future__ import annotations

from vpnsite.signups import Activation
from vpnsite.support import Ticket
from vpnsite_adapters.mail.queue import MailQueue
from vpnsite_adapters.mail.templates import licence_email, ticket_acknowledgement, ticket_for_support


class Notifications:
    def __init__(self, queue: MailQueue, support_address: str) -> None:
        self.queue = queue
        self.support_address = support_address

    def licence_issued(self, activation: Activation, archive_url: str, site_url: str) -> None:
        licence = activation.licence
        prefix = "" if licence.language == "en" else f"/{licence.language}"
        self.queue.enqueue(
            "licence",
            licence_email(
                to=licence.email,
                code=activation.code,
                ends=licence.ends_at.date(),
                archive_url=archive_url,
                licence_url=f"{site_url}{prefix}/license",
                language=licence.language,
            ),
        )

    def ticket_opened(self, ticket: Ticket) -> None:
        self.queue.enqueue(
            "ticket-forward",
            ticket_for_support(
                self.support_address,
                ticket.number,
                ticket.email,
                ticket.message,
                ticket.language,
                ticket.code_hash is not None,
            ),
        )
        self.queue.enqueue(
            "ticket-acknowledgement",
            ticket_acknowledgement(ticket.email, ticket.number, ticket.message, ticket.language),
        )
