"""A licence, a ticket or a renewal reminder is kept only with the e-mail about it: the use case
tells the notifications inside the unit of work that writes it, so if the e-mail cannot be queued
nothing is kept, and the e-mail goes out exactly once, after the commit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from vpnsite.emails import mailbox_key
from vpnsite.errors import LicenceNotFound, RequestAlreadyUsed
from vpnsite.notifications import Activation, Reminder, Ticket


def test_no_licence_without_its_e_mail(world: World) -> None:
    signed = world.signups.submit_email("anna@example.org", None, None)
    world.notifications.failing = True
    with pytest.raises(OSError):
        world.signups.create_user(signed, ip=None)
    [(kind, lost)] = world.notifications.asked
    assert kind == "licence" and isinstance(lost, Activation)
    assert world.users() == 0 and world.notifications.said == []
    with pytest.raises(LicenceNotFound):
        world.checks.check("anna@example.org", lost.code, ip=None)
    assert not world.store.signups.was_redeemed(signed.form.request_id), "the request is still unused"

    world.notifications.failing = False
    activation = world.signups.create_user(signed, ip=None)
    assert world.notifications.said == [("licence", activation)]
    assert world.checks.check("anna@example.org", activation.code, ip=None).licence == activation.licence
    with pytest.raises(RequestAlreadyUsed):
        world.signups.create_user(signed, ip=None)
    assert len(world.notifications.said) == 1


def test_no_ticket_without_its_e_mail(world: World) -> None:
    world.notifications.failing = True
    with pytest.raises(OSError):
        world.support.open_ticket("bob@example.org", None, "Is anyone there?", ip=None)
    [(kind, lost)] = world.notifications.asked
    assert kind == "ticket" and isinstance(lost, Ticket)
    assert world.store.tickets.find_ticket(lost.number) is None
    assert world.store.tickets.list_tickets(open_only=False, limit=10) == []

    world.notifications.failing = False
    ticket = world.support.open_ticket("bob@example.org", None, "Is anyone there?", ip=None)
    assert world.notifications.said == [("ticket", ticket), ("acknowledgement", ticket)], (
        "the lost ticket's acknowledgement was not counted: the kept one is acknowledged"
    )
    assert world.store.tickets.list_tickets(open_only=False, limit=10) == [ticket]


def test_no_reminder_marked_sent_without_its_e_mail(world: World) -> None:
    activation = world.sign_up("carol@example.org")
    world.clock.advance(days=84)
    world.notifications.failing = True
    with pytest.raises(OSError):
        world.renewals.send_reminders()
    [_, (kind, lost)] = world.notifications.asked
    assert kind == "renewal" and isinstance(lost, Reminder)
    with pytest.raises(LicenceNotFound):
        world.renewals.renew_with_link(lost.renewal_token)

    world.notifications.failing = False
    assert world.renewals.send_reminders() == 1, "the reminder is still due"
    [(_, issued), (_, reminder)] = world.notifications.said
    assert issued == activation and isinstance(reminder, Reminder) and reminder.licence == activation.licence
    assert world.renewals.send_reminders() == 0
    assert world.renewals.renew_with_link(reminder.renewal_token).ends_at > activation.licence.ends_at


def sign_up(world: World) -> Activation:
    return world.sign_up("dave@example.org")


def open_ticket(world: World) -> Ticket:
    return world.support.open_ticket("erin@example.org", None, "Hello", ip=None)


def remind(world: World) -> object:
    assert world.renewals.send_reminders() == 1
    return world.notifications.asked[-1][1]


USE_CASES: dict[str, tuple[tuple[str, ...], Callable[[World], object]]] = {
    "create_user": (("licence",), sign_up),
    "open_ticket": (("ticket", "acknowledgement"), open_ticket),
    "send_reminders": (("renewal",), remind),
}


def prepared(world: World, use_case: str) -> None:
    if use_case == "send_reminders":
        world.sign_up("fay@example.org")
        world.clock.advance(days=85)
        world.notifications.said.clear()


@pytest.mark.parametrize("use_case", USE_CASES)
def test_the_e_mail_goes_out_once_and_only_after_the_commit(world: World, use_case: str) -> None:
    kinds, run = USE_CASES[use_case]
    prepared(world, use_case)
    with world.store.unit_of_work.atomic():
        subject = run(world)
        assert world.notifications.said == [], "the caller's unit of work has not committed yet"
    assert world.notifications.said == [(kind, subject) for kind in kinds]


@pytest.mark.parametrize("use_case", USE_CASES)
def test_when_the_callers_unit_of_work_fails_nothing_is_kept_or_said(world: World, use_case: str) -> None:
    _, run = USE_CASES[use_case]
    prepared(world, use_case)
    users = world.users()
    with pytest.raises(RuntimeError), world.store.unit_of_work.atomic():
        subject = run(world)
        raise RuntimeError("the request failed after the use case returned")
    assert world.notifications.said == []
    assert world.users() == users
    if isinstance(subject, Activation):
        with pytest.raises(LicenceNotFound):
            world.checks.check(subject.licence.email, subject.code, ip=None)
    elif isinstance(subject, Ticket):
        assert world.store.tickets.find_ticket(subject.number) is None
    else:
        assert world.renewals.send_reminders() == 1, "the reminder was not marked sent"


steps = st.lists(
    st.tuples(st.sampled_from(["sign up", "ticket", "reminders", "ten days"]), st.booleans()), max_size=14
)


@store_property
@given(steps)
def test_what_is_kept_is_exactly_what_was_said_once(backend: str, plan: list[tuple[str, bool]]) -> None:
    """Whatever fails along the way: every licence, ticket and reminder kept was told once, and
    nothing was told that is not kept."""
    with open_world(backend) as world:
        addresses: list[str] = []
        for n, (step, failing) in enumerate(plan):
            world.notifications.failing = failing
            address = f"user{n}@example.org"
            try:
                if step == "sign up":
                    addresses.append(address)
                    world.sign_up(address)
                elif step == "ticket":
                    world.support.open_ticket(address, None, "hi", ip=None)
                elif step == "reminders":
                    world.renewals.send_reminders()
                else:
                    world.clock.advance(days=10)
            except OSError:
                assert failing
            said = world.notifications.said
            licences = [subject.licence.id for kind, subject in said if kind == "licence"]  # type: ignore[attr-defined]
            tickets = [subject.number for kind, subject in said if kind == "ticket"]  # type: ignore[attr-defined]
            reminders = [
                (subject.licence.id, subject.licence.ends_at)  # type: ignore[attr-defined]
                for kind, subject in said
                if kind == "renewal"
            ]
            for told in (licences, tickets, reminders):
                assert len(told) == len(set(told)), "nothing is told twice"
            kept_licences = {
                licence.id
                for a in addresses
                for licence in world.store.licences.find_by_email_key(mailbox_key(a))
            }
            assert kept_licences == set(licences)
            kept_tickets = world.store.tickets.list_tickets(open_only=False, limit=100)
            assert {ticket.number for ticket in kept_tickets} == set(tickets)
            now = world.clock.now()
            marked = {
                (licence.id, licence.ends_at)
                for licence, reminded_for in world.store.renewals.licences_ending(
                    now + timedelta(days=999), now
                )
                if reminded_for == licence.ends_at
            }
            assert marked == {(licence_id, end) for licence_id, end in reminders if end > now}
