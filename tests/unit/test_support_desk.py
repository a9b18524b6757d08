"""What the operator does with a ticket: reads it beside the licence its activation code matches,
and closes it once."""

from __future__ import annotations

from tests.unit.conftest import World
from tests.unit.fakes import SeededRandom
from vpnsite.codes import new_activation_code
from vpnsite.support import SupportDesk


def desk(world: World) -> SupportDesk:
    return SupportDesk(world.store.tickets, world.store.licences, world.clock)


def test_a_ticket_is_read_beside_the_licence_its_code_matches(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    with_code = world.support.open_ticket("anna@example.org", anna.code, "It does not connect", None)
    without = world.support.open_ticket("bob@example.org", None, "Hello", None)
    made_up = new_activation_code(SeededRandom(99))
    stranger = world.support.open_ticket("eve@example.org", made_up, "Hi", None)
    found = desk(world).show(with_code.number)
    assert found is not None and found.ticket == with_code and found.code_given
    assert found.licence is not None and found.licence.id == anna.licence.id
    alone = desk(world).show(without.number)
    assert alone is not None and not alone.code_given and alone.licence is None
    unmatched = desk(world).show(stranger.number)
    assert unmatched is not None and unmatched.code_given and unmatched.licence is None
    assert desk(world).show("T-NOPE") is None


def test_a_ticket_closes_once(world: World) -> None:
    ticket = world.support.open_ticket("anna@example.org", None, "Thanks!", None)
    world.clock.advance(hours=2)
    assert desk(world).close(ticket.number)
    closed = desk(world).show(ticket.number)
    assert closed is not None and closed.ticket.closed_at == world.clock.now()
    assert not desk(world).close(ticket.number), "closed already"
    assert not desk(world).close("T-NOPE")
    assert world.store.tickets.count_open() == 0
