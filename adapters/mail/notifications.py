"""Which e-mails the service sends, and when: all of them through the queue."""

from __future__ import annotations

from vpnsite.renewals import Reminder
from vpnsite.signups import Activation
from vpnsite.support import Ticket
from vpnsite_adapters.mail.queue import MailQueue
from vpnsite_adapters.mail.templates import (
    licence_email,
    renewal_reminder,
    ticket_acknowledgement,
    ticket_for_support,
)


def language_prefix(language: str) -> str:
    return "" if language == "en" else f"/{language}"


class Notifications:
    def __init__(self, queue: MailQueue, support_address: str) -> None:
        self.queue = queue
        self.support_address = support_address

    def licence_issued(self, activation: Activation, archive_url: str, site_url: str) -> None:
        licence = activation.licence
        prefix = language_prefix(licence.language)
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

    def renewal_due(self, reminder: Reminder, term_days: int, site_url: str) -> None:
        licence = reminder.licence
        url = f"{site_url}{language_prefix(licence.language)}/license?renew={reminder.renewal_token}"
        self.queue.enqueue(
            "renewal-reminder",
            renewal_reminder(licence.email, licence.ends_at.date(), term_days, url, licence.language),
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
