"""Gauges read when Prometheus scrapes: the fleet and users from the status snapshot the hub keeps
in memory, the mail queue from the database, the database pool's connections in use."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Protocol

from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from vpnsite.errors import StoreUnavailable
from vpnsite.mail import MailQueueStatus
from vpnsite.ports import Clock, UnitOfWork
from vpnsite_adapters.jobs.status_snapshot import StatusSnapshot


class MailBacklog(Protocol):
    def status(self) -> MailQueueStatus: ...


def gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


class SnapshotCollector(Collector):
    """What the status page shows, as of the snapshot's last refresh, and how old that is."""

    def __init__(self, snapshot: StatusSnapshot) -> None:
        self.snapshot = snapshot

    def collect(self) -> Iterator[Metric]:
        snapshot = self.snapshot
        yield gauge("vpnsite_users", "Users with a live licence (the free tier's count)", snapshot.users)
        yield gauge("vpnsite_vpn_servers", "VPN servers registered", snapshot.servers)
        yield gauge("vpnsite_vpn_servers_online", "VPN servers online", snapshot.servers_online)
        yield gauge("vpnsite_vpn_sessions", "Sessions the online VPN servers report", snapshot.sessions)
        if snapshot.refreshed_at is not None:
            yield gauge(
                "vpnsite_status_snapshot_age_seconds",
                "Seconds since the status snapshot was last refreshed from the database",
                time.monotonic() - snapshot.refreshed_at,
            )


class DatabaseCollector(Collector):
    """The mail queue, read from the database at scrape time; the pool's connections in use.
    With the database away the scrape still answers, without the queue's gauges (the failure is
    counted by the unit of work, in ``vpnsite_database_errors_total``)."""

    def __init__(
        self,
        mail: MailBacklog,
        unit_of_work: UnitOfWork,
        clock: Clock,
        connections_in_use: Callable[[], int | None],
    ) -> None:
        self.mail = mail
        self.unit_of_work = unit_of_work
        self.clock = clock
        self.connections_in_use = connections_in_use

    def collect(self) -> Iterator[Metric]:
        in_use = self.connections_in_use()
        if in_use is not None:
            yield gauge(
                "vpnsite_database_connections_in_use",
                "PostgreSQL pool connections taken by this process",
                in_use,
            )
        try:
            with self.unit_of_work.scope():
                status = self.mail.status()
        except StoreUnavailable:
            return
        yield gauge("vpnsite_mail_queued", "Messages waiting to be sent", status.queued)
        yield gauge("vpnsite_mail_given_up", "Messages given up after every retry", status.failed)
        oldest = status.oldest_queued
        yield gauge(
            "vpnsite_mail_oldest_queued_age_seconds",
            "Age of the oldest message waiting to be sent (0 when none waits)",
            0.0 if oldest is None else max(0.0, (self.clock.now() - oldest).total_seconds()),
        )
