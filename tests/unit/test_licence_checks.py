"""Checking a licence: the right pair finds it, anything else looks the same, and guessing is slow."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from vpnsite.codes import luhn_check_digit
from vpnsite.errors import InvalidField, LicenceNotFound, RateLimited
from vpnsite.notifications import Activation


def sign_up(world: World, address: str) -> Activation:
    return world.sign_up(address)


def other_valid_code(code: str, n: int = 1) -> str:
    payload = str((int(code[:19]) + n) % 10**19).zfill(19)
    return payload + luhn_check_digit(payload)


def test_a_wrong_address_and_a_wrong_code_are_indistinguishable(world: World) -> None:
    anna = sign_up(world, "anna@example.org")
    bob = sign_up(world, "bob@example.org")
    attempts = {
        "wrong address": ("zed@example.org", anna.code),
        "wrong code": ("anna@example.org", other_valid_code(anna.code)),
        "someone else's code": ("anna@example.org", bob.code),
        "both wrong": ("zed@example.org", other_valid_code(bob.code, 7)),
    }
    seen = set()
    for address, code in attempts.values():
        with pytest.raises(LicenceNotFound) as refused:
            world.checks.check(address, code, ip=None)
        error = refused.value
        seen.add((type(error), error.code, str(error), tuple(sorted(error.params.items()))))
    assert len(seen) == 1


def test_the_right_pair_is_found_however_it_is_typed(world: World) -> None:
    anna = sign_up(world, "Anna@Example.org")
    code = anna.code
    for address, typed in [
        ("anna@example.org", code),
        ("ANNA@EXAMPLE.ORG", f" {code} "),
        ("Anna@example.org", "-".join(code[i : i + 5] for i in range(0, 20, 5))),
        ("anna@example.org", "\u00a0".join(code[i : i + 4] for i in range(0, 20, 4))),
    ]:
        assert world.checks.check(address, typed, ip=None).licence == anna.licence


@pytest.mark.parametrize(
    "typed, kind",
    [("", "missing"), ("   ", "missing"), ("1234", "code_format"), ("abcdefghijabcdefghij", "code_format")],
)
def test_a_code_that_cannot_be_one_is_a_validation_error(world: World, typed: str, kind: str) -> None:
    with pytest.raises(InvalidField) as refused:
        world.checks.check("anna@example.org", typed, ip="192.0.2.1")
    assert (refused.value.field, refused.value.kind) == ("activation_code", kind)


def test_a_mistyped_code_is_caught_by_its_check_digit_without_counting_as_a_failure(world: World) -> None:
    anna = sign_up(world, "anna@example.org")
    typo = anna.code[:5] + str((int(anna.code[5]) + 1) % 10) + anna.code[6:]
    for _ in range(30):
        with pytest.raises(InvalidField) as refused:
            world.checks.check("anna@example.org", typo, ip=None)
        assert refused.value.kind == "code_mistyped"
    assert world.checks.check("anna@example.org", anna.code, ip=None).licence == anna.licence


def test_the_eleventh_check_in_a_minute_from_one_ip_is_refused(world: World) -> None:
    anna = sign_up(world, "anna@example.org")
    ip = "192.0.2.10"
    for _ in range(10):
        world.clock.advance(seconds=1)
        world.checks.check("anna@example.org", anna.code, ip=ip)
    with pytest.raises(RateLimited) as refused:
        world.checks.check("anna@example.org", anna.code, ip=ip)
    assert 1 <= refused.value.retry_after_seconds <= 60
    world.checks.check("anna@example.org", anna.code, ip="192.0.2.11")
    world.clock.advance(seconds=refused.value.retry_after_seconds)
    world.checks.check("anna@example.org", anna.code, ip=ip)


def test_strangers_failures_leave_the_owners_right_code_working(world: World) -> None:
    anna = sign_up(world, "anna@example.org")
    for n in range(250):
        with pytest.raises((LicenceNotFound, RateLimited)):
            world.checks.check("anna@example.org", other_valid_code(anna.code, n + 1), ip=f"192.0.2.{n}")
    assert world.checks.check("anna@example.org", anna.code, ip="198.51.100.200").licence == anna.licence


def test_twenty_failures_an_hour_block_that_client_even_for_the_right_code(world: World) -> None:
    anna = sign_up(world, "anna@example.org")
    first_failure = world.clock.now()
    for n in range(20):
        with pytest.raises(LicenceNotFound):
            world.checks.check("anna@example.org", other_valid_code(anna.code, n + 1), ip="192.0.2.1")
        world.clock.advance(seconds=30)
    with pytest.raises(RateLimited) as refused:
        world.checks.check("anna@example.org", anna.code, ip="192.0.2.1")
    assert refused.value.retry_after_seconds == 3600 - 20 * 30
    # The same client may still check another e-mail, and refused checks do not extend the block.
    bob = sign_up(world, "bob@example.org")
    world.checks.check("bob@example.org", bob.code, ip="192.0.2.1")
    world.clock.moment = first_failure + timedelta(hours=1) - timedelta(microseconds=1)
    with pytest.raises(RateLimited):
        world.checks.check("ANNA@example.org", anna.code, ip="192.0.2.1")
    # The window slides: once the first failure is an hour old, one more attempt is allowed.
    world.clock.moment = first_failure + timedelta(hours=1)
    assert world.checks.check("anna@example.org", anna.code, ip="192.0.2.1").licence == anna.licence


def test_a_correct_check_is_not_a_failure(world: World) -> None:
    anna = sign_up(world, "anna@example.org")
    for n in range(60):
        world.clock.advance(seconds=7)
        world.checks.check("anna@example.org", anna.code, ip=f"192.0.2.{n}")


def test_an_ended_licence_is_found_but_gets_no_archive_link(world: World) -> None:
    anna = sign_up(world, "anna@example.org")
    world.clock.advance(days=89, hours=23)
    live = world.checks.check("anna@example.org", anna.code, ip=None)
    assert live.archive_token is not None and live.licence.days_remaining(world.clock.now()) == 1
    world.clock.advance(hours=1)
    ended = world.checks.check("anna@example.org", anna.code, ip=None)
    assert ended.licence == anna.licence and ended.archive_token is None
    assert ended.licence.days_remaining(world.clock.now()) == 0


@store_property
@given(st.lists(st.booleans(), min_size=16, max_size=16), st.sampled_from(["anna", "bob", "anne"]))
def test_a_check_finds_the_licence_exactly_for_its_address_in_any_case(
    backend: str, upper: list[bool], local: str
) -> None:
    with open_world(backend) as world:
        anna = sign_up(world, "anna@example.org")
        typed = "".join(c.upper() if up else c for c, up in zip(f"{local}@example.org", upper, strict=False))
        if local == "anna":
            assert world.checks.check(typed, anna.code, ip=None).licence == anna.licence
        else:
            with pytest.raises(LicenceNotFound):
                world.checks.check(typed, anna.code, ip=None)
