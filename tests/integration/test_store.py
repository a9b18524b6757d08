"""The SQL store against the domain's rules, on both databases."""

from __future__ import annotations

import contextlib
import random
from datetime import timedelta
from typing import Any

import attrs
import peewee

from tests.integration.sql import cursor, execute_sql
from vpnsite.emails import mailbox_key
from vpnsite.licences import Licence
from vpnsite.rate_limits import Counter, RateLimit
from vpnsite.retention import anonymises_licence, deletes_rate_event, erases_signup_ip, plan_retention
from vpnsite_adapters.sql.database import from_db, to_db, write_at_commit
from vpnsite_adapters.sql.migrations import LATEST, applied_version, migrate
from vpnsite_adapters.sql.store import SqlStore


def test_migrations_are_applied_once(database_url: str) -> None:
    first = SqlStore.open(database_url)
    assert applied_version(first.db) == LATEST
    assert migrate(first.db) == []
    first.close()
    again = SqlStore.open(database_url)
    assert applied_version(again.db) == LATEST
    again.close()


def test_on_postgresql_only_rate_events_skip_the_write_ahead_log(fresh_postgres_url: str) -> None:
    store = SqlStore.open(fresh_postgres_url)
    try:
        persistence = dict(
            execute_sql(
                store.db,
                "SELECT relname, relpersistence FROM pg_class"
                " WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace",
            ).fetchall()
        )
    finally:
        store.close()
    assert persistence.pop("rate_event") == "u", "a crash may forget rate-limit events"
    assert persistence and set(persistence.values()) == {"p"}, "every other table survives a crash"


def test_a_transaction_sending_its_begin_with_its_first_statement_is_still_whole(
    fresh_postgres_url: str,
) -> None:
    store = SqlStore.open(fresh_postgres_url)
    db = store.db

    def kept() -> list[int]:
        return [n for (n,) in execute_sql(db, "SELECT n FROM probe ORDER BY n").fetchall()]

    try:
        execute_sql(db, "CREATE TABLE probe (n INTEGER)")
        with db.atomic():
            pass  # said nothing, so has nothing to commit
        with contextlib.suppress(LookupError), db.atomic():
            execute_sql(db, "INSERT INTO probe VALUES (1)")
            raise LookupError
        with contextlib.suppress(LookupError), db.atomic():
            cursor(db).execute("INSERT INTO probe VALUES (2)")  # a cursor of one's own
            raise LookupError
        with db.atomic():
            execute_sql(db, "INSERT INTO probe VALUES (3)")
            with contextlib.suppress(LookupError), db.atomic():
                execute_sql(db, "INSERT INTO probe VALUES (4)")
                raise LookupError
        assert kept() == [3], "rolled back whole, the savepoint's part alone, committed whole"
        with contextlib.suppress(peewee.DataError), db.atomic():
            execute_sql(db, "INSERT INTO probe VALUES (5)")
            execute_sql(db, "INSERT INTO probe VALUES (1 / 0)")  # fails: the whole is rolled back
        assert kept() == [3]
    finally:
        store.close()


def test_a_write_sent_with_the_commit_is_part_of_the_transaction_whole(fresh_postgres_url: str) -> None:
    """The mail queue's row of a sign-up travels with its COMMIT: it lands with the transaction,
    goes with its rollback, fails it whole when it fails, and a savepoint can still take it back."""
    store = SqlStore.open(fresh_postgres_url)
    db = store.db
    sent: list[str] = []
    db.query_hooks.append(lambda event: sent.append(event.sql))

    def kept() -> list[int]:
        return [n for (n,) in execute_sql(db, "SELECT n FROM probe ORDER BY n").fetchall()]

    try:
        execute_sql(db, "CREATE TABLE probe (n INTEGER PRIMARY KEY)")
        sent.clear()
        with db.atomic():
            execute_sql(db, "INSERT INTO probe VALUES (1)")
            write_at_commit(db, "INSERT INTO probe VALUES (%s)", (2,))
        assert kept() == [1, 2]
        assert sent[:2] == ["BEGIN; INSERT INTO probe VALUES (1)", "INSERT INTO probe VALUES (%s); COMMIT"]
        with db.atomic():
            write_at_commit(db, "INSERT INTO probe VALUES (%s)", (3,))  # the transaction's only write
            write_at_commit(db, "INSERT INTO probe VALUES (%s)", (4,))
        assert kept() == [1, 2, 3, 4]
        with contextlib.suppress(LookupError), db.atomic():
            write_at_commit(db, "INSERT INTO probe VALUES (%s)", (5,))
            raise LookupError
        with db.atomic():
            execute_sql(db, "INSERT INTO probe VALUES (6)")
            with contextlib.suppress(LookupError), db.atomic():
                write_at_commit(db, "INSERT INTO probe VALUES (%s)", (7,))
                raise LookupError
        assert kept() == [1, 2, 3, 4, 6], "rolled back with its transaction, and with its savepoint"
        with contextlib.suppress(peewee.IntegrityError), db.atomic():
            execute_sql(db, "INSERT INTO probe VALUES (8)")
            write_at_commit(db, "INSERT INTO probe VALUES (%s)", (1,))  # a duplicate: fails the commit
        assert kept() == [1, 2, 3, 4, 6], "a failing write fails its whole transaction"
        assert not db.in_transaction()
        write_at_commit(db, "INSERT INTO probe VALUES (%s)", (9,))  # outside a transaction: at once
        assert kept() == [1, 2, 3, 4, 6, 9]
    finally:
        store.close()


def test_times_survive_the_round_trip_to_the_microsecond(clock: Any) -> None:
    moment = clock.now() + timedelta(microseconds=123457)
    assert from_db(to_db(moment)) == moment


def _licence(rng: random.Random, now: Any, number: int) -> tuple[Licence, str]:
    address = f"user{rng.randrange(12)}@example.org"
    ends = now + timedelta(days=rng.randint(-80, 80), hours=rng.randint(-12, 12))
    licence = Licence(
        id=f"licence-{number}",
        email=address,
        code_hash=f"hash-{number}",
        starts_at=ends - timedelta(days=90),
        ends_at=ends,
    )
    return licence, address


def test_retention_erases_exactly_what_the_policy_says(store: SqlStore, clock: Any) -> None:
    rng = random.Random(20261122)
    now = clock.now()
    licences = []
    for number in range(120):
        licence, address = _licence(rng, now, number)
        assert store.signups.redeem(f"request-{number}", licence, "192.0.2.7") == "redeemed"
        licences.append(licence)
    rule = RateLimit("check-license", "ip", 10, timedelta(hours=1))
    event_times = [now - timedelta(minutes=rng.randint(0, 180)) for _ in range(40)]
    for at in event_times:
        store.rate_limits.record([Counter(rule, "k")], at)

    plan = plan_retention(now, timedelta(hours=1))
    report = store.retention.apply_retention(plan)

    live_keys = {mailbox_key(lic.email) for lic in licences if lic.ends_at > now}
    expected_anonymised = {
        lic.id
        for lic in licences
        if anonymises_licence(plan, lic.ends_at, mailbox_key(lic.email) in live_keys)
    }
    rows = execute_sql(store.db, "SELECT id, email, ip FROM licence").fetchall()
    anonymised = {row[0] for row in rows if row[1] is None}
    assert anonymised == expected_anonymised
    assert report.licences_anonymised == len(expected_anonymised)
    assert all(row[2] is None for row in rows if row[0] in anonymised)
    ends = {lic.id: lic.ends_at for lic in licences}
    # The sign-up IP goes with its own licence's end, even while the address keeps its e-mail.
    kept = [row for row in rows if row[0] not in anonymised]
    assert all(row[1] is not None for row in kept)
    assert all(row[2] == (None if erases_signup_ip(plan, ends[row[0]]) else "192.0.2.7") for row in kept)
    assert any(row[2] is None for row in kept), "the draw includes an address kept beside an erased IP"

    kept_events = execute_sql(store.db, "SELECT COUNT(*) FROM rate_event").fetchone()[0]
    assert kept_events == sum(1 for at in event_times if not deletes_rate_event(plan, at))


def test_users_are_distinct_addresses_with_a_live_licence(store: SqlStore, clock: Any) -> None:
    now = clock.now()
    holders = [
        ("Anna@example.org", 10),
        ("anna@example.org", 20),
        ("bob@example.org", 5),
        ("carl@example.org", -1),
    ]
    for number, (address, days) in enumerate(holders):
        ends = now + timedelta(days=days)
        licence = Licence(f"l{number}", address, f"h{number}", ends - timedelta(days=90), ends)
        store.signups.redeem(f"r{number}", licence, None)
    assert store.licences.count_users(now) == 2


def test_a_code_hash_belongs_to_one_licence(store: SqlStore, clock: Any) -> None:
    now = clock.now()
    first = Licence("l0", "a@example.org", "same-hash", now, now + timedelta(days=90))
    second = Licence("l1", "a@example.org", "same-hash", now, now + timedelta(days=90))
    assert store.signups.redeem("r0", first, None) == "redeemed"
    assert store.signups.redeem("r1", second, None) == "code_taken"
    # The losing request is untouched and can still be redeemed with another code.
    assert not store.signups.was_redeemed("r1")
    assert store.signups.redeem("r1", attrs.evolve(second, code_hash="other-hash"), None) == "redeemed"
    third = attrs.evolve(second, id="l2", code_hash="third")
    assert store.signups.redeem("r1", third, None) == "already_used"


def test_a_held_out_wireguard_peer_leaves_its_servers_list_until_let_in(store: SqlStore, clock: Any) -> None:
    now = clock.now()
    for number, days in enumerate((30, 30, -1)):
        licence = Licence(
            f"l-{number}", f"p{number}@example.org", f"h-{number}", now, now + timedelta(days=days)
        )
        assert store.signups.redeem(f"request-{number}", licence, None) == "redeemed"
        for server in ("s-1", "s-2"):
            assert store.wireguard.claim(licence.id, server, f"10.66.0.{number + 2}")
    wireguard = store.wireguard
    assert sorted(wireguard.live_peers("s-1", now)) == [("l-0", "10.66.0.2"), ("l-1", "10.66.0.3")]
    assert wireguard.hold_out("l-0", ["s-1", "s-9"]) == 1, "only a peer the licence has"
    assert wireguard.hold_out("l-0", ["s-1"]) == 0, "once"
    assert wireguard.hold_out("l-1", []) == 0
    assert sorted(wireguard.live_peers("s-1", now)) == [("l-1", "10.66.0.3")]
    assert sorted(wireguard.live_peers("s-2", now)) == [("l-0", "10.66.0.2"), ("l-1", "10.66.0.3")], (
        "that server only"
    )
    assert wireguard.held_out("l-0") == ["s-1"] and wireguard.held_out("l-1") == []
    assert not wireguard.let_in("l-1", "s-1") and not wireguard.let_in("l-0", "s-2")
    assert wireguard.let_in("l-0", "s-1") and wireguard.held_out("l-0") == []
    assert sorted(wireguard.live_peers("s-1", now)) == [("l-0", "10.66.0.2"), ("l-1", "10.66.0.3")]
