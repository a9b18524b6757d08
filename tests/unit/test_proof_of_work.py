"""A sign-up under pressure solves a challenge first, each solution is good once, and a page without
a script shares an hour's allowance: the use case on both stores, with the real ALTCHA challenges
(easy ones, so the tests solve them at once)."""

from __future__ import annotations

import base64
import json
from datetime import timedelta

import attrs
import pytest

from tests.support.proof_of_work import payload, solution_number
from tests.unit.conftest import World
from vpnsite.errors import (
    ChallengeExpired,
    ChallengeInvalid,
    ChallengeRequired,
    ChallengeUsed,
    RateLimited,
    SignupsBusy,
)
from vpnsite.keyed_hashes import Keyring
from vpnsite.proof_of_work import CHALLENGE_TTL, Challenge, ChallengeMode, ProofOfWork
from vpnsite.rate_limits import events_kept_for
from vpnsite.signup_pace import COUNTS_FRESH_FOR, HOUR, Pace, PaceGauge
from vpnsite.signups import Signups
from vpnsite_adapters.protection.altcha_challenges import AltchaChallenges

EASY = 500


def challenged(world: World, mode: ChallengeMode = "always", floor: int = 60, factor: float = 3) -> Signups:
    proof = ProofOfWork(
        mode=mode,
        pace=Pace(factor, floor),
        gauge=PaceGauge(world.store.licences, world.store.unit_of_work),
        issuer=AltchaChallenges(world.keys, world.random, EASY),
        store=world.store.rate_limits,
    )
    return attrs.evolve(world.signups, proof_of_work=proof)


def asked(signups: Signups, email: str, solution: str | None = None) -> Challenge:
    with pytest.raises(ChallengeRequired) as refused:
        signups.submit_email(email, None, None, solution=solution)
    return refused.value.challenge


def as_sent(challenge: Challenge) -> dict[str, object]:
    return {**attrs.asdict(challenge), "maxnumber": challenge.max_number}


def solved(challenge: Challenge) -> str:
    return payload(as_sent(challenge))


def test_without_a_solution_a_sign_up_is_asked_to_solve_a_challenge_and_then_signs_up(world: World) -> None:
    signups = challenged(world)
    challenge = asked(signups, "anna@example.org")
    assert challenge.algorithm == "SHA-256" and challenge.max_number == EASY
    signed = signups.submit_email("anna@example.org", None, None, solution=solved(challenge))
    assert signups.create_user(signed, None).licence.email == "anna@example.org"


def test_a_solution_is_good_for_one_sign_up(world: World) -> None:
    signups = challenged(world)
    solution = solved(asked(signups, "anna@example.org"))
    signups.submit_email("anna@example.org", None, None, solution=solution)
    with pytest.raises(ChallengeUsed) as replayed:
        signups.submit_email("bob@example.org", None, None, solution=solution)
    fresh = replayed.value.challenge
    assert fresh.challenge != json.loads(base64.b64decode(solution))["challenge"], "with a fresh one to solve"
    world.clock.advance(seconds=CHALLENGE_TTL.total_seconds() - 1)
    with pytest.raises(ChallengeUsed):
        signups.submit_email("carol@example.org", None, None, solution=solution)


def test_a_forged_or_altered_solution_is_refused_as_wrong(world: World) -> None:
    signups = challenged(world)
    challenge = asked(signups, "anna@example.org")
    right = solution_number(as_sent(challenge))
    wrong = [
        payload(as_sent(challenge), number=(right + 1) % (EASY + 1)),
        payload({**as_sent(challenge), "signature": "0" * 64}),
        payload(
            {**as_sent(challenge), "salt": challenge.salt.replace("expires=", "expires=9")}, number=right
        ),
        "not base64 at all",
        base64.b64encode(b"[1, 2]").decode(),
        base64.b64encode(json.dumps({"number": True}).encode()).decode(),
    ]
    # Another service's challenge, under its own keys, is not ours.
    theirs = AltchaChallenges(Keyring.from_master(b"another service's master key....."), world.random, EASY)
    wrong.append(solved(theirs.issue(world.clock.now() + CHALLENGE_TTL)))
    for solution in wrong:
        with pytest.raises(ChallengeInvalid):
            signups.submit_email("anna@example.org", None, None, solution=solution)
    assert world.users() == 0


def test_an_expired_solution_is_refused_as_expired(world: World) -> None:
    signups = challenged(world)
    solution = solved(asked(signups, "anna@example.org"))
    world.clock.advance(seconds=CHALLENGE_TTL.total_seconds() + 1)
    with pytest.raises(ChallengeExpired):
        signups.submit_email("anna@example.org", None, None, solution=solution)


def test_a_key_rotation_breaks_no_challenge_in_flight(world: World) -> None:
    signups = challenged(world)
    before = asked(signups, "anna@example.org")
    rotated = world.ring.rotate()
    signups.submit_email("anna@example.org", None, None, solution=solved(before))
    after = asked(signups, "bob@example.org")
    signups.submit_email("bob@example.org", None, None, solution=solved(after))
    signed_by_retired = asked(signups, "carol@example.org")
    world.ring.rotate(seed=2)
    world.ring.retire(rotated)
    with pytest.raises(ChallengeInvalid):
        signups.submit_email("carol@example.org", None, None, solution=solved(signed_by_retired))


def test_sign_ups_within_the_pace_are_not_challenged_and_a_burst_past_it_is(world: World) -> None:
    """A new service with a floor of three: three sign-ups an hour go through as they are, the
    fourth (once the counts are read again) is asked for a challenge."""
    signups = challenged(world, mode="auto", floor=3)
    for number in range(3):
        world.clock.advance(seconds=COUNTS_FRESH_FOR.total_seconds())
        signups.create_user(signups.submit_email(f"user{number}@example.org", None, None), None)
    world.clock.advance(seconds=COUNTS_FRESH_FOR.total_seconds())
    challenge = asked(signups, "fourth@example.org")
    signups.submit_email("fourth@example.org", None, None, solution=solved(challenge))
    world.clock.advance(hours=1)
    assert signups.submit_email("later@example.org", None, None), "an hour later the pace is back"


def test_the_usual_pace_of_the_hour_sets_the_bound(world: World) -> None:
    """Two sign-ups in this hour on each of the seven days before: with a factor of 3 the hour
    takes six as they are, and the seventh solves a challenge."""
    today = world.clock.now()
    for days in range(1, 8):
        world.clock.moment = today - timedelta(days=days, minutes=20)
        for number in range(2):
            world.sign_up(f"day{days}-{number}@example.org")
    world.clock.moment = today
    signups = challenged(world, mode="auto", floor=0, factor=3)
    for number in range(6):
        world.clock.advance(seconds=COUNTS_FRESH_FOR.total_seconds())
        signups.create_user(signups.submit_email(f"user{number}@example.org", None, None), None)
    world.clock.advance(seconds=COUNTS_FRESH_FOR.total_seconds())
    asked(signups, "seventh@example.org")


def test_without_pressure_a_solution_sent_anyway_is_not_looked_at(world: World) -> None:
    signups = challenged(world, mode="auto")
    assert signups.submit_email("anna@example.org", None, None, solution="anything")


def test_off_asks_for_nothing(world: World) -> None:
    signups = challenged(world, mode="off")
    for number in range(5):
        signups.sign_up(f"user{number}@example.org", None, None)
        assert signups.submit_email(f"api{number}@example.org", None, None)


def test_a_page_without_a_script_shares_the_hours_allowance_then_is_told_when_to_try_again(
    world: World,
) -> None:
    signups = challenged(world, floor=2)
    first = world.clock.now()
    signups.sign_up("one@example.org", None, None)
    world.clock.advance(minutes=20)
    signups.sign_up("two@example.org", None, None)
    world.clock.advance(minutes=10)
    with pytest.raises(SignupsBusy) as busy:
        signups.sign_up("three@example.org", None, None)
    assert isinstance(busy.value, RateLimited) and busy.value.code == "signups_busy"
    assert busy.value.retry_after_seconds == (first + HOUR - world.clock.now()).total_seconds()
    world.clock.moment = first + HOUR + timedelta(seconds=1)
    assert signups.sign_up("three@example.org", None, None).licence.email == "three@example.org"
    assert world.users() == 3


def test_the_rate_limits_hold_before_the_allowance_is_taken(world: World) -> None:
    """One client's refused sign-ups take nothing from everyone's allowance."""
    signups = challenged(world, floor=10)
    for number in range(5):
        signups.sign_up(f"user{number}@example.org", "198.51.100.7", None)
    for _ in range(3):
        with pytest.raises(RateLimited) as limited:
            signups.sign_up("more@example.org", "198.51.100.7", None)
        assert not isinstance(limited.value, SignupsBusy)
    for number in range(5):
        signups.sign_up(f"other{number}@example.org", "203.0.113.6", None)
    with pytest.raises(SignupsBusy):
        signups.sign_up("eleventh@example.org", "192.0.2.1", None)


def test_what_the_store_remembers_outlives_no_rule_of_the_proof_of_work() -> None:
    """Counted events are swept after the longest window: never before a used challenge could be
    sent again, nor before an hour's allowance is over, even with every limit off."""
    assert events_kept_for(()) >= max(CHALLENGE_TTL, HOUR)
