"""The mail queue: messages wait here (sealed) until a mailer has taken them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import peewee
from attrs import frozen

from vpnsite.mail import MailQueueStatus, QueuedMail
from vpnsite_adapters.sql.database import from_db, is_postgres, to_db, write_at_commit, write_relaxed
from vpnsite_adapters.sql.models import Models


@frozen
class SqlMailQueueStore:
    db: peewee.Database
    models: Models

    def add(
        self, mail_id: str, kind: str, payload: str, about_key: str, now: datetime, lease: timedelta
    ) -> None:
        # Written out: it runs in every sign-up, and peewee took longer to build it than to run it.
        param = self.db.param
        write_at_commit(
            self.db,
            "INSERT INTO mail_queue"
            " (id, kind, payload, about_key, created_at, next_attempt_at, claimed_until, attempts)"
            f" VALUES ({param}, {param}, {param}, {param}, {param}, {param}, {param}, 0)",
            (mail_id, kind, payload, about_key, to_db(now), to_db(now), to_db(now + lease)),
        )

    def still_queued(self, mail_ids: Sequence[str]) -> set[str]:
        param = self.db.param
        rows = self.db.execute_sql(
            "SELECT id FROM mail_queue WHERE sent_at IS NULL"
            f" AND id IN ({', '.join(param for _ in mail_ids)})",
            tuple(mail_ids),
        )
        return {row[0] for row in rows}

    def claim_due(self, now: datetime, limit: int, lease: timedelta) -> list[QueuedMail]:
        """Messages due now, each leased to this caller alone so two processes never send one twice."""
        queue = self.models.MailQueue
        free = queue.claimed_until.is_null() | (queue.claimed_until < to_db(now))
        due = (
            queue.select()
            .where(queue.next_attempt_at.is_null(False) & (queue.next_attempt_at <= to_db(now)) & free)
            .order_by(queue.next_attempt_at)
            .limit(limit)
        )
        rows = list(due)
        claimed: list[QueuedMail] = []
        if not rows:
            return claimed
        # One transaction for the batch; each row's conditional update is still its own claim.
        with self.db.atomic():
            self._relax_durability()
            for row in rows:
                taken = (
                    queue.update(claimed_until=to_db(now + lease))
                    .where((queue.id == row.id) & free & queue.next_attempt_at.is_null(False))
                    .execute()
                )
                if taken == 1:
                    claimed.append(QueuedMail(row.id, row.kind, row.payload, row.attempts))
        return claimed

    def mark_sent(self, mail_ids: Sequence[str], now: datetime) -> None:
        # A "sent" mark lost in a crash sends a message twice, never loses one: it need not wait
        # for the disk, and goes in one round trip (every sign-up's e-mail is marked).
        param = self.db.param
        write_relaxed(
            self.db,
            "UPDATE mail_queue SET payload = NULL, sent_at = "
            f"{param}, next_attempt_at = NULL, claimed_until = NULL, last_error = NULL"
            f" WHERE id IN ({', '.join(param for _ in mail_ids)})",
            (to_db(now), *mail_ids),
        )

    def _relax_durability(self) -> None:
        """Leases and "sent" marks may skip the wait for the disk on PostgreSQL: losing one in a
        crash only means a message goes out twice, never that one is lost (adding a message stays
        fully durable)."""
        if is_postgres(self.db):
            self.db.execute_sql("SET LOCAL synchronous_commit TO OFF")

    def mark_failed(self, mail_id: str, attempts: int, error: str, retry_at: datetime | None) -> None:
        queue = self.models.MailQueue
        queue.update(
            attempts=attempts,
            last_error=error[:500],
            next_attempt_at=None if retry_at is None else to_db(retry_at),
            claimed_until=None,
        ).where(queue.id == mail_id).execute()

    def release(self, mail_ids: list[str]) -> None:
        queue = self.models.MailQueue
        queue.update(claimed_until=None).where(queue.id.in_(mail_ids) & queue.sent_at.is_null()).execute()

    def retry_failed(self, now: datetime) -> int:
        queue = self.models.MailQueue
        return int(
            queue.update(next_attempt_at=to_db(now), attempts=0)
            .where(queue.sent_at.is_null() & queue.next_attempt_at.is_null() & queue.payload.is_null(False))
            .execute()
        )

    def status(self) -> MailQueueStatus:
        queue = self.models.MailQueue
        waiting = queue.sent_at.is_null() & queue.next_attempt_at.is_null(False)
        given_up = queue.sent_at.is_null() & queue.next_attempt_at.is_null()
        oldest = queue.select(peewee.fn.MIN(queue.created_at)).where(waiting).scalar()
        errors = (
            queue.select(queue.kind, queue.attempts, queue.last_error)
            .where(queue.sent_at.is_null() & queue.last_error.is_null(False))
            .order_by(queue.created_at.desc())
            .limit(5)
            .tuples()
        )
        return MailQueueStatus(
            queued=queue.select().where(waiting).count(),
            sent=queue.select().where(queue.sent_at.is_null(False)).count(),
            failed=queue.select().where(given_up).count(),
            oldest_queued=None if oldest is None else from_db(oldest),
            last_errors=tuple((kind, attempts, error) for kind, attempts, error in errors),
        )
