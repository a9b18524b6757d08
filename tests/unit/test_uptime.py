"""The fleet's uptime is measured from heartbeats, never more than was measured: up time only
between beats that came within the offline threshold, counted against the time the listed
servers have been in service within the last 30 days."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from vpnsite.fleet import OFFLINE_AFTER
from vpnsite.uptime import (
    MIN_HISTORY,
    WINDOW_DAYS,
    InService,
    UpTime,
    fleet_uptime,
    permille_down,
    up_between,
    window_start,
)

START = datetime(2026, 3, 1, tzinfo=UTC)
moments = st.integers(0, 60 * 86_400).map(lambda s: START + timedelta(seconds=s))
gaps = st.lists(st.integers(1, 120), min_size=1, max_size=400)


def beats(first: datetime, gaps: list[int]) -> list[datetime]:
    found = [first]
    for gap in gaps:
        found.append(found[-1] + timedelta(seconds=gap))
    return found


def measured(times: list[datetime], up: bool = True) -> list[UpTime]:
    return [
        piece
        for previous, now in zip(times, times[1:], strict=False)
        for piece in up_between("s", previous, now, up, OFFLINE_AFTER)
    ]


@given(moments, gaps)
def test_up_time_is_the_gaps_within_the_threshold_split_at_midnight(first: datetime, gaps: list[int]) -> None:
    pieces = measured(beats(first, gaps))
    expected = sum(gap for gap in gaps if gap <= OFFLINE_AFTER.total_seconds())
    assert sum(piece.seconds for piece in pieces) == expected
    assert all(0 < piece.seconds <= 86_400 for piece in pieces)


@given(moments, st.integers(1, 30))
def test_an_interval_across_midnight_goes_to_both_days(first: datetime, gap: int) -> None:
    midnight = datetime.combine(first.date() + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    before = midnight - timedelta(seconds=gap / 2)
    pieces = up_between("s", before, before + timedelta(seconds=gap), True, OFFLINE_AFTER)
    assert [piece.day for piece in pieces] == [before.date(), midnight.date()][: len(pieces)]
    assert sum(piece.seconds for piece in pieces) == gap


@given(moments, st.integers(1, 300))
def test_no_up_time_from_a_first_beat_a_silence_or_a_broken_service(first: datetime, gap: int) -> None:
    later = first + timedelta(seconds=gap)
    assert up_between("s", None, later, True, OFFLINE_AFTER) == []
    assert up_between("s", first, later, False, OFFLINE_AFTER) == []
    if gap > OFFLINE_AFTER.total_seconds():
        assert up_between("s", first, later, True, OFFLINE_AFTER) == []


@given(moments, gaps, st.integers(0, 40 * 86_400))
def test_the_uptime_is_a_share_of_the_time_in_service_and_never_more(
    first: datetime, gaps: list[int], after: int
) -> None:
    times = beats(first, gaps)
    now = times[-1] + timedelta(seconds=after)
    share = fleet_uptime([InService("s", first)], measured(times), now)
    in_service = now - max(first, datetime.combine(window_start(now), datetime.min.time(), tzinfo=UTC))
    if now - first < MIN_HISTORY:
        assert share is None, "no figure before a day of history"
    else:
        assert share is not None and 0 <= share <= 1
        assert share * in_service.total_seconds() <= sum(p.seconds for p in measured(times)) + 1e-6


@settings(max_examples=25)
@given(st.integers(1, 5), st.integers(0, 10))
def test_a_server_always_up_is_up_and_a_silent_one_counts_as_down(up_servers: int, silent: int) -> None:
    now = START + timedelta(days=1, hours=2)
    times = [START + timedelta(seconds=30 * n) for n in range(int((now - START).total_seconds() // 30) + 1)]
    pieces = [
        UpTime(f"up-{n}", piece.day, piece.seconds) for n in range(up_servers) for piece in measured(times)
    ]
    servers = [InService(f"up-{n}", START) for n in range(up_servers)]
    servers += [InService(f"silent-{n}", START) for n in range(silent)]
    share = fleet_uptime([*servers, InService("never-heard", None)], pieces, now)
    assert share is not None
    assert abs(share - up_servers / (up_servers + silent)) < 1e-9


def test_only_the_last_30_days_and_listed_servers_count() -> None:
    now = START + timedelta(days=100)
    old = UpTime("s", (now - timedelta(days=WINDOW_DAYS)).date(), 86_400)
    gone = UpTime("removed", now.date(), 3_600)
    assert fleet_uptime([InService("s", START)], [old, gone], now) == 0.0


@given(st.floats(0, 1))
def test_the_figure_is_rounded_down_to_a_tenth_of_a_per_cent(share: float) -> None:
    permille = permille_down(share)
    assert permille / 1000 <= share + 1e-9 and share - permille / 1000 < 0.001 + 1e-9
    assert permille_down(0.99999) == 999 and permille_down(0.999) == 999 and permille_down(1.0) == 1000
