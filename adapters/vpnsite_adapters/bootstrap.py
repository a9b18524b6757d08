"""The composition root: real adapters plugged into the domain's ports."""

from __future__ import annotations

import logging

import attrs
from attrs import frozen

from vpnsite.archives import ArchiveLinks, Archives
from vpnsite.fleet import SPEC_LOCATIONS, Fleet
from vpnsite.keyed_hashes import Keyring, derive_key
from vpnsite.licence_checks import LicenceChecks
from vpnsite.mail import Mailer
from vpnsite.ports import Clock, RandomSource
from vpnsite.rate_limits import Limiter, longest_window
from vpnsite.renewals import Renewals
from vpnsite.retention import RetentionReport, run_retention
from vpnsite.signups import FreeTier, Signups
from vpnsite.support import Support
from vpnsite.vpn_access import NodeAccess
from vpnsite_adapters.clock_and_random import SystemClock, SystemRandom
from vpnsite_adapters.jobs.fleet_probe import PROBE_SECONDS, FleetProbe
from vpnsite_adapters.jobs.periodic import Periodic
from vpnsite_adapters.jobs.status_snapshot import REFRESH_SECONDS, StatusSnapshot
from vpnsite_adapters.mail.notifications import QueuedNotifications
from vpnsite_adapters.mail.outbox import OutboxMailer
from vpnsite_adapters.mail.queue import MailQueue
from vpnsite_adapters.mail.smtp import SmtpMailer
from vpnsite_adapters.settings import Settings
from vpnsite_adapters.sql.store import SqlStore
from vpnsite_adapters.vpn.keystore import VpnKeys, VpnNotInitialised, load_keys

log = logging.getLogger("vpnsite")

RETENTION_SECONDS = 3600.0
REMINDER_SECONDS = 900.0


@frozen
class Services:
    settings: Settings
    store: SqlStore
    clock: Clock
    snapshot: StatusSnapshot
    signups: Signups
    licence_checks: LicenceChecks
    archives: Archives
    support: Support
    renewals: Renewals
    fleet: Fleet
    probe: FleetProbe
    node_access: NodeAccess
    keys: Keyring
    limiter: Limiter
    vpn_keys: VpnKeys | None
    mail: MailQueue
    background: tuple[Periodic, ...] = ()

    def run_retention(self) -> RetentionReport:
        try:
            return run_retention(
                self.store.retention, self.clock.now(), longest_window(self.settings.rate_limits)
            )
        finally:
            self.store.release()

    def start_background_work(self) -> None:
        """The status snapshot every second, the mail queue, retention every hour."""
        self.snapshot.refresh()
        for work in self.background:
            work.start()

    def close(self) -> None:
        for work in self.background:
            work.stop()
        self.store.close()

    def send_renewal_reminders(self) -> int:
        try:
            sent = self.renewals.send_reminders()
        finally:
            self.store.release()
        if sent:
            log.info("renewal reminders queued: %d", sent)
        return sent

    def scheduled_retention(self) -> None:
        report = self.run_retention()
        log.info("retention: %s", ", ".join(f"{k} {v}" for k, v in attrs.asdict(report).items()))


def _vpn_keys(settings: Settings) -> VpnKeys | None:
    try:
        return load_keys(settings.data_dir, settings.secret_key)
    except VpnNotInitialised:
        log.warning("the VPN keys are not set up (`vpnsite vpn init`): personal archives are unavailable")
        return None


def make_mailer(settings: Settings) -> Mailer:
    if settings.mail_url == "outbox":
        return OutboxMailer(settings.data_dir / "outbox", settings.mail_from)
    return SmtpMailer(settings.mail_url, settings.mail_from, settings.mail_timeout)


def build_services(
    settings: Settings, clock: Clock | None = None, random: RandomSource | None = None
) -> Services:
    clock = clock or SystemClock()
    random = random or SystemRandom()
    store = SqlStore.open(settings.database_url, max_connections=settings.db_pool_size)
    if settings.seed_default_fleet and store.fleet.is_empty():
        store.fleet.add_locations(SPEC_LOCATIONS)
        store.release()
    keys = Keyring.from_master(settings.secret_key)
    limiter = Limiter(settings.rate_limits, keys.subjects, store.rate_limits)
    probe = FleetProbe(store, settings.billing_health_url)
    snapshot = StatusSnapshot(store, clock, billing=lambda: probe.billing, demo=settings.demo)
    mail = MailQueue(
        store.mail_queue,
        make_mailer(settings),
        derive_key(settings.secret_key, "mail-queue"),
        clock,
        after_commit=store.unit_of_work.after_commit,
    )
    notifications = QueuedNotifications(mail, settings.support_email, settings.origin, settings.licence_days)
    free_tier = FreeTier(settings.free_tier_cap)
    licence_checks = LicenceChecks(store.licences, limiter, keys, clock, random)
    services = Services(
        settings=settings,
        store=store,
        clock=clock,
        snapshot=snapshot,
        signups=Signups(
            store=store.signups,
            limiter=limiter,
            keys=keys,
            clock=clock,
            random=random,
            free_tier=free_tier,
            user_count=lambda: snapshot.users,
            term_days=settings.licence_days,
            notifications=notifications,
            unit_of_work=store.unit_of_work,
        ),
        licence_checks=licence_checks,
        archives=Archives(ArchiveLinks(keys.archive_links), store.licences, limiter, clock),
        support=Support(store.tickets, limiter, keys, clock, random, notifications, store.unit_of_work),
        renewals=Renewals(
            store=store.renewals,
            checks=licence_checks,
            keys=keys,
            clock=clock,
            random=random,
            free_tier=free_tier,
            user_count=lambda: snapshot.users,
            term_days=settings.licence_days,
            notifications=notifications,
            unit_of_work=store.unit_of_work,
        ),
        fleet=Fleet(store.fleet, keys.nodes, clock),
        probe=probe,
        node_access=NodeAccess(store.sessions, store.licences, keys, clock, random),
        keys=keys,
        limiter=limiter,
        vpn_keys=_vpn_keys(settings),
        mail=mail,
    )
    background = (
        Periodic("status-snapshot", REFRESH_SECONDS, snapshot.refresh),
        mail.sender,
        Periodic("retention", RETENTION_SECONDS, services.scheduled_retention),
        Periodic("renewal-reminders", REMINDER_SECONDS, services.send_renewal_reminders),
        Periodic("fleet-probe", PROBE_SECONDS, probe.probe),
    )
    return attrs.evolve(services, background=background)
