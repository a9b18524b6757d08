"""Which e-mails the service sends, and what they link to: all of them through the queue, in the
unit of work of the use case that calls them."""

from __future__ import annotations

from vpnsite.erasures import ErasureLinks
from vpnsite.notifications import Activation, Reminder, Ticket
from vpnsite_adapters.mail.queue import MailQueue
from vpnsite_adapters.mail.templates import (
    licence_email,
    renewal_reminder,
    ticket_acknowledgement,
    ticket_for_support,
)
from vpnsite_adapters.operator_files.identity import Operator
from vpnsite_adapters.texts.links import (
    archive_url,
    erasure_url,
    licence_url,
    renewal_url,
    setup_url,
    support_url,
)


class QueuedNotifications:
    """The Notifications port over the mail queue; ``site_url`` is the public origin links use,
    ``operator`` the company the licence e-mail names (the settings' one; None in the demo and in
    tests, which name the fictitious demo operator as the site does); ``erasure_links`` sign the
    licence e-mail's "Didn't sign up? Erase this address"."""

    def __init__(
        self,
        queue: MailQueue,
        support_address: str,
        site_url: str,
        term_days: int,
        operator: Operator | None = None,
        *,
        erasure_links: ErasureLinks,
    ) -> None:
        self.queue = queue
        self.support_address = support_address
        self.site_url = site_url
        self.term_days = term_days
        self.operator = operator
        self.erasure_links = erasure_links

    def licence_issued(self, activation: Activation) -> None:
        licence = activation.licence
        self.queue.enqueue(
            "licence",
            licence_email(
                to=licence.email,
                code=activation.code,
                ends=licence.ends_at.date(),
                archive_url=archive_url(self.site_url, activation.archive_token),
                licence_url=licence_url(self.site_url, licence.language),
                erase_url=erasure_url(self.site_url, licence.language, self.erasure_links.mint(licence.id)),
                language=licence.language,
                operator=self.operator,
                setup_url=setup_url(self.site_url, licence.language, activation.archive_token),
                support_url=support_url(self.site_url, licence.language),
            ),
            about=licence.email,
        )

    def renewal_due(self, reminder: Reminder) -> None:
        licence = reminder.licence
        url = renewal_url(self.site_url, licence.language, reminder.renewal_token)
        self.queue.enqueue(
            "renewal-reminder",
            renewal_reminder(licence.email, licence.ends_at.date(), self.term_days, url, licence.language),
            about=licence.email,
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
            about=ticket.email,
        )

    def acknowledgement_due(self, ticket: Ticket) -> None:
        self.queue.enqueue(
            "ticket-acknowledgement",
            ticket_acknowledgement(ticket.email, ticket.number, ticket.language, self.support_address),
            about=ticket.email,
        )
