"""The hub at a glance for its operator, and whether the hub itself is up as the status page
says: both from the same heartbeats."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from vpnsite.fleet import OFFLINE_AFTER, Location, VpnServer, hub_online, is_online
from vpnsite.stats import STATS_DAYS, first_counted, glance

NOW = datetime(2026, 11, 26, 13, 0, tzinfo=UTC)
silences = st.one_of(st.none(), st.timedeltas(min_value=timedelta(0), max_value=timedelta(minutes=5)))
servers = st.lists(
    st.builds(
        lambda n, silent, up: VpnServer(
            Location(f"s-{n}", "S", "nl", "A"), None if silent is None else NOW - silent, service_up=up
        ),
        st.integers(0, 99),
        silences,
        st.booleans(),
    ),
    max_size=6,
)


@given(servers)
def test_the_hub_is_up_while_any_server_keeps_calling_it(fleet: list[VpnServer]) -> None:
    heard = [NOW - server.last_seen for server in fleet if server.last_seen is not None]
    assert hub_online(fleet, NOW) == any(silence < OFFLINE_AFTER for silence in heard)
    if any(is_online(server, NOW) for server in fleet):
        assert hub_online(fleet, NOW), "a server up has called it"


@given(
    st.lists(st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=STATS_DAYS - 1)), max_size=40),
    servers,
    st.integers(0, 10**6),
    st.integers(0, 500),
)
def test_a_glance_counts_each_sign_up_on_its_day_and_every_server(
    ages: list[timedelta], fleet: list[VpnServer], users: int, tickets: int
) -> None:
    starts = [NOW - age for age in ages]
    assert all(start >= first_counted(NOW) for start in starts)
    seen = glance(NOW, users, starts, fleet, tickets)
    days = [day for day, _ in seen.signups_per_day]
    assert len(days) == STATS_DAYS and days[-1] == NOW.date()
    assert all(later - earlier == timedelta(days=1) for earlier, later in zip(days, days[1:], strict=False))
    assert sum(count for _, count in seen.signups_per_day) == len(starts), "every sign-up is on its day"
    assert seen.busiest_day == max((count for _, count in seen.signups_per_day), default=0)
    assert (seen.users, seen.open_tickets, seen.servers) == (users, tickets, len(fleet))
    assert seen.servers_online == sum(1 for server in fleet if is_online(server, NOW))
