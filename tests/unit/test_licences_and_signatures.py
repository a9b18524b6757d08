"""Licence terms, signed sign-up requests and the free tier."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from vpnsite.licences import DEFAULT_TERM_DAYS, Licence, days_remaining, licence_term
from vpnsite.plans import Plan
from vpnsite.signup_requests import REQUEST_TTL, FormData, SignupRequest, sign, signature_matches
from vpnsite_adapters.texts.languages import LANGUAGES

DAY = timedelta(days=1)
moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC))
offsets = st.timedeltas(min_value=timedelta(days=-400), max_value=timedelta(days=400))


@given(moments, offsets)
def test_days_remaining_are_whole_days_rounded_up_and_zero_once_ended(now: datetime, left: timedelta) -> None:
    days = days_remaining(now + left, now)
    assert isinstance(days, int) and days >= 0
    if left <= timedelta(0):
        assert days == 0
    else:
        assert (days - 1) * DAY < left <= days * DAY


@given(
    moments, st.integers(min_value=1, max_value=1000), st.timedeltas(min_value=timedelta(0), max_value=DAY)
)
def test_a_started_day_counts_as_a_whole_one(now: datetime, days: int, used: timedelta) -> None:
    assume(used < DAY)
    # With exactly `days` left it shows `days`; any part of the last day still shows as one.
    assert days_remaining(now + days * DAY, now + used) == days
    assert days_remaining(now + days * DAY, now + days * DAY - timedelta(microseconds=1)) == 1
    assert days_remaining(now + days * DAY, now + days * DAY) == 0


@given(moments, offsets, st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=500)))
def test_days_remaining_never_grow_as_time_passes(now: datetime, left: timedelta, later: timedelta) -> None:
    assert days_remaining(now + left, now + later) <= days_remaining(now + left, now)


@given(moments, offsets)
def test_a_licence_is_live_exactly_while_days_remain(now: datetime, left: timedelta) -> None:
    licence = Licence("l", "a@example.org", "h", now - DAY, now + left)
    assert licence.is_live(now) is (licence.days_remaining(now) > 0) is (left > timedelta(0))


@given(moments, st.integers(min_value=1, max_value=3650))
def test_a_term_of_n_days_shows_n_days_at_its_start_and_ends_n_days_later(start: datetime, days: int) -> None:
    starts, ends = licence_term(start, days)
    assert starts == start and ends - starts == days * DAY
    assert days_remaining(ends, start) == days
    assert days_remaining(ends, ends) == 0


def test_the_default_term_is_ninety_days() -> None:
    assert DEFAULT_TERM_DAYS == 90


@given(moments, st.timedeltas(min_value=timedelta(0), max_value=timedelta(hours=2)))
def test_a_sign_up_request_expires_after_thirty_minutes(created: datetime, age: timedelta) -> None:
    request = SignupRequest("0" * 32, created + REQUEST_TTL)
    assert timedelta(minutes=30) == REQUEST_TTL
    assert request.has_expired(created + age) is (age >= REQUEST_TTL)


@given(
    st.text(alphabet="0123456789abcdef", min_size=32, max_size=32),
    moments.map(lambda moment: moment.replace(microsecond=0)),
    st.sampled_from(LANGUAGES),
)
def test_a_request_id_carries_its_expiry_and_language(nonce: str, expires: datetime, language: str) -> None:
    request = SignupRequest(nonce, expires, language)
    assert SignupRequest.parse(request.id) == request


@given(st.text(max_size=60))
def test_an_id_this_version_did_not_issue_is_refused(request_id: str) -> None:
    parsed = SignupRequest.parse(request_id)
    assert parsed is None or parsed.id == request_id
    assert SignupRequest.parse("0123456789abcdef0123456789abcdef") is None, "an id from before the upgrade"


text_fields = ("user_email", "subscription", "user_comment", "request_id")
forms = st.builds(
    FormData,
    user_email=st.emails() | st.text(max_size=30),
    user_days=st.integers(min_value=-(10**6), max_value=10**6),
    subscription=st.sampled_from(["free", "paid"]) | st.text(max_size=20),
    user_comment=st.text(max_size=40),
    request_id=st.text(alphabet="0123456789abcdef", min_size=32, max_size=32) | st.text(max_size=40),
)
keys = st.binary(min_size=32, max_size=32)


@given(forms, keys)
def test_a_genuine_form_matches_its_signature(form: FormData, key: bytes) -> None:
    sig = sign(form, key)
    assert len(sig) == 64 and all(char in "0123456789abcdef" for char in sig)
    assert signature_matches(form, sig, key)
    assert signature_matches(attrs.evolve(form), sig, key), "a copy of the form is the same form"


@given(forms, keys, st.sampled_from([f.name for f in attrs.fields(FormData)]), st.data())
def test_changing_any_field_breaks_the_signature(
    form: FormData, key: bytes, field: str, data: st.DataObject
) -> None:
    value = getattr(form, field)
    changed: int | str
    if field == "user_days":
        changed = data.draw(st.integers(min_value=-(10**9), max_value=10**9).filter(lambda n: n != value))
    else:
        # Small edits (one character added, dropped, changed, a case change) as well as any text.
        changed = data.draw(
            st.one_of(
                st.text(max_size=40),
                st.just(value + " "),
                st.just(value[:-1]),
                st.just(value.swapcase()),
                st.characters().map(lambda c: c + value[1:]),
            ).filter(lambda text: text != value)
        )
    # The field is drawn at run time, so no annotation can tie the value to the field's own type.
    changes: dict[str, Any] = {field: changed}
    assert not signature_matches(attrs.evolve(form, **changes), sign(form, key), key)


@given(forms, keys, st.data())
def test_changing_the_signature_breaks_it(form: FormData, key: bytes, data: st.DataObject) -> None:
    sig = sign(form, key)
    position = data.draw(st.integers(min_value=0, max_value=len(sig) - 1))
    other = data.draw(st.sampled_from("0123456789abcdefABCDEF\u00e9 ").filter(lambda c: c != sig[position]))
    tampered = sig[:position] + other + sig[position + 1 :]
    assert not signature_matches(form, tampered, key)
    assert not signature_matches(form, sig[:-1], key)
    assert not signature_matches(form, sig + "0", key)
    assert not signature_matches(form, "", key)


@given(forms, keys, keys)
def test_another_key_breaks_the_signature(form: FormData, key: bytes, other: bytes) -> None:
    assume(key != other)
    assert not signature_matches(form, sign(form, key), other)


@given(forms, keys, st.text(max_size=80))
def test_a_made_up_signature_never_matches(form: FormData, key: bytes, made_up: str) -> None:
    assume(made_up != sign(form, key))
    assert not signature_matches(form, made_up, key)


@given(forms, forms)
def test_the_canonical_encoding_is_injective(a: FormData, b: FormData) -> None:
    assert (a.canonical() == b.canonical()) is (a == b)


@pytest.mark.parametrize("left, right", list(itertools.permutations(text_fields, 2)))
@given(st.text(max_size=10), st.text(min_size=1, max_size=10), keys)
def test_characters_cannot_move_between_fields_unnoticed(
    left: str, right: str, a: str, b: str, key: bytes
) -> None:
    base = FormData("x@example.org", 90, "free", "", "0" * 32)
    # `b` ends one field or starts the next: the same characters in the same order, split differently.
    # Text fields named at run time (the evolve check types them against every field, int included).
    joined_fields: dict[str, Any] = {left: a + b, right: ""}
    split_fields: dict[str, Any] = {left: a, right: b}
    joined = attrs.evolve(base, **joined_fields)
    split = attrs.evolve(base, **split_fields)
    assert joined.canonical() != split.canonical()
    assert not signature_matches(split, sign(joined, key), key)


@given(st.text(alphabet='",:{}\\0123456789', max_size=12), keys)
def test_field_text_that_looks_like_the_encoding_cannot_forge_another_form(text: str, key: bytes) -> None:
    smuggled = FormData("x@example.org", 90, "free", f'{text}","user_days":900', "0" * 32)
    honest = FormData("x@example.org", 900, "free", text, "0" * 32)
    assert smuggled.canonical() != honest.canonical()
    assert not signature_matches(honest, sign(smuggled, key), key)


@given(st.integers(min_value=0, max_value=10**7), st.integers(min_value=0, max_value=10**7))
def test_the_free_tier_admits_while_users_are_below_the_cap(users: int, cap: int) -> None:
    assert Plan(cap, 90, lambda: 0).admits(users) is (users < cap)


@given(st.integers(min_value=1, max_value=10**7))
def test_the_free_tier_closes_at_the_cap_exactly(cap: int) -> None:
    assert Plan(cap, 90, lambda: 0).admits(cap - 1)
    assert not Plan(cap, 90, lambda: 0).admits(cap)
    assert not Plan(cap, 90, lambda: 0).admits(cap + 1)
