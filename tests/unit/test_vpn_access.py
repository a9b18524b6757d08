"""Who may connect: a live licence, one session per server, ten in all."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from vpnsite.licences import Licence
from vpnsite.vpn_access import MAX_SESSIONS, Session, refusal

NOW = datetime(2026, 7, 1, tzinfo=UTC)
servers = st.sampled_from([f"server-{n}" for n in range(14)])


def licence(ends_in: timedelta) -> Licence:
    return Licence("l", "a@example.org", "h", NOW - timedelta(days=10), NOW + ends_in)


@given(
    st.lists(servers, unique=True, max_size=13),
    servers,
    st.timedeltas(min_value=timedelta(days=-5), max_value=timedelta(days=5)),
)
def test_the_device_limit(used: list[str], server: str, ends_in: timedelta) -> None:
    sessions = [Session("l", name, NOW) for name in used]
    why = refusal(licence(ends_in), sessions, server, NOW)
    if ends_in <= timedelta(0):
        assert why == "ended"
    elif server in used:
        assert why == "same_server"
    elif len(used) >= MAX_SESSIONS:
        assert why == "too_many_devices"
    else:
        assert why is None


def test_unknown_credentials_are_refused() -> None:
    assert refusal(None, [], "server-1", NOW) == "bad_credentials"
