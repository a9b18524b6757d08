"""Signing up, end to end through the use cases on a real SQLite store."""

from __future__ import annotations

from datetime import datetime, timedelta

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world, store_property
from vpnsite.codes import is_well_formed
from vpnsite.emails import mailbox_key, normalise_email
from vpnsite.errors import (
    FreeTierFull,
    InvalidField,
    InvalidSignature,
    RateLimited,
    RequestAlreadyUsed,
    RequestExpired,
)
from vpnsite.notifications import Activation
from vpnsite.signup_requests import REQUEST_TTL, FormData, SignedForm, sign


def test_submit_create_check_walks_the_whole_flow(world: World) -> None:
    assert world.users() == 0
    signed = world.signups.submit_email(
        "  Anna@Example.ORG ", ip="198.51.100.1", visitor_id="hz-1", language="fr"
    )
    form = signed.form
    assert form.user_email == "Anna@example.org"
    assert form.user_days == 90 and form.subscription == "free" and form.user_comment == ""
    nonce, expires, language = form.request_id.split("-")
    assert len(nonce) == 32 and int(nonce, 16) >= 0 and language == "fr"
    assert int(expires) == int((world.clock.now() + timedelta(minutes=30)).timestamp())
    assert world.users() == 0, "a pending request is not a user yet"

    world.clock.advance(minutes=5)
    activation = world.signups.create_user(signed, ip="198.51.100.1")
    assert is_well_formed(activation.code)
    licence = activation.licence
    assert licence.email == "Anna@example.org" and licence.language == "fr"
    assert licence.starts_at == world.clock.now()
    assert licence.ends_at - licence.starts_at == timedelta(days=90)
    assert licence.code_hash == world.keys.current.codes.hash(activation.code) != activation.code
    assert len(activation.archive_token) >= 32
    assert world.archives.open(activation.archive_token, ip=None).licence == licence
    assert world.users() == 1

    world.clock.advance(days=10, hours=1)
    grouped = " ".join(activation.code[i : i + 4] for i in range(0, 20, 4))
    checked = world.checks.check("anna@EXAMPLE.org", grouped, ip="198.51.100.2")
    assert checked.licence == licence and checked.code == activation.code
    assert checked.licence.days_remaining(world.clock.now()) == 80
    assert checked.archive_token and checked.archive_token != activation.archive_token
    assert world.archives.open(checked.archive_token, ip=None).licence == licence


def test_a_request_is_redeemed_once(world: World) -> None:
    signed = world.signups.submit_email("bob@example.org", ip=None, visitor_id=None)
    world.signups.create_user(signed, ip=None)
    for _ in range(3):
        with pytest.raises(RequestAlreadyUsed) as refused:
            world.signups.create_user(signed, ip=None)
        assert refused.value.code == "request_already_used"
    assert world.users() == 1


def tamperings(form: FormData, other_request: str) -> dict[str, FormData]:
    return {
        "user_days": attrs.evolve(form, user_days=form.user_days + 1),
        "user_days x10": attrs.evolve(form, user_days=form.user_days * 10),
        "user_email": attrs.evolve(form, user_email="mallory@example.org"),
        "user_email case": attrs.evolve(form, user_email=form.user_email.upper()),
        "subscription": attrs.evolve(form, subscription="premium"),
        "user_comment": attrs.evolve(form, user_comment="please"),
        "request_id": attrs.evolve(form, request_id=other_request),
    }


def test_a_tampered_form_is_refused_and_the_genuine_one_still_works(world: World) -> None:
    signed = world.signups.submit_email("carol@example.org", ip=None, visitor_id=None)
    other = world.signups.submit_email("dave@example.org", ip=None, visitor_id=None)
    for what, tampered in tamperings(signed.form, other.form.request_id).items():
        with pytest.raises(InvalidSignature) as refused:
            world.signups.create_user(SignedForm(tampered, signed.sig), ip=None)
        assert refused.value.code == "invalid_signature", what
    flipped = ("0" if signed.sig[0] != "0" else "1") + signed.sig[1:]
    for sig in (flipped, signed.sig.upper(), "", signed.sig[:-1], sign(signed.form, b"y" * 32)):
        with pytest.raises(InvalidSignature):
            world.signups.create_user(SignedForm(signed.form, sig), ip=None)
    assert world.users() == 0
    activation = world.signups.create_user(signed, ip=None)
    assert activation.licence.ends_at - activation.licence.starts_at == timedelta(days=90)


def test_a_form_signed_for_a_request_the_server_never_made_is_expired(world: World) -> None:
    made_up = FormData("eve@example.org", 90, "free", "", "f" * 32)
    with pytest.raises(RequestExpired):
        world.signups.create_user(SignedForm(made_up, sign(made_up, world.keys.current.signup)), ip=None)


@pytest.mark.parametrize(
    "wait, expired",
    [
        (timedelta(minutes=29, seconds=59), False),
        (timedelta(minutes=30), True),
        (timedelta(minutes=31), True),
    ],
)
def test_a_request_lasts_thirty_minutes(world: World, wait: timedelta, expired: bool) -> None:
    signed = world.signups.submit_email("frank@example.org", ip=None, visitor_id=None)
    world.clock.moment += wait
    if expired:
        with pytest.raises(RequestExpired) as refused:
            world.signups.create_user(signed, ip=None)
        assert refused.value.code == "request_expired"
        assert world.users() == 0
    else:
        world.signups.create_user(signed, ip=None)
        assert world.users() == 1


def test_the_free_tier_refuses_new_requests_at_the_cap_and_reopens_when_licences_end(world: World) -> None:
    signups = world.with_free_tier(2)
    for name in ("gina", "hal"):
        signups.create_user(signups.submit_email(f"{name}@example.org", ip=None, visitor_id=None), ip=None)
    assert world.users() == 2
    for address in ("ivan@example.org", "gina@example.org"):
        with pytest.raises(FreeTierFull) as refused:
            signups.submit_email(address, ip=None, visitor_id=None)
        assert refused.value.code == "free_tier_full" and refused.value.params == {"cap": 2}
    world.clock.advance(days=90)
    assert world.users() == 0
    signups.submit_email("ivan@example.org", ip=None, visitor_id=None)


def test_a_second_licence_for_the_same_address_is_one_user(world: World) -> None:
    signups = world.with_free_tier(2)
    for _ in range(2):
        signups.create_user(signups.submit_email("jo@example.org", ip=None, visitor_id=None), ip=None)
    signups.create_user(signups.submit_email("JO@EXAMPLE.ORG", ip=None, visitor_id=None), ip=None)
    assert world.users() == 1


def test_submitting_is_limited_per_ip_and_per_visitor(world: World) -> None:
    for n in range(5):
        world.signups.submit_email(f"k{n}@example.org", ip="203.0.113.9", visitor_id=f"hz-{n}")
    with pytest.raises(RateLimited) as refused:
        world.signups.submit_email("k5@example.org", ip="203.0.113.9", visitor_id="hz-new")
    assert refused.value.retry_after_seconds == 600
    for n in range(5):
        world.signups.submit_email(f"l{n}@example.org", ip=f"203.0.113.{20 + n}", visitor_id="hz-same")
    with pytest.raises(RateLimited):
        world.signups.submit_email("l5@example.org", ip="203.0.113.99", visitor_id="hz-same")
    world.clock.advance(minutes=10)
    world.signups.submit_email("k5@example.org", ip="203.0.113.9", visitor_id="hz-new")


def test_creating_users_is_limited_per_ip(world: World) -> None:
    forms = [world.signups.submit_email(f"m{n}@example.org", ip=None, visitor_id=None) for n in range(11)]
    for signed in forms[:10]:
        world.signups.create_user(signed, ip="203.0.113.5")
    with pytest.raises(RateLimited):
        world.signups.create_user(forms[10], ip="203.0.113.5")
    world.signups.create_user(forms[10], ip="203.0.113.6")


def test_an_invalid_address_is_refused_before_anything_is_stored(world: World) -> None:
    with pytest.raises(InvalidField) as refused:
        world.signups.submit_email("not an address", ip="203.0.113.1", visitor_id=None)
    assert refused.value.field == "email"
    for n in range(5):  # the refused call used none of the IP's allowance
        world.signups.submit_email(f"n{n}@example.org", ip="203.0.113.1", visitor_id=None)


def test_a_code_that_clashes_with_an_existing_one_is_drawn_again(world: World) -> None:
    first = world.signups.create_user(
        world.signups.submit_email("o@example.org", ip=None, visitor_id=None), ip=None
    )
    signed = world.signups.submit_email("p@example.org", ip=None, visitor_id=None)
    # The next code drawn is the first code: its hash is taken, so another code is drawn in the
    # same call and the request is redeemed once, with the new code.
    world.random.then([int(first.code[:19])])
    second = world.signups.create_user(signed, ip=None)
    assert not world.random.script
    assert second.code != first.code and is_well_formed(second.code)
    assert world.checks.check("o@example.org", first.code, ip=None).licence == first.licence
    assert world.checks.check("p@example.org", second.code, ip=None).licence == second.licence
    with pytest.raises(RequestAlreadyUsed):
        world.signups.create_user(signed, ip=None)


@store_property
@given(
    st.lists(
        st.tuples(st.integers(min_value=0, max_value=2), st.integers(min_value=0, max_value=12)), max_size=10
    )
)
def test_a_request_gives_one_licence_at_most_and_only_within_thirty_minutes(
    backend: str, attempts: list[tuple[int, int]]
) -> None:
    with open_world(backend) as world:
        forms = [world.signups.submit_email(f"user{n}@example.org", None, None) for n in range(3)]
        expires = world.clock.now() + REQUEST_TTL
        redeemed: dict[int, Activation] = {}
        for n, minutes in attempts:
            world.clock.advance(minutes=minutes)
            try:
                activation = world.signups.create_user(forms[n], ip=None)
            except RequestAlreadyUsed:
                assert n in redeemed
            except RequestExpired:
                assert n not in redeemed and world.clock.now() >= expires
            else:
                assert n not in redeemed and world.clock.now() < expires
                redeemed[n] = activation
        assert world.users() == len(redeemed)
        for n, activation in redeemed.items():
            assert (
                world.checks.check(f"USER{n}@example.org", activation.code, ip=None).licence
                == activation.licence
            )


# Three mailboxes, the first spelt five ways.
SPELLINGS = [
    "victim@gmail.com",
    "v.ictim@gmail.com",
    "Victim+vpn@googlemail.com",
    "VIC.TIM@GMAIL.COM",
    "victim@googlemail.com",
    "anna@bücher.de",
    "ANNA@XN--BCHER-KVA.DE",
    "bob@example.org",
]


@store_property
@given(
    backend=st.sampled_from(["memory", "sqlite"]),
    signups=st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=8 * 3600),  # seconds since the previous sign-up
            st.sampled_from(SPELLINGS),
        ),
        max_size=20,
    ),
)
def test_a_mailbox_gets_one_licence_e_mail_a_day_whoever_signs_it_up(
    backend: str, signups: list[tuple[int, str]]
) -> None:
    """Every sign-up gets its licence; the licence is e-mailed exactly when its mailbox had no
    licence e-mail within the day before, however its address was spelt and wherever the sign-up
    came from."""
    with open_world(backend) as world:
        mailed: dict[str, list[datetime]] = {}
        for client, (gap, address) in enumerate(signups):
            world.clock.advance(seconds=gap)
            now = world.clock.now()
            before = len(world.notifications.said)
            ip = f"198.51.{client}.1"  # a stranger each, in networks of their own
            activation = world.signups.create_user(world.signups.submit_email(address, ip, None), ip)
            mailbox = mailbox_key(normalise_email(address))
            due = all(now - at >= timedelta(days=1) for at in mailed.get(mailbox, []))
            assert activation.emailed == due
            assert world.notifications.said[before:] == ([("licence", activation)] if due else [])
            assert world.checks.check(address, activation.code, ip).licence == activation.licence
            if due:
                mailed.setdefault(mailbox, []).append(now)


def test_six_strangers_and_six_spellings_cause_one_licence_e_mail(world: World) -> None:
    """The review's case: six sign-ups for one mailbox from six addresses; each shows its licence,
    one e-mail goes; the next day, one more may."""
    spelt = ["victim@gmail.com", "v.ictim@gmail.com", "Victim+x@googlemail.com", "vic.tim@gmail.com"]
    activations = [
        world.signups.create_user(
            world.signups.submit_email(spelt[n % len(spelt)], f"203.0.113.{n}", None), f"203.0.113.{n}"
        )
        for n in range(6)
    ]
    assert [activation.emailed for activation in activations] == [True, False, False, False, False, False]
    assert [kind for kind, _ in world.notifications.said] == ["licence"]
    world.clock.advance(days=1)
    again = world.signups.create_user(
        world.signups.submit_email("victim@gmail.com", "203.0.113.9", None), None
    )
    assert again.emailed
