"""The unit of work, on the fakes and on SQLite alike: a block's writes through every store are kept
together or not at all, a nested block is part of the outer one, and what waits for the commit
runs only once the outermost block has committed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from vpnsite.fleet import Location
from vpnsite.licences import Licence
from vpnsite.notifications import Ticket


class Boom(Exception):
    pass


def write_everywhere(world: World, n: int) -> None:
    """One write through each of three stores."""
    now = world.clock.now()
    licence = Licence(f"{n:032x}", f"u{n}@example.org", f"hash-{n}", now, now + timedelta(1))
    assert world.store.signups.redeem(f"request-{n}", licence, None) == "redeemed"
    assert world.store.tickets.add_ticket(Ticket(f"T-{n:08}", f"u{n}@example.org", "hello", now))
    assert world.store.fleet.add_server(Location(f"srv-{n}", "Srv", "nl", "Amsterdam"), "h", 1194, None)


def kept(world: World, n: int) -> tuple[bool, bool, bool]:
    return (
        world.store.signups.was_redeemed(f"request-{n}"),
        world.store.tickets.find_ticket(f"T-{n:08}") is not None,
        world.store.fleet.find_server(f"srv-{n}") is not None,
    )


def test_a_block_keeps_every_stores_writes_or_none(world: World) -> None:
    uow = world.store.unit_of_work
    with pytest.raises(Boom), uow.atomic():
        write_everywhere(world, 1)
        assert kept(world, 1) == (True, True, True), "the block reads its own writes"
        raise Boom()
    assert kept(world, 1) == (False, False, False)
    with uow.atomic():
        write_everywhere(world, 2)
    assert kept(world, 2) == (True, True, True)


def test_a_nested_block_is_undone_with_the_outer_one(world: World) -> None:
    uow = world.store.unit_of_work
    with pytest.raises(Boom), uow.atomic():
        with uow.atomic():
            write_everywhere(world, 1)
        raise Boom()
    assert kept(world, 1) == (False, False, False)


def test_a_failed_nested_block_undoes_only_its_own_writes(world: World) -> None:
    uow = world.store.unit_of_work
    with uow.atomic():
        write_everywhere(world, 1)
        with pytest.raises(Boom), uow.atomic():
            write_everywhere(world, 2)
            raise Boom()
        write_everywhere(world, 3)
    assert [kept(world, n) for n in (1, 2, 3)] == [(True,) * 3, (False,) * 3, (True,) * 3]


def test_what_waits_for_the_commit_runs_after_the_outermost_block_and_never_after_a_rollback(
    world: World,
) -> None:
    uow = world.store.unit_of_work
    ran: list[str] = []
    uow.after_commit(lambda: ran.append("outside"))
    assert ran == ["outside"], "outside a unit of work it runs at once"
    with uow.scope(), uow.atomic():
        uow.after_commit(lambda: ran.append("outer"))
        with uow.atomic():
            uow.after_commit(lambda: ran.append("inner"))
        assert ran == ["outside"], "an inner block's commit is not the commit"
    assert ran == ["outside", "outer", "inner"]
    with pytest.raises(Boom), uow.atomic():
        uow.after_commit(lambda: ran.append("rolled back"))
        raise Boom()
    assert ran == ["outside", "outer", "inner"]
    with uow.atomic():
        uow.after_commit(lambda: ran.append("next"))
    assert ran[-1] == "next", "a rollback leaves the next unit of work clean"
    with uow.atomic():
        with pytest.raises(Boom), uow.atomic():
            uow.after_commit(lambda: ran.append("undone savepoint"))
            raise Boom()
        uow.after_commit(lambda: ran.append("kept"))
    assert ran[-1] == "kept" and "undone savepoint" not in ran, "a failed inner block takes back its own"


def test_scopes_nest_and_change_nothing(world: World) -> None:
    uow = world.store.unit_of_work
    with uow.scope(), uow.scope():
        write_everywhere(world, 1)
        with uow.scope():
            assert kept(world, 1) == (True, True, True)
    with uow.scope():
        assert kept(world, 1) == (True, True, True)


blocks = st.recursive(
    st.integers(min_value=0, max_value=5).map(lambda n: ("write", n)),
    lambda inner: st.tuples(st.sampled_from(["commit", "fail"]), st.lists(inner, max_size=3)),
    max_leaves=8,
)


@store_property
@given(st.lists(blocks, max_size=4))
def test_any_nesting_keeps_exactly_the_writes_of_blocks_that_committed(backend: str, plan: list[Any]) -> None:
    """Writes inside a failed block (at any depth) are gone; all others are kept."""
    with open_world(backend) as world:
        uow = world.store.unit_of_work
        expected: set[str] = set()
        counter = iter(range(10_000))

        def run(step: tuple[Any, ...], kept_so_far: set[str]) -> None:
            kind, body = step
            if kind == "write":
                name = f"srv-{next(counter)}"
                world.store.fleet.add_locations([Location(name, "Srv", "nl", "Amsterdam")])
                kept_so_far.add(name)
                return
            mine: set[str] = set()
            try:
                with uow.atomic():
                    for inner in body:
                        run(inner, mine)
                    if kind == "fail":
                        raise Boom()
            except Boom:
                return
            kept_so_far |= mine

        for step in plan:
            run(step, expected)
        assert {server.location.id for server in world.store.fleet.list_servers()} == expected
