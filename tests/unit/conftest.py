"""The use cases wired as `vpnsite_adapters.bootstrap` wires them, with a clock the test moves and
seeded randomness, on either store: the in-memory fakes of the ports (`tests.unit.memory`) or a real
SQLite file. A test that takes `world` runs on both, which is what keeps the fakes honest; one about
the bytes SQLite writes to disk takes `sqlite_world`."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import attrs
import pytest
from attrs import define
from hypothesis import settings

from tests.support.clock import ManualClock
from tests.unit.fakes import HeldJournalKeys, RecordingNotifications, ScriptedRandom
from tests.unit.memory import MemoryStore
from vpnsite.archives import Archives
from vpnsite.devices import Devices
from vpnsite.erasures import Erasures
from vpnsite.fleet import Fleet, Heartbeat, Location
from vpnsite.key_ring import KeyRing
from vpnsite.keyed_hashes import Keyring, RingKeys
from vpnsite.licence_checks import LicenceChecks
from vpnsite.notifications import Activation
from vpnsite.plans import Plan
from vpnsite.rate_limits import DEFAULT_RULES, Limiter
from vpnsite.renewals import Renewals
from vpnsite.server_tokens import ServerAuthentication
from vpnsite.signups import Signups
from vpnsite.support import Support
from vpnsite.vpn_access import NodeAccess
from vpnsite_adapters.bootstrap import wire_use_cases
from vpnsite_adapters.sql.store import SqlStore

BACKENDS = ("memory", "sqlite")
TERM_DAYS = 90
# A property test that opens a world per example: few examples, since each costs a SQLite file.
store_property = settings(max_examples=20, deadline=None)


ORIGINAL_SECRET = b"x" * 32


@define
class RingHolder:
    """The ring the world's use cases read, as an operator's `vpnsite keys` would change it."""

    ring: KeyRing

    def __call__(self) -> RingKeys:
        return self.ring.keys(ORIGINAL_SECRET)

    def rotate(self, seed: int = 1) -> int:
        self.ring = self.ring.rotate(bytes([seed % 256]) * 32, datetime(2026, 1, 1, tzinfo=UTC))
        return self.ring.current

    def retire(self, key_id: int) -> None:
        self.ring = self.ring.retire(key_id)


@define
class World:
    backend: str
    path: Path | None
    store: MemoryStore | SqlStore
    clock: ManualClock
    random: ScriptedRandom
    keys: Keyring
    ring: RingHolder
    limiter: Limiter
    signups: Signups
    checks: LicenceChecks
    archives: Archives
    support: Support
    renewals: Renewals
    fleet: Fleet
    server_authentication: ServerAuthentication
    node_access: NodeAccess
    devices: Devices
    erasures: Erasures
    journal_keys: HeldJournalKeys
    notifications: RecordingNotifications

    def users(self) -> int:
        return self.store.licences.count_users(self.clock.now())

    def with_free_tier(self, cap: int) -> Signups:
        return attrs.evolve(self.signups, plan=attrs.evolve(self.signups.plan, cap=cap))

    def sign_up(self, email: str, ip: str | None = None) -> Activation:
        return self.signups.create_user(self.signups.submit_email(email, ip, None), ip=ip)

    def server(self, token: str) -> str:
        """The server calling with ``token``, as the hub's node listener asks before each call."""
        return self.server_authentication.server(token)

    def add_server(self, server_id: str, token: str, wireguard: bool = False) -> None:
        """A VPN server of the fleet that calls the hub with ``token`` and has just said it is up."""
        location = Location(server_id, server_id.title(), "nl", "Amsterdam")
        assert self.store.fleet.add_server(location, f"{server_id}.example.org", 1194, None)
        assert self.store.fleet.set_token(server_id, self.keys.read().nodes(token).current)
        if wireguard:
            self.store.fleet.set_wireguard(server_id, 51820, "c2VydmVyIGtleQ==")
        self.fleet.heartbeat(server_id, Heartbeat(5.0, 10.0, 0, True))

    def stored_bytes(self) -> bytes:
        """Everything SQLite has written: the database file, its write-ahead log and shared memory."""
        assert self.path is not None, "only a SQLite world writes bytes"
        return b"".join(path.read_bytes() for path in sorted(self.path.parent.glob(self.path.name + "*")))


def build_world(backend: str, path: Path | None) -> World:
    store = MemoryStore() if backend == "memory" else SqlStore.open("sqlite:///" + str(path))
    clock = ManualClock()
    random = ScriptedRandom(seed=7)
    ring = RingHolder(KeyRing())
    keys = Keyring(ring)
    limiter = Limiter(DEFAULT_RULES, keys.subjects, store.rate_limits)
    notifications = RecordingNotifications(store.unit_of_work.after_commit)

    def user_count() -> int:
        return store.licences.count_users(clock.now())

    journal_keys = HeldJournalKeys(random)
    uses = wire_use_cases(
        store,
        keys,
        clock,
        random,
        limiter,
        notifications,
        Plan(1_000_000, TERM_DAYS, user_count),
        journal_keys,
    )
    return World(
        backend=backend,
        path=path,
        store=store,
        clock=clock,
        random=random,
        keys=keys,
        ring=ring,
        limiter=limiter,
        signups=uses.signups,
        checks=uses.licence_checks,
        archives=uses.archives,
        support=uses.support,
        renewals=uses.renewals,
        fleet=uses.fleet,
        server_authentication=uses.server_authentication,
        node_access=uses.node_access,
        devices=uses.devices,
        erasures=uses.erasures,
        journal_keys=journal_keys,
        notifications=notifications,
    )


@contextmanager
def open_world(backend: str, directory: Path | None = None) -> Iterator[World]:
    """A fresh world on ``backend``; a SQLite one in ``directory`` or a temporary one (for a
    property test, which needs a fresh world for every example)."""
    with tempfile.TemporaryDirectory() as scratch:
        path = None if backend == "memory" else Path(directory or scratch) / "t.db"
        built = build_world(backend, path)
        try:
            yield built
        finally:
            built.store.close()


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Session-scoped, so a Hypothesis test may take it and open a world per example."""
    return str(request.param)


@pytest.fixture
def world(backend: str, tmp_path: Path) -> Iterator[World]:
    with open_world(backend, tmp_path) as built:
        yield built


@pytest.fixture
def sqlite_world(tmp_path: Path) -> Iterator[World]:
    with open_world("sqlite", tmp_path) as built:
        yield built
