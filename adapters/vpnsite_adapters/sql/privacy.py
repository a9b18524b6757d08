"""Data requests in SQL: what is held about an address, erasing it, and the erasure journal."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import peewee
from attrs import frozen

from vpnsite.erasure_journal import ErasureRecord
from vpnsite.privacy import (
    Erased,
    Held,
    HeldLicence,
    HeldMail,
    HeldRenewalLink,
    HeldSession,
    HeldTicket,
    HeldTunnelAddress,
)
from vpnsite_adapters.sql.database import from_db, to_db
from vpnsite_adapters.sql.disk import scrub
from vpnsite_adapters.sql.models import Models
from vpnsite_adapters.sql.users import UserTally

# What an erasure rewrites or deletes: cleared from the database's files after it.
ERASED_TABLES = ("licence", "user_end", "ticket", "vpn_session", "wg_peer", "renewal_link", "mail_queue")


def _maybe(value: int | None) -> datetime | None:
    return None if value is None else from_db(value)


@frozen
class SqlPrivacyStore:
    db: peewee.Database
    models: Models
    users: UserTally

    def held(self, key: str, hashes: Sequence[str]) -> Held:
        m = self.models
        licences = list(
            m.Licence.select().where(m.Licence.email_key == key).order_by(m.Licence.starts_at, m.Licence.id)
        )
        ids = [row.id for row in licences]
        tickets = (
            m.Ticket.select().where(m.Ticket.email_key == key).order_by(m.Ticket.created_at, m.Ticket.number)
        )
        sessions = (
            m.VpnSession.select()
            .where(m.VpnSession.licence_id.in_(ids))
            .order_by(m.VpnSession.started_at, m.VpnSession.server_id)
        )
        peers = (
            m.WgPeer.select()
            .where(m.WgPeer.licence_id.in_(ids))
            .order_by(m.WgPeer.licence_id, m.WgPeer.server_id)
        )
        mail = (
            m.MailQueue.select()
            .where(m.MailQueue.about_key.in_(list(hashes)))
            .order_by(m.MailQueue.created_at, m.MailQueue.id)
        )
        links = (
            m.RenewalLink.select()
            .where(m.RenewalLink.licence_id.in_(ids))
            .order_by(m.RenewalLink.created_at, m.RenewalLink.token_hash)
        )
        return Held(
            licences=tuple(
                HeldLicence(
                    row.id,
                    row.email,
                    row.ip,
                    row.language,
                    from_db(row.starts_at),
                    from_db(row.ends_at),
                    _maybe(row.reminded_for_end),
                )
                for row in licences
            ),
            tickets=tuple(
                HeldTicket(
                    row.number,
                    row.email,
                    row.message or "",
                    from_db(row.created_at),
                    _maybe(row.closed_at),
                    row.language,
                    row.code_hash is not None,
                )
                for row in tickets
            ),
            vpn_sessions=tuple(
                HeldSession(row.licence_id, row.server_id, from_db(row.started_at), row.protocol)
                for row in sessions
            ),
            wireguard_peers=tuple(
                HeldTunnelAddress(row.licence_id, row.server_id, row.address, bool(row.held_out))
                for row in peers
            ),
            mail_queue=tuple(
                HeldMail(
                    row.kind,
                    from_db(row.created_at),
                    _maybe(row.sent_at),
                    row.sent_at is None and row.next_attempt_at is not None,
                )
                for row in mail
            ),
            renewal_links=tuple(
                HeldRenewalLink(row.licence_id, from_db(row.created_at), _maybe(row.used_at)) for row in links
            ),
        )

    def erase_address(self, key: str, hashes: Sequence[str], record: ErasureRecord) -> Erased:
        m = self.models
        when = to_db(record.erased_at)
        with self.db.atomic():
            ids = [
                row.id
                for row in m.Licence.select(m.Licence.id).where(
                    (m.Licence.email_key == key) & (m.Licence.starts_at <= when)
                )
            ]
            of_licences = m.VpnSession.licence_id.in_(ids)
            sessions = m.VpnSession.delete().where(of_licences).execute()
            peers = m.WgPeer.delete().where(m.WgPeer.licence_id.in_(ids)).execute()
            links = m.RenewalLink.delete().where(m.RenewalLink.licence_id.in_(ids)).execute()
            ended = (
                m.Licence.update(ends_at=when)
                .where(m.Licence.id.in_(ids) & (m.Licence.ends_at > when))
                .execute()
            )
            erased = (
                m.Licence.update(email=None, email_key=None, ip=None, request_id=None, anonymised_at=when)
                .where(m.Licence.id.in_(ids))
                .execute()
            )
            self.users.address_changed(key)
            written = (m.Ticket.email_key == key) & (m.Ticket.created_at <= when)
            numbers = tuple(
                row.number
                for row in m.Ticket.select(m.Ticket.number).where(written).order_by(m.Ticket.number)
            )
            m.Ticket.update(email=None, email_key=None, message=None, code_hash=None).where(written).execute()
            queue = m.MailQueue
            mail = (
                queue.delete().where(queue.about_key.in_(list(hashes)) & (queue.created_at <= when)).execute()
            )
            m.Erasure.insert(
                address_hash=record.address_hash, key_id=record.key_id, erased_at=when
            ).on_conflict(
                conflict_target=[m.Erasure.address_hash],
                update={m.Erasure.erased_at: when, m.Erasure.key_id: record.key_id},
            ).execute()
        scrub(self.db, ERASED_TABLES)
        return Erased(
            licences_ended=ended,
            licences_erased=erased,
            tickets=numbers,
            sessions_dropped=sessions,
            tunnel_addresses_deleted=peers,
            renewal_links_deleted=links,
            mail_deleted=mail,
            record=record,
        )

    def addresses(self) -> set[str]:
        m = self.models
        found: set[str] = set()
        for column in (m.Licence.email_key, m.Ticket.email_key, m.UserEnd.email_key):
            found.update(
                value
                for (value,) in column.model.select(column).where(column.is_null(False)).distinct().tuples()
            )
        return found

    def erasures(self) -> list[ErasureRecord]:
        journal = self.models.Erasure
        return [
            ErasureRecord(str(row.key_id), row.address_hash, from_db(row.erased_at))
            for row in journal.select().order_by(journal.erased_at, journal.address_hash)
        ]
