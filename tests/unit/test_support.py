"""Support tickets, and what the store never holds in clear."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from vpnsite.emails import mailbox_key
from vpnsite.errors import InvalidField, RateLimited
from vpnsite.support import MAX_MESSAGE
from vpnsite_adapters.sql.store import SqlStore


def test_a_ticket_is_stored_with_a_readable_number(world: World) -> None:
    activation = world.signups.create_user(world.signups.submit_email("a@example.org", None, None), None)
    ticket = world.support.open_ticket(
        "A@EXAMPLE.ORG", activation.code, "  It does not connect.\n", ip="192.0.2.1", language="ru"
    )
    assert re.fullmatch(r"T-[0-9]{8}", ticket.number)
    assert ticket.email == "A@example.org" and ticket.message == "It does not connect."
    assert ticket.code_hash == world.keys.current.codes.hash(activation.code) == activation.licence.code_hash
    assert ticket.created_at == world.clock.now() and ticket.closed_at is None
    assert world.store.tickets.find_ticket(ticket.number) == ticket


def test_a_ticket_without_a_code_is_fine(world: World) -> None:
    for code in (None, "", "   "):
        ticket = world.support.open_ticket("b@example.org", code, "Hello", ip=None)
        assert ticket.code_hash is None
        assert world.store.tickets.find_ticket(ticket.number) == ticket


def test_every_ticket_gets_its_own_number_even_when_the_first_draw_is_taken(world: World) -> None:
    first = world.support.open_ticket("c@example.org", None, "one", ip=None)
    world.random.then(int(d) for d in first.number[2:])
    second = world.support.open_ticket("d@example.org", None, "two", ip=None)
    assert not world.random.script
    assert second.number != first.number
    assert world.store.tickets.find_ticket(first.number).message == "one"  # type: ignore[union-attr]
    assert world.store.tickets.find_ticket(second.number).message == "two"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "email, code, message, field, kind",
    [
        ("e@example.org", None, "", "message", "missing"),
        ("e@example.org", None, " \n\t", "message", "missing"),
        ("e@example.org", None, "x" * (MAX_MESSAGE + 1), "message", "message_too_long"),
        ("e@example.org", "1234", "help", "activation_code", "code_format"),
        ("e@example.org", "00000000000000000001", "help", "activation_code", "code_mistyped"),
        ("not-an-address", None, "help", "email", "email_invalid"),
    ],
)
def test_what_a_ticket_cannot_be(
    world: World, email: str, code: str | None, message: str, field: str, kind: str
) -> None:
    with pytest.raises(InvalidField) as refused:
        world.support.open_ticket(email, code, message, ip=None)
    assert (refused.value.field, refused.value.kind) == (field, kind)


def test_the_longest_message_is_accepted(world: World) -> None:
    assert MAX_MESSAGE == 5000
    ticket = world.support.open_ticket("e@example.org", None, "é" * MAX_MESSAGE, ip=None)
    assert world.store.tickets.find_ticket(ticket.number) == ticket


def test_strangers_cannot_lock_an_address_out_of_support(world: World) -> None:
    """Tickets for one address from many clients are all taken; one client is held to five an hour."""
    for n in range(12):
        world.support.open_ticket("carol@example.org", None, "spam", ip=f"192.0.2.{n}")
    owner = world.support.open_ticket("Carol@Example.org", None, "It is me, really.", ip="203.0.113.9")
    assert world.store.tickets.find_ticket(owner.number) == owner
    for n in range(5):
        world.support.open_ticket(f"g{n}@example.org", None, "hi", ip="198.51.100.1")
    with pytest.raises(RateLimited):
        world.support.open_ticket("h@example.org", None, "hi", ip="198.51.100.1")
    world.clock.advance(hours=1)
    world.support.open_ticket("h@example.org", None, "an hour later", ip="198.51.100.1")


def test_an_address_is_acknowledged_once_an_hour_and_every_ticket_is_forwarded(world: World) -> None:
    tickets = [
        world.support.open_ticket("carol@example.org", None, "spam", ip=f"192.0.2.{n}") for n in range(5)
    ]
    world.clock.advance(minutes=59)
    tickets.append(world.support.open_ticket("CAROL+help@example.org", None, "mine", ip="203.0.113.9"))
    world.clock.advance(minutes=1)
    tickets.append(world.support.open_ticket("carol@example.org", None, "mine again", ip="203.0.113.9"))
    said = world.notifications.said
    assert [ticket for kind, ticket in said if kind == "ticket"] == tickets, "every ticket is forwarded"
    assert [ticket for kind, ticket in said if kind == "acknowledgement"] == [tickets[0], tickets[-1]]


def test_a_refused_ticket_uses_up_no_acknowledgement(world: World) -> None:
    for n in range(5):
        world.support.open_ticket(f"g{n}@example.org", None, "hi", ip="198.51.100.1")
    with pytest.raises(RateLimited):
        world.support.open_ticket("dan@example.org", None, "hi", ip="198.51.100.1")
    ticket = world.support.open_ticket("dan@example.org", None, "hi", ip="198.51.100.2")
    assert world.notifications.said[-2:] == [("ticket", ticket), ("acknowledgement", ticket)]


# Two mailboxes, each spelt several ways, and a third.
ADDRESSES = [
    "ann@example.org",
    "ANN@example.org",
    "ann+x@example.org",
    "ann+y@Example.org",
    "bo@gmail.com",
    "B.o+news@GoogleMail.com",
    "cy@example.org",
]


@store_property
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=2400),  # seconds since the previous ticket
            st.sampled_from(ADDRESSES),
            st.sampled_from(["192.0.2.1", "192.0.2.2", None]),
        ),
        max_size=25,
    )
)
def test_each_mailbox_is_acknowledged_at_most_once_an_hour_and_otherwise_always(
    backend: str, tickets: list[tuple[int, str, str | None]]
) -> None:
    """Every ticket taken is stored and forwarded; it is acknowledged exactly when its mailbox had
    no acknowledgement within the hour before. A refused ticket (per-address limit) counts for
    nothing."""
    with open_world(backend) as world:
        acknowledged: dict[str, list[datetime]] = {}
        for gap, address, ip in tickets:
            world.clock.advance(seconds=gap)
            now = world.clock.now()
            before = len(world.notifications.said)
            try:
                ticket = world.support.open_ticket(address, None, "help", ip=ip)
            except RateLimited:
                assert len(world.notifications.said) == before
                continue
            assert world.store.tickets.find_ticket(ticket.number) == ticket
            mailbox = mailbox_key(address)
            due = all(now - at >= timedelta(hours=1) for at in acknowledged.get(mailbox, []))
            told = world.notifications.said[before:]
            assert told == [("ticket", ticket), *([("acknowledgement", ticket)] if due else [])]
            if due:
                acknowledged.setdefault(mailbox, []).append(now)


def test_no_code_or_personal_link_is_ever_written_in_clear(sqlite_world: World) -> None:
    world = sqlite_world
    secrets = []
    for n in range(5):
        activation = world.signups.create_user(
            world.signups.submit_email(f"s{n}@example.org", None, None), None
        )
        checked = world.checks.check(f"s{n}@example.org", activation.code, ip="192.0.2.1")
        world.support.open_ticket(f"s{n}@example.org", activation.code, "my code is above", ip=None)
        secrets += [activation.code, activation.archive_token, checked.archive_token or ""]
    assert isinstance(world.store, SqlStore)
    world.store.db.execute_sql("PRAGMA wal_checkpoint(FULL)")  # type: ignore[no-untyped-call]
    stored = world.stored_bytes()
    assert b"s0@example.org" in stored, "the scan sees what is written"
    for secret in secrets:
        assert secret
        for encoding in ("utf-8", "utf-16-le", "utf-16-be"):
            assert secret.encode(encoding) not in stored


@store_property
@given(st.text(max_size=300).filter(str.strip))
def test_any_message_is_kept_as_written(backend: str, message: str) -> None:
    with open_world(backend) as world:
        ticket = world.support.open_ticket("anna@example.org", None, message, ip=None)
        assert ticket.message == message.strip()
        assert world.store.tickets.find_ticket(ticket.number) == ticket
        assert world.notifications.said == [("ticket", ticket), ("acknowledgement", ticket)]
