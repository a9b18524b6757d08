"""Licence terms and signed sign-up requests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs
from hypothesis import given
from hypothesis import strategies as st

from vpnsite.licences import days_remaining, licence_term
from vpnsite.signup_requests import FormData, sign, signature_matches
from vpnsite.signups import FreeTier

moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC))
offsets = st.timedeltas(min_value=timedelta(days=-400), max_value=timedelta(days=400))


@given(moments, offsets)
def test_days_remaining_are_whole_days_rounded_up_and_zero_once_ended(now: datetime, left: timedelta) -> None:
    days = days_remaining(now + left, now)
    if left <= timedelta(0):
        assert days == 0
    else:
        assert days - 1 < left / timedelta(days=1) <= days


@given(moments, offsets, st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=30)))
def test_days_remaining_never_grow_as_time_passes(now: datetime, left: timedelta, later: timedelta) -> None:
    assert days_remaining(now + left, now + later) <= days_remaining(now + left, now)


@given(moments, st.integers(min_value=1, max_value=3650))
def test_a_term_of_n_days_shows_n_days_at_its_start(start: datetime, days: int) -> None:
    starts, ends = licence_term(start, days)
    assert starts == start and days_remaining(ends, start) == days


forms = st.builds(
    FormData,
    user_email=st.emails(),
    user_days=st.integers(min_value=1, max_value=10_000),
    subscription=st.text(max_size=20),
    user_comment=st.text(max_size=40),
    request_id=st.text(alphabet="0123456789abcdef", min_size=32, max_size=32),
)
keys = st.binary(min_size=32, max_size=32)


@given(forms, keys)
def test_a_genuine_form_matches_its_signature(form: FormData, key: bytes) -> None:
    assert signature_matches(form, sign(form, key), key)


@given(forms, keys, st.sampled_from([f.name for f in attrs.fields(FormData)]), st.data())
def test_changing_any_field_breaks_the_signature(
    form: FormData, key: bytes, field: str, data: st.DataObject
) -> None:
    value = getattr(form, field)
    other = data.draw(
        st.integers(min_value=1, max_value=10_000) if isinstance(value, int) else st.text(max_size=40)
    )
    if other == value:
        return
    assert not signature_matches(attrs.evolve(form, **{field: other}), sign(form, key), key)


@given(forms, keys, keys)
def test_another_key_breaks_the_signature(form: FormData, key: bytes, other: bytes) -> None:
    if key != other:
        assert not signature_matches(form, sign(form, key), other)


@given(forms, keys, st.text(max_size=80))
def test_a_made_up_signature_never_matches(form: FormData, key: bytes, made_up: str) -> None:
    if made_up != sign(form, key):
        assert not signature_matches(form, made_up, key)


@given(st.text(max_size=10), st.text(max_size=10), keys)
def test_characters_cannot_move_between_fields_unnoticed(a: str, b: str, key: bytes) -> None:
    left = FormData("x@example.org", 90, a + b, "", "0" * 32)
    right = FormData("x@example.org", 90, a, b, "0" * 32)
    if b:
        assert sign(left, key) != sign(right, key)


@given(st.integers(min_value=0, max_value=10**7), st.integers(min_value=0, max_value=10**7))
def test_the_free_tier_admits_while_users_are_below_the_cap(users: int, cap: int) -> None:
    assert FreeTier(cap).admits(users) is (users < cap)
