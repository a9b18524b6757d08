"""The composition root: real adapters plugged into the domain's ports, for `serve` and for every
command. Only `serve` and `migrate` (and the commands that write) bring the database schema up to
date; a command that only reads never changes the database."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol

import attrs
from attrs import frozen

from vpnsite.archives import ArchiveLinks, Archives, LicenceById, ServerList
from vpnsite.device_cookies import DeviceCookies
from vpnsite.devices import Devices
from vpnsite.erasure_journal import Journal, JournalKeyring
from vpnsite.erasures import ErasureJournal, ErasureLinks, Erasures, OutboxCopies
from vpnsite.fleet import SPEC_LOCATIONS, Fleet, FleetStore, VpnServer
from vpnsite.key_ring import SECRET_BYTES, KeyRing, KeyUsage
from vpnsite.keyed_hashes import Keyring
from vpnsite.licence_checks import CheckedLicenceStore, LicenceChecks
from vpnsite.licences import Licence
from vpnsite.mail import Mailer, MailQueueStatus
from vpnsite.notifications import Notifications, Ticket
from vpnsite.plans import Plan
from vpnsite.ports import Clock, RandomSource, UnitOfWork
from vpnsite.privacy import Erased, Held, PrivacyStore, export_address, reapply_erasures
from vpnsite.proof_of_work import ProofOfWork
from vpnsite.rate_limits import Limiter, events_kept_for
from vpnsite.renewals import Renewals, RenewalStore
from vpnsite.retention import RetainedFiles, RetentionReport, run_retention
from vpnsite.server_registration import ServerRegistration
from vpnsite.server_tokens import ServerAuthentication, TokenHolders, issue_server_token
from vpnsite.signup_pace import Pace, PaceGauge
from vpnsite.signups import Signups, SignupStore
from vpnsite.stats import Glance, first_counted, glance
from vpnsite.support import Support, SupportDesk, TicketStore
from vpnsite.tunnel_addresses import TunnelAddressStore
from vpnsite.vpn_access import NodeAccess, NodeLicences, SessionStore
from vpnsite.vpn_login_limits import CountStore, WrongCodeCeilings
from vpnsite_adapters.jobs.fleet_probe import FleetProbe
from vpnsite_adapters.jobs.schedule import Jobs
from vpnsite_adapters.jobs.status_snapshot import StatusSnapshot
from vpnsite_adapters.mail.notifications import QueuedNotifications
from vpnsite_adapters.mail.outbox import OutboxFolder, OutboxMailer
from vpnsite_adapters.mail.queue import MailQueue
from vpnsite_adapters.mail.smtp import SmtpMailer
from vpnsite_adapters.metrics.collectors import DatabaseCollector, SnapshotCollector
from vpnsite_adapters.metrics.mailer import CountedMailer
from vpnsite_adapters.metrics.registry import Metrics
from vpnsite_adapters.protection.altcha_challenges import AltchaChallenges
from vpnsite_adapters.protection.erasure_journal import JournalFile, JournalKeyFile
from vpnsite_adapters.protection.keyring_file import file_keyring
from vpnsite_adapters.runtime.clock_and_random import SystemClock, SystemRandom
from vpnsite_adapters.services import Services, UseCases
from vpnsite_adapters.settings import Settings
from vpnsite_adapters.sql import backup as sql_backup
from vpnsite_adapters.sql.database import sqlite_path
from vpnsite_adapters.sql.store import SqlStore
from vpnsite_adapters.texts.catalogue import CATALOGUES
from vpnsite_adapters.vpn.keystore import VpnKeys, VpnNotInitialised, load_keys
from vpnsite_adapters.vpn.server_credentials import ServerCredentialFiles

log = logging.getLogger("vpnsite")


@frozen
class Hub:
    """One hub process: the services the website and API use, the store, the mail queue and the
    background jobs."""

    services: Services
    store: SqlStore
    mail: MailQueue
    jobs: Jobs
    metrics: Metrics

    def close(self, timeout: float = 15) -> None:
        """Stops the background jobs (waiting ``timeout`` seconds at most), then the store."""
        self.jobs.stop(timeout)
        self.store.close()


@frozen
class Console:
    """What an operator's command works with: the use cases and the readings the commands ask
    for, built here from the store, which no command touches itself."""

    settings: Settings
    _store: SqlStore
    keys: Keyring
    clock: Clock
    random: RandomSource

    def close(self) -> None:
        self._store.close()

    @property
    def unit_of_work(self) -> UnitOfWork:
        return self._store.unit_of_work

    def schema_version(self) -> int:
        return self._store.schema_version()

    def schema_is_current(self) -> bool:
        return self._store.schema_is_current()

    def migrate(self) -> None:
        self._store.migrate()

    @property
    def journal_keys(self) -> JournalKeyFile:
        return JournalKeyFile(self.settings.data_dir, self.random)

    @property
    def erasures(self) -> Erasures:
        """The erasure the website's erasure link runs too (``bootstrap.erasure_copies``)."""
        outbox, journal = erasure_copies(self.settings)
        return wire_erasures(
            self._store.privacy,
            self._store.licences,
            self.keys,
            self.journal_keys,
            self.clock,
            outbox,
            journal,
        )

    def export(self, email: str) -> Held:
        """Everything held under an address (raises InvalidField for what is no address)."""
        return export_address(self._store.privacy, self.keys, email)

    def erasure_journal(self) -> Journal:
        return Journal.of(self.journal_keys.known(), self._store.privacy.erasures())

    def reapply_erasures(self, journal: Journal) -> list[Erased]:
        return reapply_erasures(self._store.privacy, self.keys, journal)

    def run_retention(self) -> RetentionReport:
        window = events_kept_for(self.settings.rate_limits)
        return run_retention(self._store.retention, self.clock.now(), window, retained_files(self.settings))

    @property
    def support_desk(self) -> SupportDesk:
        return SupportDesk(self._store.tickets, self._store.licences, self.clock)

    def tickets(self, open_only: bool, limit: int) -> list[Ticket]:
        return self._store.tickets.list_tickets(open_only=open_only, limit=limit)

    def licences_of(self, email_key: str) -> list[Licence]:
        """The licences of one mailbox (``emails.mailbox_key``), oldest first."""
        return self._store.licences.find_by_email_key(email_key)

    def key_usage(self) -> dict[int, KeyUsage]:
        """What each key still opens now: codes, renewal links, servers' tokens."""
        return self._store.key_usage.by_key(self.clock.now())

    def mail_status(self) -> MailQueueStatus:
        return self._store.mail_queue.status()

    def retry_failed_mail(self) -> int:
        return self._store.mail_queue.retry_failed(self.clock.now())

    def glance(self) -> tuple[Glance, MailQueueStatus]:
        """``vpnsite stats``: users, sign-ups per day, servers and tickets, and the mail queue."""
        now, store = self.clock.now(), self._store
        seen = glance(
            now,
            store.licences.count_users(now),
            store.licences.started_since(first_counted(now)),
            store.fleet.list_servers(),
            store.tickets.count_open(),
        )
        return seen, self.mail_status()

    def servers(self) -> list[VpnServer]:
        return self._store.fleet.list_servers()

    def server(self, server_id: str) -> VpnServer | None:
        return self._store.fleet.find_server(server_id)

    def issue_server_token(
        self, server_id: str, host: str | None = None, port: int | None = None
    ) -> str | None:
        """A new token for a server (its old one stops working), and its address where given;
        None for an unknown server."""
        with self._store.unit_of_work.atomic():
            token = issue_server_token(self._store.fleet, server_id, self.keys, self.random)
            if token is not None and (host or port):
                self._store.fleet.set_address(server_id, host, port)
        return token

    @property
    def server_authentication(self) -> ServerAuthentication:
        return ServerAuthentication(self._store.fleet, self.keys)

    def server_registration(self) -> ServerRegistration:
        """Raises VpnNotInitialised before `vpnsite vpn init` made the PKI."""
        vpn_keys = load_keys(self.settings.data_dir, self.settings.secret_key)
        credentials = ServerCredentialFiles.in_data_dir(vpn_keys, self.settings.data_dir)
        return ServerRegistration(
            self._store.fleet, credentials, self.keys, self.random, self._store.unit_of_work
        )


def rotate_ring(ring: KeyRing, stage: bool) -> KeyRing:
    """``vpnsite keys rotate``: a new master key from the operating system's CSPRNG, made now."""
    return ring.rotate(SystemRandom().token_bytes(SECRET_BYTES), SystemClock().now(), stage=stage)


def open_store(settings: Settings, migrate: bool) -> SqlStore:
    return SqlStore.open(settings.database_url, max_connections=settings.db_pool_size, run_migrations=migrate)


def open_console(settings: Settings, migrate: bool) -> Console:
    return Console(
        settings,
        open_store(settings, migrate),
        file_keyring(settings.data_dir, settings.secret_key),
        SystemClock(),
        SystemRandom(),
    )


BackupError = sql_backup.BackupError
DatabaseCopy = sql_backup.DatabaseCopy


def copy_database(settings: Settings, into: Path) -> DatabaseCopy:
    """A consistent copy of the database, taken while others write, in the directory ``into``."""
    return sql_backup.copy_database(settings.database_url, into)


def restore_database(settings: Settings, source: Path, copy: DatabaseCopy) -> None:
    sql_backup.restore_database(settings.database_url, source, copy)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL; None for any other database."""
    path = sqlite_path(url)
    return None if path is None else Path(path)


def database_files(settings: Settings) -> set[Path]:
    """The SQLite database's own files (empty for PostgreSQL): a backup copies them through the
    database, never as files."""
    path = sqlite_path(settings.database_url)
    if path is None:
        return set()
    return {Path(f"{Path(path).resolve()}{suffix}") for suffix in ("", "-wal", "-shm", "-journal")}


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


def erasure_copies(settings: Settings) -> tuple[OutboxCopies | None, ErasureJournal | None]:
    """What an erasure reaches besides the store: the outbox's files (where mail goes to the outbox
    rather than by SMTP) and the erasure journal (where VPNSITE_ERASURE_JOURNAL names one)."""
    outbox = OutboxFolder(settings.data_dir / "outbox") if settings.mail_url == "outbox" else None
    journal = None if settings.erasure_journal is None else JournalFile(settings.erasure_journal)
    return outbox, journal


def retained_files(settings: Settings) -> dict[str, RetainedFiles]:
    """The files the service writes outside the database, by the name the inventory gives them
    (``personal_data.Elsewhere.retained_as``), each kept by its kind's rule: the outbox (kept even
    once mail goes by SMTP: what it wrote before is still there) and the erasure journal."""
    files: dict[str, RetainedFiles] = {"outbox_files": OutboxFolder(settings.data_dir / "outbox")}
    if settings.erasure_journal is not None:
        files["erasure_journal_lines"] = JournalFile(settings.erasure_journal)
    return files


def wire_erasures(
    privacy: PrivacyStore,
    licences: LicenceById,
    keys: Keyring,
    journal_keys: JournalKeyring,
    clock: Clock,
    outbox: OutboxCopies | None,
    journal: ErasureJournal | None,
) -> Erasures:
    """One erasure for both doors: `vpnsite privacy erase` and the licence e-mail's erasure link."""
    return Erasures(privacy, licences, ErasureLinks(keys), keys, journal_keys, clock, outbox, journal)


class UseCaseStores(Protocol):
    """The stores the use cases run on: a ``SqlStore``, or the in-memory one of the unit tests."""

    @property
    def signups(self) -> SignupStore: ...

    @property
    def licences(self) -> Licences: ...

    @property
    def tickets(self) -> TicketStore: ...

    @property
    def renewals(self) -> RenewalStore: ...

    @property
    def fleet(self) -> Servers: ...

    @property
    def sessions(self) -> SessionStore: ...

    @property
    def wireguard(self) -> TunnelAddressStore: ...

    @property
    def privacy(self) -> PrivacyStore: ...

    @property
    def rate_limits(self) -> CountStore: ...

    @property
    def unit_of_work(self) -> UnitOfWork: ...


class Licences(NodeLicences, LicenceById, CheckedLicenceStore, Protocol):
    pass


class Servers(FleetStore, ServerList, TokenHolders, Protocol):
    pass


def wire_use_cases(
    stores: UseCaseStores,
    keys: Keyring,
    clock: Clock,
    random: RandomSource,
    limiter: Limiter,
    notifications: Notifications,
    plan: Plan,
    journal_keys: JournalKeyring,
    erasure_outbox: OutboxCopies | None = None,
    erasure_journal: ErasureJournal | None = None,
    proof_of_work: ProofOfWork | None = None,
) -> UseCases:
    """The use cases on their ports: here for the hub, and in the unit tests on in-memory stores
    (where an erasure reaches no outbox and no journal unless given them)."""
    links = ArchiveLinks(keys)
    unit_of_work = stores.unit_of_work
    checks = LicenceChecks(stores.licences, limiter, keys, links, clock, random, DeviceCookies(keys, random))
    fleet = Fleet(stores.fleet, clock)
    return UseCases(
        signups=Signups(
            store=stores.signups,
            limiter=limiter,
            keys=keys,
            links=links,
            clock=clock,
            random=random,
            plan=plan,
            notifications=notifications,
            unit_of_work=unit_of_work,
            proof_of_work=proof_of_work,
        ),
        licence_checks=checks,
        archives=Archives(links, stores.licences, stores.fleet, stores.wireguard, limiter, clock),
        support=Support(stores.tickets, limiter, keys, clock, random, notifications, unit_of_work),
        renewals=Renewals(
            store=stores.renewals,
            checks=checks,
            keys=keys,
            clock=clock,
            random=random,
            plan=plan,
            notifications=notifications,
            unit_of_work=unit_of_work,
        ),
        fleet=fleet,
        server_authentication=ServerAuthentication(stores.fleet, keys),
        node_access=NodeAccess(
            stores.sessions,
            stores.licences,
            stores.wireguard,
            keys,
            clock,
            random,
            unit_of_work,
            fleet,
            # Counted in the rate-limit store, hashed as its subjects are, whatever the rules say.
            WrongCodeCeilings(limiter.hasher, stores.rate_limits, clock),
        ),
        devices=Devices(checks, stores.sessions, stores.wireguard, clock),
        erasures=wire_erasures(
            stores.privacy, stores.licences, keys, journal_keys, clock, erasure_outbox, erasure_journal
        ),
    )


def signup_challenges(
    settings: Settings, store: SqlStore, keys: Keyring, random: RandomSource
) -> ProofOfWork | None:
    """The proof of work sign-ups pay when they come faster than people do; None when the
    operator turned it off. Its pace is counted in the database every hub shares."""
    if settings.signup_challenge == "off":
        return None
    return ProofOfWork(
        mode=settings.signup_challenge,
        pace=Pace(settings.signup_challenge_factor, settings.signup_challenge_floor),
        gauge=PaceGauge(store.licences, store.unit_of_work),
        issuer=AltchaChallenges(keys, random),
        store=store.rate_limits,
    )


def build_hub(
    settings: Settings, clock: Clock | None = None, random: RandomSource | None = None, migrate: bool = True
) -> Hub:
    """``migrate`` False: the node API's process, started once the hub brought the schema up to
    date."""
    CATALOGUES.load_all()
    clock = clock or SystemClock()
    random = random or SystemRandom()
    store = open_store(settings, migrate=migrate)
    unit_of_work = store.unit_of_work
    metrics = Metrics()
    unit_of_work.on_unavailable = metrics.database_errors.inc
    if settings.seed_default_fleet:
        with unit_of_work.atomic():
            if store.fleet.is_empty():
                store.fleet.add_locations(SPEC_LOCATIONS)
    keys = file_keyring(settings.data_dir, settings.secret_key)
    probe = FleetProbe(store.fleet, unit_of_work, settings.billing_health_url)
    snapshot = StatusSnapshot(
        store.licences,
        store.fleet,
        unit_of_work,
        clock,
        billing=lambda: probe.billing,
        demo=settings.demo,
        uptime=store.fleet,
        free_tier_cap=settings.free_tier_cap,
    )
    # Which addresses are our servers' exits is the connection check's answer: in memory, as of the
    # snapshot's last refresh, so telling them apart costs a request no query.
    limiter = Limiter(
        settings.rate_limits,
        keys.subjects,
        store.rate_limits,
        server_of_exit=lambda address: snapshot.exits.server_of(address),
    )
    mail = MailQueue(
        store.mail_queue,
        CountedMailer(make_mailer(settings), metrics.mail_failures),
        keys,
        clock,
        unit_of_work,
    )
    notifications = QueuedNotifications(
        mail,
        settings.support_email,
        settings.origin,
        settings.licence_days,
        settings.operator,
        erasure_links=ErasureLinks(keys),
    )
    uses = wire_use_cases(
        store,
        keys,
        clock,
        random,
        limiter,
        notifications,
        Plan(settings.free_tier_cap, settings.licence_days, lambda: snapshot.users),
        JournalKeyFile(settings.data_dir, random),
        *erasure_copies(settings),
        proof_of_work=signup_challenges(settings, store, keys, random),
    )
    services = Services(
        **attrs.asdict(uses, recurse=False),
        settings=settings,
        clock=clock,
        unit_of_work=unit_of_work,
        ready=store.ping,
        snapshot=snapshot,
        vpn_keys=_vpn_keys(settings),
        metrics=metrics,
    )
    metrics.registry.register(SnapshotCollector(snapshot))
    metrics.registry.register(
        DatabaseCollector(store.mail_queue, unit_of_work, clock, store.connections_in_use)
    )
    jobs = Jobs(
        snapshot=snapshot,
        probe=probe,
        mail=mail,
        renewals=uses.renewals,
        retention=store.retention,
        retained_files=retained_files(settings),
        longest_rate_window=events_kept_for(settings.rate_limits),
        demo_servers=store.fleet,
        server_tokens=keys,
        clock=clock,
        random=random,
        unit_of_work=unit_of_work,
    )
    return Hub(services, store, mail, jobs, metrics)
