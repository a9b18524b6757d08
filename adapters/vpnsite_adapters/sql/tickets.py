"""Support tickets."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import peewee
from attrs import frozen

from vpnsite.emails import mailbox_key
from vpnsite.notifications import Ticket
from vpnsite_adapters.sql.database import from_db, to_db
from vpnsite_adapters.sql.models import Models


@frozen
class SqlTicketStore:
    db: peewee.Database
    models: Models

    def add_ticket(self, ticket: Ticket) -> bool:
        tickets = self.models.Ticket
        with self.db.atomic():
            if tickets.select().where(tickets.number == ticket.number).exists():
                return False
            tickets.insert(
                number=ticket.number,
                email=ticket.email,
                email_key=mailbox_key(ticket.email),
                code_hash=ticket.code_hash,
                message=ticket.message,
                created_at=to_db(ticket.created_at),
                language=ticket.language,
            ).execute()
        return True

    def find_ticket(self, number: str) -> Ticket | None:
        row = self.models.Ticket.get_or_none(self.models.Ticket.number == number)
        return None if row is None else _ticket(row)

    def list_tickets(self, open_only: bool, limit: int) -> list[Ticket]:
        tickets = self.models.Ticket
        query = tickets.select().order_by(tickets.created_at.desc()).limit(limit)
        if open_only:
            query = query.where(tickets.closed_at.is_null())
        return [_ticket(row) for row in query]

    def count_open(self) -> int:
        tickets = self.models.Ticket
        return int(tickets.select().where(tickets.closed_at.is_null()).count())

    def close_ticket(self, number: str, now: datetime) -> bool:
        tickets = self.models.Ticket
        changed = (
            tickets.update(closed_at=to_db(now))
            .where((tickets.number == number) & tickets.closed_at.is_null())
            .execute()
        )
        return bool(changed)


def _ticket(row: Any) -> Ticket:
    return Ticket(
        number=row.number,
        email=row.email or "",
        message=row.message or "",
        created_at=from_db(row.created_at),
        code_hash=row.code_hash,
        closed_at=None if row.closed_at is None else from_db(row.closed_at),
        language=row.language,
    )
