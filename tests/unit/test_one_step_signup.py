"""Signing up without a script: the e-mail submitted and its request redeemed in one step; a
refused redemption gives back the signed request to try again with."""

from __future__ import annotations

import attrs
import pytest

from tests.unit.conftest import World
from vpnsite.errors import FreeTierFull, InvalidField, RequestAlreadyUsed
from vpnsite.signups import NotRedeemed


def test_one_step_signs_up_in_the_visitors_language(world: World) -> None:
    activation = world.signups.sign_up("Anna@Example.org", None, None, "fr")
    assert activation.licence.email == "Anna@example.org" and activation.licence.language == "fr"
    assert world.checks.check("anna@example.org", activation.code, None).licence == activation.licence
    assert world.users() == 1


def test_a_refused_email_is_refused_as_it_is(world: World) -> None:
    with pytest.raises(InvalidField):
        world.signups.sign_up("not an address", None, None)
    with pytest.raises(FreeTierFull):
        world.sign_up("bob@example.org")
        world.with_free_tier(1).sign_up("carol@example.org", None, None)


def test_a_refused_redemption_gives_back_its_request_to_try_again(world: World) -> None:
    signed = world.signups.submit_email("dave@example.org", None, None)
    world.signups.create_user(signed, None)
    with pytest.raises(NotRedeemed) as used:
        world.signups.sign_up(signed, None, None)
    assert isinstance(used.value.refusal, RequestAlreadyUsed) and used.value.signed == signed

    fresh = world.signups.submit_email("erin@example.org", None, None)
    tampered = attrs.evolve(fresh, sig="0" * len(fresh.sig))
    with pytest.raises(NotRedeemed) as refused:
        world.signups.sign_up(tampered, None, None)
    assert refused.value.signed == tampered and refused.value.refusal.code == "invalid_signature"
    assert world.signups.sign_up(fresh, None, None).licence.email == "erin@example.org", "tried again"
