"""The hub's background work, wired in one place: the status snapshot every second, the mail
sender, renewal reminders, retention at start and every hour, the fleet probe, and the demo's servers."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from datetime import timedelta

import attrs
from attrs import define, field

from vpnsite.keyed_hashes import Keyring
from vpnsite.ports import Clock, RandomSource, UnitOfWork
from vpnsite.renewals import Renewals
from vpnsite.retention import RetainedFiles, RetentionReport, RetentionStore, run_retention
from vpnsite_adapters.jobs.demo_fleet import DemoFleet, DemoServers
from vpnsite_adapters.jobs.fleet_probe import PROBE_SECONDS, FleetProbe
from vpnsite_adapters.jobs.status_snapshot import REFRESH_SECONDS, StatusSnapshot
from vpnsite_adapters.mail.queue import MailQueue
from vpnsite_adapters.runtime.periodic import Periodic

log = logging.getLogger("vpnsite")

RETENTION_SECONDS = 3600.0
REMINDER_SECONDS = 900.0


@define
class Jobs:
    snapshot: StatusSnapshot
    probe: FleetProbe
    mail: MailQueue
    renewals: Renewals
    retention: RetentionStore
    retained_files: Mapping[str, RetainedFiles]
    longest_rate_window: timedelta
    demo_servers: DemoServers
    server_tokens: Keyring
    clock: Clock
    random: RandomSource
    unit_of_work: UnitOfWork
    demo: DemoFleet | None = None
    running: tuple[Periodic, ...] = field(factory=tuple)

    def run_retention(self) -> RetentionReport:
        with self.unit_of_work.scope():
            return run_retention(
                self.retention, self.clock.now(), self.longest_rate_window, self.retained_files
            )

    def send_renewal_reminders(self) -> int:
        with self.unit_of_work.scope():
            sent = self.renewals.send_reminders()
        if sent:
            log.info("renewal reminders queued: %d", sent)
        return sent

    def start(self) -> None:
        self.snapshot.refresh()
        # Before the site answers, then hourly: a restart, or a restored backup, leaves nothing
        # past its time live until the hour comes round.
        try:
            self._scheduled_retention()
        except Exception:
            log.exception("retention failed at start; trying again in %s s", RETENTION_SECONDS)
        self.running = (
            Periodic("status-snapshot", REFRESH_SECONDS, self.snapshot.refresh),
            self.mail.sender,
            Periodic("retention", RETENTION_SECONDS, self._scheduled_retention),
            Periodic("renewal-reminders", REMINDER_SECONDS, self.send_renewal_reminders),
            Periodic("fleet-probe", PROBE_SECONDS, self.probe.probe),
        )
        for work in self.running:
            work.start()

    def start_demo(self, hub_url: str, interval: float = 10.0) -> DemoFleet:
        """Simulated servers reporting to ``hub_url`` (`vpnsite serve --demo`)."""
        self.demo = DemoFleet(
            self.demo_servers, self.unit_of_work, self.server_tokens, self.random, hub_url, interval
        )
        self.demo.start()
        self.probe.reach_at.update(self.demo.reach_at)
        self.probe.distance.update(self.demo.distance)
        return self.demo

    def signal_stop(self) -> None:
        """Every job ends its round (the mail sender after the message it is sending, giving back
        the rest of its batch) and starts no other."""
        for work in self.running:
            work.signal_stop()

    def stop(self, timeout: float = 15) -> None:
        """Stop every job, waiting at most ``timeout`` seconds for them all together."""
        deadline = time.monotonic() + timeout
        if self.demo is not None:
            self.demo.stop()
        self.signal_stop()
        for work in self.running:
            work.join(deadline - time.monotonic())
        self.mail.give_back()

    def _scheduled_retention(self) -> None:
        report = self.run_retention()
        log.info("retention: %s", ", ".join(f"{k} {v}" for k, v in attrs.asdict(report).items()))
