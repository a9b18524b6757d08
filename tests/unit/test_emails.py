"""E-mail addresses: what is accepted, how it is normalised, and how two are compared."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from vpnsite.emails import MAX_ADDRESS, MAX_LOCAL_PART, email_key, normalise_email
from vpnsite.errors import InvalidField

local_parts = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+_", min_size=1, max_size=30
)
labels = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=1, max_size=20
)
domains = st.lists(labels, min_size=1, max_size=3).map(lambda parts: ".".join([*parts, "org"]))
addresses = st.builds(lambda local, domain: f"{local}@{domain}", local_parts, domains)


@given(addresses)
def test_normalising_lowercases_the_domain_only_and_is_idempotent(address: str) -> None:
    normal = normalise_email(address)
    local, domain = normal.split("@")
    assert local == address.split("@")[0]
    assert domain == address.split("@")[1].lower()
    assert normalise_email(normal) == normal
    assert normalise_email(f"  {address}\t") == normal


@given(addresses)
def test_case_variants_are_the_same_person(address: str) -> None:
    assert email_key(normalise_email(address.upper())) == email_key(normalise_email(address.lower()))


@pytest.mark.parametrize(
    "address", ["user@пример.рф", "anna@bücher.de", "jörg@example.org", "a.b+c@sub.example.co.uk"]
)
def test_internationalised_addresses_are_accepted(address: str) -> None:
    assert normalise_email(address)


@pytest.mark.parametrize(
    "address, kind",
    [
        ("", "missing"),
        ("   ", "missing"),
        ("plainaddress", "email_invalid"),
        ("two@@example.org", "email_invalid"),
        ("a@b@example.org", "email_invalid"),
        ("user@localhost", "email_invalid"),
        ("user@example.123", "email_invalid"),
        ("us er@example.org", "email_invalid"),
        ("user@exa mple.org", "email_invalid"),
        ("user\x00@example.org", "email_invalid"),
        ("user@-example.org", "email_invalid"),
        (".user@example.org", "email_invalid"),
        ("us..er@example.org", "email_invalid"),
        ("x" * (MAX_LOCAL_PART + 1) + "@example.org", "email_invalid"),
        ("a@" + "b" * 250 + ".org", "email_too_long"),
    ],
)
def test_what_is_refused_and_why(address: str, kind: str) -> None:
    with pytest.raises(InvalidField) as refused:
        normalise_email(address)
    assert refused.value.kind == kind


@given(addresses, st.sampled_from([" ", "\n", "\t", "\x07", "\u200b"]), st.data())
def test_no_address_with_a_space_or_control_character_gets_through(
    address: str, bad: str, data: st.DataObject
) -> None:
    position = data.draw(st.integers(min_value=1, max_value=len(address) - 1))
    with pytest.raises(InvalidField):
        normalise_email(address[:position] + bad + address[position:])


@given(addresses)
def test_an_accepted_address_is_never_longer_than_254(address: str) -> None:
    assume(len(address) <= MAX_ADDRESS)
    assert len(normalise_email(address)) <= MAX_ADDRESS
