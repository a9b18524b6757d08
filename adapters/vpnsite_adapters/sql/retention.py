"""Applying the retention policy in SQL."""

from __future__ import annotations

import peewee
from attrs import frozen

from vpnsite.retention import RetentionPlan, RetentionReport
from vpnsite_adapters.sql.database import to_db
from vpnsite_adapters.sql.disk import scrub
from vpnsite_adapters.sql.models import Models
from vpnsite_adapters.sql.users import UserTally


@frozen
class SqlRetentionStore:
    db: peewee.Database
    models: Models
    users: UserTally

    def apply_retention(self, plan: RetentionPlan) -> RetentionReport:
        m = self.models
        now = to_db(plan.now)
        with self.db.atomic():
            # Addresses whose licences have all ended leave the user count's table here at the latest.
            self.users.sweep(plan.now)
            ended_before = to_db(plan.licences_ended_before)
            ips = (
                m.Licence.update(ip=None)
                .where(m.Licence.ip.is_null(False) & (m.Licence.ends_at < ended_before))
                .execute()
            )
            live = m.Licence.select(m.Licence.email_key).where(
                (m.Licence.ends_at > now) & m.Licence.email_key.is_null(False)
            )
            anonymised = (
                m.Licence.update(email=None, email_key=None, ip=None, request_id=None, anonymised_at=now)
                .where(
                    (m.Licence.ends_at < ended_before)
                    & m.Licence.email_key.is_null(False)
                    & m.Licence.email_key.not_in(live)
                )
                .execute()
            )
            gone = m.Licence.select(m.Licence.id).where(
                m.Licence.anonymised_at.is_null(False)
                | (m.Licence.ends_at < to_db(plan.renewals_closed_for_ends_before))
            )
            peers = m.WgPeer.delete().where(m.WgPeer.licence_id.in_(gone)).execute()
            events = m.RateEvent.delete().where(m.RateEvent.at < to_db(plan.rate_events_before)).execute()
            links = (
                m.RenewalLink.delete()
                .where(
                    m.RenewalLink.used_at.is_null(False)
                    | (m.RenewalLink.created_at < to_db(plan.renewal_links_created_before))
                )
                .execute()
            )
            tickets = (
                m.Ticket.delete()
                .where(
                    m.Ticket.closed_at.is_null(False)
                    & (m.Ticket.closed_at < to_db(plan.tickets_closed_before))
                )
                .execute()
            )
            mail = (
                m.MailQueue.delete()
                .where(
                    m.MailQueue.next_attempt_at.is_null()
                    & (m.MailQueue.created_at < to_db(plan.mail_created_before))
                )
                .execute()
            )
            erasures = m.Erasure.delete().where(m.Erasure.erased_at < to_db(plan.erasures_before)).execute()
            heard = m.VpnServer.select(m.VpnServer.id).where(
                m.VpnServer.last_seen >= to_db(plan.servers_silent_before)
            )
            sessions = m.VpnSession.delete().where(m.VpnSession.server_id.not_in(heard)).execute()
        changed = {
            "licence": ips + anonymised,
            "user_end": ips + anonymised,
            "wg_peer": peers,
            "rate_event": events,
            "renewal_link": links,
            "ticket": tickets,
            "mail_queue": mail,
            "erasure": erasures,
            "vpn_session": sessions,
        }
        scrub(self.db, [table for table, count in changed.items() if count])
        return RetentionReport(
            licences_anonymised=anonymised,
            rate_events_deleted=events,
            tickets_deleted=tickets,
            mail_deleted=mail,
            signup_ips_erased=ips,
            tunnel_addresses_deleted=peers,
            renewal_links_deleted=links,
            erasure_records_deleted=erasures,
            sessions_ended=sessions,
        )
