"""Sign-up requests and their one-time redemption into a licence."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

import peewee
from attrs import frozen

from vpnsite.emails import email_key
from vpnsite.licences import Licence
from vpnsite.signup_requests import SignupRequest
from vpnsite.signups import Redemption
from vpnsite_adapters.sql.database import from_db, to_db


@frozen
class SqlSignupStore:
    db: peewee.Database
    models: SimpleNamespace

    def add_request(self, request: SignupRequest) -> None:
        self.models.SignupRequest.insert(
            id=request.id,
            email=request.email,
            email_key=email_key(request.email),
            user_days=request.user_days,
            created_at=to_db(request.created_at),
            expires_at=to_db(request.expires_at),
            language=request.language,
        ).execute()

    def find_request(self, request_id: str) -> tuple[SignupRequest, bool] | None:
        row = self.models.SignupRequest.get_or_none(self.models.SignupRequest.id == request_id)
        if row is None:
            return None
        request = SignupRequest(
            id=row.id,
            email=row.email,
            user_days=row.user_days,
            created_at=from_db(row.created_at),
            expires_at=from_db(row.expires_at),
            language=row.language,
        )
        return request, row.redeemed_at is not None

    def redeem(self, request_id: str, licence: Licence, ip: str | None, now: datetime) -> Redemption:
        requests, licences = self.models.SignupRequest, self.models.Licence
        with self.db.atomic() as transaction:
            # The conditional update is the lock: of two concurrent redemptions exactly one
            # changes the row; the other sees it already redeemed.
            changed = (
                requests.update(redeemed_at=to_db(now))
                .where((requests.id == request_id) & requests.redeemed_at.is_null())
                .execute()
            )
            if changed != 1:
                return "already_used"
            try:
                # A clash of code hashes (one in 10^19) undoes the whole transaction: the request
                # stays unused and the caller draws another code.
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
            except peewee.IntegrityError:
                transaction.rollback()
                return "code_taken"
        return "redeemed"
