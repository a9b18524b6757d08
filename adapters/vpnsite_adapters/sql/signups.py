"""The one-time redemption of a sign-up request into a licence."""

from __future__ import annotations

from types import SimpleNamespace

import peewee
from attrs import frozen

from vpnsite.emails import email_key
from vpnsite.licences import Licence
from vpnsite.signups import Redemption
from vpnsite_adapters.sql.database import to_db
from vpnsite_adapters.sql.users import UserTally


@frozen
class SqlSignupStore:
    db: peewee.Database
    models: SimpleNamespace
    users: UserTally

    def redeem(self, request_id: str, licence: Licence, ip: str | None) -> Redemption:
        licences = self.models.Licence
        try:
            with self.db.atomic():
                licences.insert(
                    id=licence.id,
                    request_id=request_id,
                    email=licence.email,
                    email_key=email_key(licence.email),
                    ip=ip,
                    code_hash=licence.code_hash,
                    starts_at=to_db(licence.starts_at),
                    ends_at=to_db(licence.ends_at),
                    language=licence.language,
                ).execute()
                self.users.address_changed(email_key(licence.email))
        except peewee.IntegrityError:
            # The unique request id is the lock: of two concurrent redemptions one waits for the
            # other's commit and then fails here. A clash of code hashes (one in 10^19) fails here
            # too, leaving the request unused for the caller to draw another code.
            return "already_used" if self.was_redeemed(request_id) else "code_taken"
        return "redeemed"

    def was_redeemed(self, request_id: str) -> bool:
        licences = self.models.Licence
        return licences.select(licences.id).where(licences.request_id == request_id).exists()
