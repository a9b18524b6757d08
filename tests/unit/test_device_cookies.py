"""Device cookies: a browser that has opened a licence carries a token for its mailbox, which no
other mailbox's address matches, which no one can forge or alter, and which a key rotation keeps."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.unit.fakes import SeededRandom
from vpnsite.device_cookies import MAILBOXES_KEPT, DeviceCookies
from vpnsite.keyed_hashes import Keyring, RingKeys

FIRST = {1: b"a" * 32}
ROTATED = {1: b"a" * 32, 2: b"b" * 32}
mailboxes = st.from_regex(r"[a-z]{1,8}@example\.org", fullmatch=True)


def cookies(masters: dict[int, bytes] = FIRST, current: int = 1, seed: int = 0) -> DeviceCookies:
    return DeviceCookies(Keyring.of(RingKeys.of(masters, current)), SeededRandom(seed))


@given(mailboxes, mailboxes)
def test_a_token_vouches_for_its_mailbox_alone_however_spelt(one: str, other: str) -> None:
    cookie = cookies().opened(None, one)
    local, domain = one.split("@")
    assert cookies().recognised(cookie, f"{local.upper()}+tag@{domain.upper()}") is not None
    assert (cookies().recognised(cookie, other) is not None) == (one == other)


@given(mailboxes, st.data())
def test_no_change_to_a_cookie_keeps_it_genuine(mailbox: str, data: st.DataObject) -> None:
    cookie = cookies().opened(None, mailbox)
    position = data.draw(st.integers(min_value=0, max_value=len(cookie) - 1))
    changed = data.draw(st.sampled_from("0123456789abcdef.~").filter(lambda char: char != cookie[position]))
    assert cookies().recognised(cookie[:position] + changed + cookie[position + 1 :], mailbox) is None


@given(st.text(max_size=600), mailboxes)
def test_anything_else_a_browser_sends_is_no_token(cookie: str, mailbox: str) -> None:
    assert cookies().recognised(cookie, mailbox) is None


def test_another_secret_cannot_make_a_token() -> None:
    stranger = cookies({1: b"z" * 32}).opened(None, "anna@example.org")
    assert cookies().recognised(stranger, "anna@example.org") is None


def test_a_key_rotation_keeps_a_browser_recognised_until_its_key_leaves_the_ring() -> None:
    before = cookies().opened(None, "anna@example.org")
    assert cookies(ROTATED, current=2).recognised(before, "anna@example.org") is not None
    assert cookies({2: b"b" * 32}, current=2).recognised(before, "anna@example.org") is None


@given(st.lists(mailboxes, min_size=1, max_size=10))
def test_a_browser_keeps_the_mailboxes_it_opened_last(opened: list[str]) -> None:
    cookie: str | None = None
    for seed, mailbox in enumerate(opened):
        cookie = cookies(seed=seed).opened(cookie, mailbox)
    latest = list(dict.fromkeys(reversed(opened)))[:MAILBOXES_KEPT]
    for mailbox in set(opened):
        assert (cookies().recognised(cookie, mailbox) is not None) == (mailbox in latest)


def test_opening_a_licence_again_gives_its_mailbox_a_new_token() -> None:
    first = cookies(seed=1).opened(None, "anna@example.org")
    second = cookies(seed=2).opened(first, "anna@example.org")
    assert second.count("~") == 0
    assert cookies().recognised(second, "anna@example.org") != cookies().recognised(first, "anna@example.org")


def test_a_token_holds_no_address() -> None:
    cookie = cookies().opened(None, "anna@example.org")
    assert "anna" not in cookie and "example" not in cookie
