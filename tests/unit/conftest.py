"""The use cases wired as `adapters/bootstrap.py` wires them, on a real SQLite file, with a clock
the test moves and seeded randomness."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from attrs import define

from tests.support.clock import ManualClock
from tests.unit.fakes import RecordingNotifications, ScriptedRandom
from vpnsite.archives import ArchiveLinks, Archives
from vpnsite.keyed_hashes import Keyring
from vpnsite.licence_checks import LicenceChecks
from vpnsite.rate_limits import DEFAULT_RULES, Limiter
from vpnsite.signups import FreeTier, Signups
from vpnsite.support import Support
from vpnsite_adapters.sql.store import SqlStore


@define
class World:
    path: Path
    store: SqlStore
    clock: ManualClock
    random: ScriptedRandom
    keys: Keyring
    limiter: Limiter
    signups: Signups
    checks: LicenceChecks
    archives: Archives
    support: Support
    notifications: RecordingNotifications

    def users(self) -> int:
        return self.store.licences.count_users(self.clock.now())

    def with_free_tier(self, cap: int) -> Signups:
        return attrs.evolve(self.signups, free_tier=FreeTier(cap))

    def stored_bytes(self) -> bytes:
        """Everything SQLite has written: the database file, its write-ahead log and shared memory."""
        return b"".join(path.read_bytes() for path in sorted(self.path.parent.glob(self.path.name + "*")))


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    path = tmp_path / "t.db"
    store = SqlStore.open("sqlite:///" + str(path))
    clock = ManualClock()
    random = ScriptedRandom(seed=7)
    keys = Keyring.from_master(b"x" * 32)
    limiter = Limiter(DEFAULT_RULES, keys.subjects, store.rate_limits)
    notifications = RecordingNotifications()
    built = World(
        path=path,
        store=store,
        clock=clock,
        random=random,
        keys=keys,
        limiter=limiter,
        signups=Signups(
            store=store.signups,
            limiter=limiter,
            keys=keys,
            clock=clock,
            random=random,
            free_tier=FreeTier(1_000_000),
            user_count=lambda: store.licences.count_users(clock.now()),
            term_days=90,
            notifications=notifications,
            unit_of_work=store.unit_of_work,
        ),
        checks=LicenceChecks(store.licences, limiter, keys, clock, random),
        archives=Archives(ArchiveLinks(keys.archive_links), store.licences, limiter, clock),
        support=Support(store.tickets, limiter, keys, clock, random, notifications, store.unit_of_work),
        notifications=notifications,
    )
    yield built
    store.close()
