"""Retention and data requests applied by the store, on the fakes and on SQLite alike: what the
policy says goes, goes, and nothing else."""

from __future__ import annotations

from datetime import timedelta

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import TERM_DAYS, World, open_world, store_property
from vpnsite.emails import mailbox_key
from vpnsite.erasure_journal import Journal
from vpnsite.errors import LicenceNotFound
from vpnsite.licences import Licence
from vpnsite.notifications import Ticket
from vpnsite.privacy import (
    Held,
    HeldLicence,
    HeldSession,
    HeldTicket,
    erase_address,
    erased_document,
    export_address,
    held_document,
    reapply_erasures,
)
from vpnsite.rate_limits import DEFAULT_RULES, longest_window
from vpnsite.retention import RetentionReport, anonymises_licence, plan_retention, run_retention

WINDOW = longest_window(DEFAULT_RULES)


def test_an_export_holds_everything_about_the_address_and_nothing_else(world: World) -> None:
    start = world.clock.now()
    redeemed = world.signups.submit_email("Anna@example.org", None, None)
    anna = world.signups.create_user(redeemed, ip="192.0.2.7")
    world.clock.advance(days=1)
    world.signups.submit_email("anna@EXAMPLE.org", None, None)  # an e-mail submitted leaves nothing behind
    ticket = world.support.open_ticket("ANNA@example.org", anna.code, "Hello", ip=None)
    world.sign_up("bob@example.org")
    world.support.open_ticket("bob@example.org", None, "Hi", ip=None)
    world.add_server("nl-amsterdam", "ams-secret")
    assert world.node_access.log_in(world.server("ams-secret"), "anna@example.org", anna.code).session_id
    held = export_address(world.store.privacy, world.keys, "anna@example.org")
    assert held == Held(
        licences=(
            HeldLicence(
                anna.licence.id,
                "Anna@example.org",
                "192.0.2.7",
                "en",
                start,
                start + timedelta(days=TERM_DAYS),
                None,
            ),
        ),
        tickets=(
            HeldTicket(ticket.number, "ANNA@example.org", "Hello", world.clock.now(), None, "en", True),
        ),
        vpn_sessions=(HeldSession(anna.licence.id, "nl-amsterdam", world.clock.now(), None),),
        wireguard_peers=(),
        mail_queue=(),
        renewal_links=(),
    )
    document = held_document(held)
    assert document["licences"][0]["starts_at"] == start.isoformat(timespec="seconds")
    assert anna.code not in repr(document)


def test_an_export_says_when_a_reminder_went_in_which_language_a_ticket_was_and_whether_it_gave_a_code(
    world: World,
) -> None:
    anna = world.sign_up("anna@example.org")
    world.support.open_ticket("anna@example.org", None, "Здравствуйте", ip=None, language="ru")
    world.clock.advance(days=TERM_DAYS - 6)
    assert world.renewals.send_reminders() == 1
    document = held_document(export_address(world.store.privacy, world.keys, "anna@example.org"))
    [licence], [ticket] = document["licences"], document["tickets"]
    assert licence["reminded_for_end"] == anna.licence.ends_at.isoformat(timespec="seconds")
    assert ticket["language"] == "ru" and ticket["code_given"] is False


def test_erasure_ends_the_licence_drops_its_sessions_and_forgets_the_address(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    bob = world.sign_up("bob@example.org")
    ticket = world.support.open_ticket("anna@example.org", anna.code, "Please erase me", ip=None)
    world.signups.submit_email("anna@example.org", None, None)
    world.add_server("nl-amsterdam", "ams-secret")
    assert world.node_access.log_in(world.server("ams-secret"), "anna@example.org", anna.code).session_id
    world.clock.advance(days=1)

    erased = erase_address(
        world.store.privacy, world.keys, world.journal_keys.current(), " ANNA@example.org", world.clock.now()
    )
    assert erased_document(erased) == {
        "licences_ended": 1,
        "licences_erased": 1,
        "tickets": [ticket.number],
        "sessions_dropped": 1,
        "tunnel_addresses_deleted": 0,
        "renewal_links_deleted": 0,
        "mail_deleted": 0,
    }
    assert erased.record.erased_at == world.clock.now()
    assert world.store.privacy.erasures() == [erased.record]
    assert export_address(world.store.privacy, world.keys, "anna@example.org") == Held((), (), (), (), (), ())
    gone = world.store.licences.find_by_id(anna.licence.id)
    assert gone is not None and gone.email == "" and gone.ends_at == world.clock.now()
    erased_ticket = attrs.evolve(ticket, email="", message="", code_hash=None)
    assert world.store.tickets.find_ticket(ticket.number) == erased_ticket
    with pytest.raises(LicenceNotFound):
        world.checks.check("anna@example.org", anna.code, ip=None)
    assert world.store.sessions.sessions_on("nl-amsterdam") == []
    assert world.users() == 1 and world.checks.check("bob@example.org", bob.code, ip=None)
    again = erase_address(
        world.store.privacy, world.keys, world.journal_keys.current(), "anna@example.org", world.clock.now()
    )
    assert erased_document(again) == dict.fromkeys(erased_document(erased), 0) | {"tickets": []}


def test_erasures_are_applied_again_to_a_store_that_does_not_know_them(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    world.sign_up("bob@example.org")
    world.clock.advance(days=1)
    record = erase_address(
        world.store.privacy, world.keys, world.journal_keys.current(), "anna@example.org", world.clock.now()
    ).record
    journal = Journal.of(world.journal_keys.known(), world.store.privacy.erasures())
    assert reapply_erasures(world.store.privacy, world.keys, journal) == []  # nothing of hers is left
    with open_world(world.backend) as restored:  # the same keys, and data as a backup before the erasure
        restored.clock.moment = world.clock.now() - timedelta(days=1)
        again = restored.sign_up("anna@example.org")
        restored.sign_up("bob@example.org")
        [erased] = reapply_erasures(restored.store.privacy, restored.keys, journal)
        assert erased.licences_erased == 1 and erased.record == record
        assert export_address(restored.store.privacy, restored.keys, "anna@example.org").licences == ()
        assert export_address(restored.store.privacy, restored.keys, "bob@example.org").licences != ()
        ended = restored.store.licences.find_by_id(again.licence.id)
        assert ended is not None and ended.ends_at == record.erased_at
    assert anna.licence.id


@store_property
@given(
    st.lists(st.integers(min_value=-3 * 86400, max_value=3 * 86400), min_size=1, max_size=4),
    st.booleans(),
)
def test_a_restore_erases_again_only_what_was_there_when_the_address_was_erased(
    backend: str, offsets: list[int], rotated: bool
) -> None:
    """Licences and tickets of the address made before its erasure go; those of a person who came
    back after it stay, however the journal's key and the master ring changed meanwhile."""
    with open_world(backend) as world:
        world.clock.advance(days=5)
        erased_at = world.clock.now()
        world.sign_up("anna@example.org")
        world.erasures.erase("ANNA@example.org")
        if rotated:
            world.journal_keys.rotate()
        journal = Journal.of(world.journal_keys.known(), world.store.privacy.erasures())
    with open_world(backend) as restored:
        if rotated:
            restored.ring.rotate(seed=9)  # the restored ring shares no key with the journal's hashes
        made: list[tuple[Licence, Ticket, bool]] = []
        for offset in sorted(offsets):
            restored.clock.moment = erased_at + timedelta(seconds=offset)
            licence = restored.sign_up(f"anna+{len(made)}@example.org").licence
            ticket = restored.support.open_ticket("anna@example.org", None, "Hello", ip=None)
            made.append((licence, ticket, licence.starts_at <= erased_at))
        restored.clock.moment = erased_at + timedelta(days=4)
        reapply_erasures(restored.store.privacy, restored.keys, journal)
        for licence, ticket, before in made:
            kept = restored.store.licences.find_by_id(licence.id)
            assert kept is not None and (kept.email == "") == before
            assert (restored.store.tickets.find_ticket(ticket.number).email == "") == before  # type: ignore[union-attr]


def test_retention_removes_what_the_policy_says(world: World) -> None:
    old = world.sign_up("old@example.org", ip="192.0.2.1")
    kept = world.sign_up("kept@example.org", ip="192.0.2.2")
    ticket = world.support.open_ticket("old@example.org", None, "Thanks", ip="192.0.2.1")
    assert world.store.tickets.close_ticket(ticket.number, world.clock.now())
    open_ticket = world.support.open_ticket("kept@example.org", None, "Still waiting", ip=None)
    world.clock.advance(days=TERM_DAYS - 1)
    world.sign_up("kept@example.org")  # a live licence keeps the address's older one
    world.clock.advance(days=32)
    report = run_retention(world.store.retention, world.clock.now(), WINDOW)
    assert report == RetentionReport(
        licences_anonymised=1,
        rate_events_deleted=14,  # a sign-up from an address counts its network too; each mailed a licence
        tickets_deleted=1,
        mail_deleted=0,
        signup_ips_erased=2,
        tunnel_addresses_deleted=0,
        renewal_links_deleted=0,
        erasure_records_deleted=0,
        sessions_ended=0,
    )
    assert world.store.licences.find_by_id(old.licence.id).email == ""  # type: ignore[union-attr]
    assert world.store.licences.find_by_id(kept.licence.id).email == "kept@example.org"  # type: ignore[union-attr]
    # Its sign-up address went with the licence's end, though the address holds a live licence.
    assert [
        held.ip_address
        for held in export_address(world.store.privacy, world.keys, "kept@example.org").licences
    ] == [None, None]
    assert world.store.tickets.find_ticket(ticket.number) is None
    assert world.store.tickets.find_ticket(open_ticket.number) == open_ticket
    assert run_retention(world.store.retention, world.clock.now(), WINDOW) == RetentionReport(
        0, 0, 0, 0, 0, 0, 0, 0, 0
    )


@store_property
@given(
    st.lists(st.tuples(st.sampled_from("abc"), st.integers(min_value=0, max_value=200)), max_size=6),
    st.integers(min_value=0, max_value=300),
)
def test_retention_anonymises_exactly_the_licences_the_policy_names(
    backend: str, signups: list[tuple[str, int]], run_on: int
) -> None:
    with open_world(backend) as world:
        start = world.clock.now()
        licences = []
        for who, day in sorted(signups, key=lambda signup: signup[1]):
            world.clock.moment = start + timedelta(days=day)
            licences.append(world.sign_up(f"{who}@example.org").licence)
        world.clock.moment = max(world.clock.now(), start + timedelta(days=run_on))
        now = world.clock.now()
        users = world.users()
        report = run_retention(world.store.retention, now, WINDOW)
        plan = plan_retention(now, WINDOW)
        live = {mailbox_key(lic.email) for lic in licences if lic.is_live(now)}
        expected = {
            lic.id
            for lic in licences
            if anonymises_licence(plan, lic.ends_at, mailbox_key(lic.email) in live)
        }
        erased = {lic.id for lic in licences if world.store.licences.find_by_id(lic.id).email == ""}  # type: ignore[union-attr]
        assert erased == expected and report.licences_anonymised == len(expected)
        assert world.users() == users, "retention never touches a user"
