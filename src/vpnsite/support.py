"""Support tickets: a visitor's message, stored before anything else happens to it.

Anyone may type any address into the form, so nothing about a ticket is decided by its address
alone in a way a stranger could turn against the address's owner: no ticket is refused for it (the
per-address and per-visitor limits hold back a sender), and the acknowledgement, which goes to
that address and quotes nothing the sender wrote, goes at most once an hour to one mailbox
(:data:`vpnsite.rate_limits.TICKET_ACKNOWLEDGEMENTS`)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from attrs import frozen

from vpnsite.codes import clean_typed_code, code_problem
from vpnsite.emails import mailbox_key, normalise_email
from vpnsite.errors import InvalidField
from vpnsite.identifiers import new_ticket_number
from vpnsite.keyed_hashes import Keyring
from vpnsite.licence_checks import LicenceStore
from vpnsite.licences import Licence
from vpnsite.notifications import Notifications, Ticket
from vpnsite.ports import Clock, RandomSource, UnitOfWork
from vpnsite.rate_limits import SUPPORT, TICKET_ACKNOWLEDGEMENTS, Limiter, Subject

MAX_MESSAGE = 5000


class TicketStore(Protocol):
    def add_ticket(self, ticket: Ticket) -> bool:
        """Store the ticket; False if its number is taken (nothing is written then)."""
        ...


@frozen
class Support:
    store: TicketStore
    limiter: Limiter
    keys: Keyring
    clock: Clock
    random: RandomSource
    notifications: Notifications
    unit_of_work: UnitOfWork

    def open_ticket(
        self,
        email: str,
        activation_code: str | None,
        message: str,
        ip: str | None,
        language: str = "en",
        visitor_id: str | None = None,
    ) -> Ticket:
        address = normalise_email(email)
        text = message.strip()
        if not text:
            raise InvalidField("message", "missing")
        if len(text) > MAX_MESSAGE:
            raise InvalidField("message", "message_too_long")
        code = clean_typed_code(activation_code or "")
        problem = code_problem(code) if code else None
        if problem is not None:
            raise InvalidField("activation_code", problem)
        now = self.clock.now()
        mailbox: dict[Subject, str | None] = {"email": mailbox_key(address)}
        self.limiter.admit(SUPPORT, {"ip": ip, "visitor": visitor_id, **mailbox}, now)
        while True:
            ticket = Ticket(
                number=new_ticket_number(self.random),
                email=address,
                message=text,
                created_at=now,
                code_hash=self.keys.current.codes.hash(code) if code else None,
                language=language,
            )
            with self.unit_of_work.atomic():
                if self.store.add_ticket(ticket):
                    self.notifications.ticket_opened(ticket)
                    # Decided with the ticket, in its unit of work: an acknowledgement is counted
                    # only if its ticket is kept. The caller's answer is the same either way.
                    if self.limiter.admits_one_more(TICKET_ACKNOWLEDGEMENTS, mailbox, now):
                        self.notifications.acknowledgement_due(ticket)
                    return ticket


class TicketDesk(Protocol):
    def find_ticket(self, number: str) -> Ticket | None: ...

    def close_ticket(self, number: str, now: datetime) -> bool:
        """Close the ticket if it is open; False if there is no open ticket of that number."""
        ...


@frozen
class TicketDetails:
    """A ticket as support reads it: ``code_given`` when the visitor typed an activation code,
    and ``licence``, the licence that code matches, if any."""

    ticket: Ticket
    licence: Licence | None

    @property
    def code_given(self) -> bool:
        return self.ticket.code_hash is not None


@frozen
class SupportDesk:
    """What the operator does with tickets: read one beside the licence it is about, close it."""

    tickets: TicketDesk
    licences: LicenceStore
    clock: Clock

    def show(self, number: str) -> TicketDetails | None:
        ticket = self.tickets.find_ticket(number)
        if ticket is None:
            return None
        code_hash = ticket.code_hash
        return TicketDetails(ticket, self.licences.find_by_code_hashes([code_hash]) if code_hash else None)

    def close(self, number: str) -> bool:
        """Close an open ticket (retention erases it later); False if there is none."""
        return self.tickets.close_ticket(number, self.clock.now())
