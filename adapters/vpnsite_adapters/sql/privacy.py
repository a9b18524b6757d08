"""Data requests in SQL: what is held about an address, and erasing it."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from typing import Any

import peewee
from attrs import frozen

from vpnsite_adapters.sql.database import from_db, to_db
from vpnsite_adapters.sql.users import UserTally


def _when(value: int | None) -> str | None:
    return None if value is None else from_db(value).isoformat(timespec="seconds")


@frozen
class SqlPrivacyStore:
    db: peewee.Database
    models: SimpleNamespace
    users: UserTally

    def export_address(self, key: str) -> dict[str, Any]:
        m = self.models
        licences = m.Licence.select().where(m.Licence.email_key == key).order_by(m.Licence.starts_at)
        tickets = m.Ticket.select().where(m.Ticket.email_key == key).order_by(m.Ticket.created_at)
        return {
            "licences": [
                {
                    "id": row.id,
                    "email": row.email,
                    "ip_address": row.ip,
                    "language": row.language,
                    "starts_at": _when(row.starts_at),
                    "ends_at": _when(row.ends_at),
                    "activation_code": "kept only as a keyed hash; it cannot be shown",
                }
                for row in licences
            ],
            "tickets": [
                {
                    "number": row.number,
                    "email": row.email,
                    "message": row.message,
                    "created_at": _when(row.created_at),
                    "closed_at": _when(row.closed_at),
                }
                for row in tickets
            ],
        }

    def erase_address(self, key: str, now: datetime) -> dict[str, int]:
        m = self.models
        with self.db.atomic():
            ids = [row.id for row in m.Licence.select(m.Licence.id).where(m.Licence.email_key == key)]
            sessions = m.VpnSession.delete().where(m.VpnSession.licence_id.in_(ids)).execute() if ids else 0
            live = m.Licence.id.in_(ids) & (m.Licence.ends_at > to_db(now))
            ended = m.Licence.update(ends_at=to_db(now)).where(live).execute() if ids else 0
            erased = (
                m.Licence.update(email=None, email_key=None, ip=None, anonymised_at=to_db(now))
                .where(m.Licence.id.in_(ids))
                .execute()
                if ids
                else 0
            )
            self.users.address_changed(key)
            tickets = (
                m.Ticket.update(email=None, email_key=None, message=None, code_hash=None)
                .where(m.Ticket.email_key == key)
                .execute()
            )
        return {
            "licences_ended": ended,
            "licences_erased": erased,
            "tickets_erased": tickets,
            "sessions_dropped": sessions,
        }
