"""Support tickets: a visitor's message, stored before anything else happens to it."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from attrs import frozen

from vpnsite.codes import clean_typed_code, code_problem
from vpnsite.emails import email_key, normalise_email
from vpnsite.errors import InvalidField
from vpnsite.identifiers import new_ticket_number
from vpnsite.keyed_hashes import Keyring
from vpnsite.notifications import Notifications
from vpnsite.ports import Clock, RandomSource, UnitOfWork
from vpnsite.rate_limits import SUPPORT, Limiter

MAX_MESSAGE = 5000


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
        self.limiter.admit(SUPPORT, {"ip": ip, "visitor": visitor_id, "email": email_key(address)}, now)
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
                    return ticket
