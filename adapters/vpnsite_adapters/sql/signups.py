"""The one-time redemption of a sign-up request into a licence."""

from __future__ import annotations

import contextlib

import peewee
from attrs import frozen

from vpnsite.emails import mailbox_key
from vpnsite.licences import Licence
from vpnsite.signups import Redemption
from vpnsite_adapters.sql.database import is_postgres, to_db
from vpnsite_adapters.sql.models import Models
from vpnsite_adapters.sql.users import UserTally

# Written out rather than built by peewee, which took longer to build it than the database to run it.
_INSERT = (
    "INSERT INTO licence"
    " (id, request_id, email, email_key, ip, code_hash, code_key, starts_at, ends_at, language)"
    " VALUES ({param}, {param}, {param}, {param}, {param}, {param}, {param}, {param}, {param}, {param})"
    " ON CONFLICT DO NOTHING RETURNING email_key, ends_at"
)


@frozen
class SqlSignupStore:
    db: peewee.Database
    models: Models
    users: UserTally

    def redeem(self, request_id: str, licence: Licence, ip: str | None) -> Redemption:
        # On PostgreSQL one statement, whole or nothing without a savepoint (a round trip each way);
        # on SQLite three, whose savepoint costs no round trip.
        with contextlib.nullcontext() if is_postgres(self.db) else self.db.atomic():
            inserted = self.users.insert_counted(
                _INSERT.format(param=self.db.param),
                (
                    licence.id,
                    request_id,
                    licence.email,
                    mailbox_key(licence.email),
                    ip,
                    licence.code_hash,
                    licence.code_key,
                    to_db(licence.starts_at),
                    to_db(licence.ends_at),
                    licence.language,
                ),
            )
        if inserted:
            return "redeemed"
        # The unique request id is the lock: of two concurrent redemptions one waits for the other's
        # commit and then inserts nothing. A clash of code hashes (one in 10^19) inserts nothing too,
        # leaving the request unused for the caller to draw another code.
        return "already_used" if self.was_redeemed(request_id) else "code_taken"

    def was_redeemed(self, request_id: str) -> bool:
        licences = self.models.Licence
        return licences.select(licences.id).where(licences.request_id == request_id).exists()
