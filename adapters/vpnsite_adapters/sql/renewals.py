"""Renewals: moving a licence's end, one-time renewal links, and who is due a reminder."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import peewee
from attrs import frozen

from vpnsite.errors import RequestAlreadyUsed
from vpnsite.keyed_hashes import KeyedHash
from vpnsite.licences import Licence
from vpnsite_adapters.sql.database import from_db, to_db
from vpnsite_adapters.sql.licences import licence_from_row
from vpnsite_adapters.sql.models import Models
from vpnsite_adapters.sql.users import UserTally


@frozen
class SqlRenewalStore:
    db: peewee.Database
    models: Models
    users: UserTally

    def extend(self, licence_id: str, ends_at: datetime, new_end: datetime) -> bool:
        licences = self.models.Licence
        changed = (
            licences.update(ends_at=to_db(new_end))
            .where((licences.id == licence_id) & (licences.ends_at == to_db(ends_at)))
            .execute()
        )
        if changed != 1:
            return False
        self.users.address_changed(
            licences.select(licences.email_key).where(licences.id == licence_id).scalar()
        )
        return True

    def add_renewal_link(self, link: KeyedHash, licence_id: str, now: datetime) -> None:
        self.models.RenewalLink.insert(
            token_hash=link.value, token_key=link.key_id, licence_id=licence_id, created_at=to_db(now)
        ).execute()

    def take_renewal_link(self, link_hashes: Sequence[str], now: datetime) -> Licence | None:
        links, licences = self.models.RenewalLink, self.models.Licence
        with self.db.atomic():
            link = links.get_or_none(links.token_hash.in_(list(link_hashes)))
            if link is None:
                return None
            taken = (
                links.update(used_at=to_db(now))
                .where((links.token_hash == link.token_hash) & links.used_at.is_null())
                .execute()
            )
            if taken != 1:
                raise RequestAlreadyUsed()
            row = licences.get_or_none(licences.id == link.licence_id)
        return None if row is None else licence_from_row(row)

    def licences_ending(self, before: datetime, now: datetime) -> list[tuple[Licence, datetime | None]]:
        licences = self.models.Licence
        rows = licences.select().where(
            (licences.ends_at > to_db(now))
            & (licences.ends_at < to_db(before))
            & licences.email.is_null(False)
        )
        return [
            (licence_from_row(row), None if row.reminded_for_end is None else from_db(row.reminded_for_end))
            for row in rows
        ]

    def mark_reminded(self, licence_id: str, ends_at: datetime) -> bool:
        licences = self.models.Licence
        end = to_db(ends_at)
        # Re-read once the row is ours: a hub that marked it meanwhile leaves nothing to mark.
        not_yet = licences.reminded_for_end.is_null() | (licences.reminded_for_end != end)
        marked = licences.update(reminded_for_end=end).where((licences.id == licence_id) & not_yet).execute()
        return bool(marked)
