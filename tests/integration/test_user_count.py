"""The user count the store keeps as licences change equals a recount of the licences, whatever
happens to them: sign-ups, renewals, erasure, retention, time passing — on both databases, and
under concurrent sign-ups."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from tests.integration.sql import execute_sql
from vpnsite.emails import mailbox_key
from vpnsite.erasure_journal import ErasureRecord
from vpnsite.licences import Licence
from vpnsite.retention import plan_retention
from vpnsite_adapters.sql.database import from_db, to_db
from vpnsite_adapters.sql.migrations import migrate
from vpnsite_adapters.sql.store import SqlStore

START = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
ADDRESSES = [
    "anna@example.org",
    "ANNA@example.org",
    "bob@example.org",
    "carl@example.org",
    "dora@example.org",
    "e.va@gmail.com",
    "Eva+vpn@googlemail.com",
]


def recount(store: SqlStore, now: datetime) -> int:
    """The definition: distinct addresses holding a licence that has not ended."""
    row = execute_sql(
        store.db,
        "SELECT COUNT(DISTINCT email_key) FROM licence WHERE ends_at > "
        f"{store.db.param} AND email_key IS NOT NULL",
        (to_db(now),),
    ).fetchone()
    return int(row[0])


def test_the_kept_count_equals_the_recount_whatever_happens(store: SqlStore) -> None:
    class UserCountMachine(RuleBasedStateMachine):
        @initialize()
        def empty(self) -> None:
            for table in ("licence", "user_end", "user_tally", "rate_event", "ticket"):
                execute_sql(store.db, f"DELETE FROM {table}")
            self.now = START
            self.issued: list[tuple[str, datetime]] = []  # licence id, its end as stored

        @rule(
            address=st.sampled_from(ADDRESSES),
            term=st.timedeltas(min_value=timedelta(hours=-2), max_value=timedelta(days=100)),
        )
        def sign_up(self, address: str, term: timedelta) -> None:
            number = len(self.issued)
            licence = Licence(f"l{number}", address, f"h{number}", self.now, self.now + term)
            with store.unit_of_work.atomic():
                assert store.signups.redeem(f"r{number}", licence, None) == "redeemed"
            self.issued.append((licence.id, licence.ends_at))

        @rule(data=st.data(), by=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=90)))
        def renew(self, data: st.DataObject, by: timedelta) -> None:
            if not self.issued:
                return
            number = data.draw(st.integers(min_value=0, max_value=len(self.issued) - 1))
            licence_id, ends_at = self.issued[number]
            with store.unit_of_work.atomic():
                assert store.renewals.extend(licence_id, ends_at, ends_at + by)
            self.issued[number] = (licence_id, ends_at + by)

        @rule(address=st.sampled_from(ADDRESSES))
        def erase(self, address: str) -> None:
            store.privacy.erase_address(mailbox_key(address), [], ErasureRecord("j1", address, self.now))
            # Erasure ends the address's live licences now.
            ends = dict(execute_sql(store.db, "SELECT id, ends_at FROM licence").fetchall())
            self.issued = [(licence_id, from_db(ends[licence_id])) for licence_id, _ in self.issued]

        @rule(by=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=40)))
        def time_passes(self, by: timedelta) -> None:
            self.now += by

        @rule()
        def sweep(self) -> None:
            store.licences.forget_ended_users(self.now)

        @rule()
        def retention(self) -> None:
            store.retention.apply_retention(plan_retention(self.now, timedelta(days=1)))

        @invariant()
        def count_is_exact(self) -> None:
            if hasattr(self, "now"):
                assert store.licences.count_users(self.now) == recount(store, self.now)

    run_state_machine_as_test(
        UserCountMachine,
        settings=settings(
            max_examples=40,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )


def test_concurrent_sign_ups_keep_the_count_exact(store: SqlStore) -> None:
    now = START
    threads, per_thread = 8, 25
    barrier = threading.Barrier(threads)
    failures: list[BaseException] = []

    def sign_up(thread: int) -> None:
        barrier.wait()
        try:
            for n in range(per_thread):
                # Several threads sign up the same addresses at once, with different ends.
                address = f"user{n % 10}@example.org"
                ends = now + timedelta(days=1 + (thread * per_thread + n) % 50)
                licence = Licence(f"l{thread}-{n}", address, f"h{thread}-{n}", now, ends)
                with store.unit_of_work.atomic():
                    assert store.signups.redeem(f"r{thread}-{n}", licence, None) == "redeemed"
        except BaseException as error:  # reported below, with the thread's own traceback
            failures.append(error)

    workers = [threading.Thread(target=sign_up, args=(thread,)) for thread in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == []
    for later in (now, now + timedelta(days=10), now + timedelta(days=30), now + timedelta(days=60)):
        assert store.licences.count_users(later) == recount(store, later)
    assert recount(store, now) == 10


def test_an_upgrade_counts_every_spelling_of_one_mailbox_once(database_url: str) -> None:
    """Before addresses were kept by their mailbox, two spellings of one Gmail address (or one
    with a tag) were two users; the upgrade keys every licence and ticket by its mailbox and
    counts again."""
    store = SqlStore.open(database_url, run_migrations=False)
    ends = to_db(START + timedelta(days=90))
    try:
        with store.unit_of_work.scope():
            migrate(store.db, up_to=12)
            rows = [
                ("l1", "v.ictim@gmail.com"),
                ("l2", "Victim@googlemail.com"),
                ("l3", "victim+vpn@gmail.com"),
                ("l4", "anna@xn--bcher-kva.de"),
                ("l5", "bob@example.org"),
            ]
            for number, (licence, email) in enumerate(rows):
                execute_sql(
                    store.db,
                    "INSERT INTO licence (id, email, email_key, code_hash, starts_at, ends_at)"
                    f" VALUES ({', '.join([store.db.param] * 6)})",
                    (licence, email, email.casefold(), f"h{number}", to_db(START), ends),
                )
            execute_sql(
                store.db,
                "INSERT INTO ticket (number, email, email_key, message, created_at)"
                f" VALUES ('T-1', 'VIC.TIM@gmail.com', 'vic.tim@gmail.com', 'hi', {to_db(START)})",
            )
            execute_sql(
                store.db, "INSERT INTO user_end (email_key, ends_at) SELECT email_key, ends_at FROM licence"
            )
            execute_sql(store.db, "UPDATE user_tally SET users = 5 WHERE stripe = 0")
            assert store.licences.count_users(START) == 5
            assert migrate(store.db, up_to=13) == [13]
            keys = execute_sql(store.db, "SELECT email_key FROM licence ORDER BY id").fetchall()
            ticket = execute_sql(store.db, "SELECT email_key FROM ticket").fetchone()
            counted = store.licences.count_users(START)
            migrate(store.db)
    finally:
        store.close()
    assert [key for (key,) in keys] == [
        "victim@gmail.com",
        "victim@gmail.com",
        "victim@gmail.com",
        "anna@bücher.de",
        "bob@example.org",
    ]
    assert ticket == ("victim@gmail.com",)
    assert counted == recount_of(keys) == 3


def recount_of(keys: list[tuple[str]]) -> int:
    return len(set(keys))
