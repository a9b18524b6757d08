"""One database, migrated, with a store for each port of the domain."""

from __future__ import annotations

import peewee
from attrs import frozen
from playhouse.pool import PooledDatabase

from vpnsite_adapters.sql.database import close_database, open_database
from vpnsite_adapters.sql.fleet import SqlFleetStore
from vpnsite_adapters.sql.key_usage import SqlKeyUsage
from vpnsite_adapters.sql.licences import SqlLicenceStore
from vpnsite_adapters.sql.mail_queue import SqlMailQueueStore
from vpnsite_adapters.sql.migrations import LATEST, applied_version, migrate
from vpnsite_adapters.sql.models import bind_models
from vpnsite_adapters.sql.privacy import SqlPrivacyStore
from vpnsite_adapters.sql.rate_limits import SqlRateLimitStore
from vpnsite_adapters.sql.renewals import SqlRenewalStore
from vpnsite_adapters.sql.retention import SqlRetentionStore
from vpnsite_adapters.sql.sessions import SqlSessionStore
from vpnsite_adapters.sql.signups import SqlSignupStore
from vpnsite_adapters.sql.tickets import SqlTicketStore
from vpnsite_adapters.sql.unit_of_work import SqlUnitOfWork
from vpnsite_adapters.sql.users import UserTally
from vpnsite_adapters.sql.wireguard import SqlWireGuardStore


@frozen
class SqlStore:
    db: peewee.Database
    signups: SqlSignupStore
    licences: SqlLicenceStore
    rate_limits: SqlRateLimitStore
    tickets: SqlTicketStore
    fleet: SqlFleetStore
    retention: SqlRetentionStore
    mail_queue: SqlMailQueueStore
    privacy: SqlPrivacyStore
    renewals: SqlRenewalStore
    sessions: SqlSessionStore
    wireguard: SqlWireGuardStore
    key_usage: SqlKeyUsage
    unit_of_work: SqlUnitOfWork

    @classmethod
    def open(cls, url: str, max_connections: int = 16, run_migrations: bool = True) -> SqlStore:
        db = open_database(url, max_connections)
        unit_of_work = SqlUnitOfWork(db)
        if run_migrations:
            with unit_of_work.scope():
                migrate(db)
        models = bind_models(db)
        users = UserTally(db, models)
        return cls(
            db=db,
            signups=SqlSignupStore(db, models, users),
            licences=SqlLicenceStore(db, models, users),
            rate_limits=SqlRateLimitStore(db, models),
            tickets=SqlTicketStore(db, models),
            fleet=SqlFleetStore(db, models),
            retention=SqlRetentionStore(db, models, users),
            mail_queue=SqlMailQueueStore(db, models),
            privacy=SqlPrivacyStore(db, models, users),
            renewals=SqlRenewalStore(db, models, users),
            sessions=SqlSessionStore(db, models),
            wireguard=SqlWireGuardStore(db, models),
            key_usage=SqlKeyUsage(db, models),
            unit_of_work=unit_of_work,
        )

    def migrate(self) -> list[int]:
        """Apply the migrations this database lacks; their versions."""
        with self.unit_of_work.scope():
            return migrate(self.db)

    def schema_version(self) -> int:
        with self.unit_of_work.scope():
            return applied_version(self.db)

    def schema_is_current(self) -> bool:
        return self.schema_version() >= LATEST

    def ping(self) -> None:
        """One round trip to the database; StoreUnavailable if it cannot be reached."""
        with self.unit_of_work.scope():
            self.db.execute_sql("SELECT 1").fetchone()

    def connections_in_use(self) -> int | None:
        """The pool's connections taken just now; None on SQLite, which keeps one per thread."""
        if isinstance(self.db, PooledDatabase):
            return len(self.db._in_use)
        return None

    def close(self) -> None:
        close_database(self.db)
