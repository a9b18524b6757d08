"""When sign-ups come faster than people do: the pace rule (Hypothesis), the windows it counts, the
counts the stores give for them, and how long one reading of them serves."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from fractions import Fraction

from hypothesis import assume, given
from hypothesis import strategies as st

from tests.support.clock import ManualClock
from tests.unit.conftest import World
from tests.unit.memory import MemoryDatabase, MemoryUnitOfWork
from vpnsite.errors import StoreUnavailable
from vpnsite.signup_pace import (
    COUNTS_FRESH_FOR,
    DAYS_OF_HISTORY,
    Pace,
    PaceGauge,
    PaceReading,
    Window,
    pace_windows,
)

counts = st.integers(min_value=0, max_value=10**6)
histories = st.lists(counts, min_size=DAYS_OF_HISTORY, max_size=DAYS_OF_HISTORY).map(tuple)
paces = st.builds(
    Pace,
    factor=st.sampled_from([1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 10.0]) | st.floats(min_value=1, max_value=1000),
    floor=st.integers(min_value=0, max_value=10**4),
)
readings = st.builds(PaceReading, counts, histories)


@given(paces, readings)
def test_a_sign_up_is_under_pressure_exactly_when_it_would_pass_the_floor_and_factor_times_the_usual_pace(
    pace: Pace, reading: PaceReading
) -> None:
    coming = reading.last_hour + 1
    usual = Fraction(sum(reading.same_hours), len(reading.same_hours))
    expected = coming > pace.floor and coming > Fraction(pace.factor) * usual
    assert pace.under_pressure(reading) == expected


@given(paces, histories, st.integers(min_value=0, max_value=10**4))
def test_an_hour_within_its_floor_is_never_challenged(
    pace: Pace, history: tuple[int, ...], below: int
) -> None:
    assume(pace.floor > 0)
    # The sign-up asking is the hour's (last_hour + 1)th: at most the floor's.
    last_hour = below % pace.floor
    assert not pace.under_pressure(PaceReading(last_hour, history))


@given(paces, counts)
def test_a_new_service_is_challenged_only_past_its_floor(pace: Pace, last_hour: int) -> None:
    assert pace.under_pressure(PaceReading(last_hour, (0,) * DAYS_OF_HISTORY)) == (last_hour >= pace.floor)


@given(paces, readings, st.integers(min_value=1, max_value=1000))
def test_more_sign_ups_in_the_hour_never_lift_the_pressure(
    pace: Pace, reading: PaceReading, more: int
) -> None:
    if pace.under_pressure(reading):
        assert pace.under_pressure(PaceReading(reading.last_hour + more, reading.same_hours))


@given(paces, readings, histories)
def test_a_busier_history_never_creates_pressure(
    pace: Pace, reading: PaceReading, extra: tuple[int, ...]
) -> None:
    busier = tuple(day + more for day, more in zip(reading.same_hours, extra, strict=True))
    if not pace.under_pressure(reading):
        assert not pace.under_pressure(PaceReading(reading.last_hour, busier))


@given(paces, histories)
def test_the_unchallenged_allowance_is_the_usual_pace_or_the_floor(
    pace: Pace, history: tuple[int, ...]
) -> None:
    allowance = pace.unchallenged_allowance(PaceReading(0, history))
    usual = Fraction(sum(history), len(history))
    assert allowance >= pace.floor and allowance >= usual
    assert allowance == max(pace.floor, math.ceil(usual)), "the least whole number that is both"


@given(st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)))
def test_the_windows_are_the_last_hour_and_the_same_hour_of_each_of_the_seven_days_before(
    now: datetime,
) -> None:
    windows = pace_windows(now)
    assert len(windows) == 1 + DAYS_OF_HISTORY and windows[0] == (now - timedelta(hours=1), now)
    for days, (start, end) in enumerate(windows):
        assert end == now - timedelta(days=days) and end - start == timedelta(hours=1)


class CountingStore:
    """Licences started at the given moments; counts how often it is asked, and is unreachable
    when told so."""

    def __init__(self, starts: Sequence[datetime] = ()) -> None:
        self.starts = list(starts)
        self.asked = 0
        self.unreachable = False

    def licences_started(self, windows: Sequence[Window]) -> list[int]:
        self.asked += 1
        if self.unreachable:
            raise StoreUnavailable()
        return [sum(start < at <= end for at in self.starts) for start, end in windows]


def test_one_reading_serves_every_request_for_a_few_seconds_by_the_clock() -> None:
    clock = ManualClock()
    store = CountingStore()
    gauge = PaceGauge(store, MemoryUnitOfWork(MemoryDatabase()))
    first = gauge.read(clock.now())
    store.starts.append(clock.now())
    clock.advance(seconds=COUNTS_FRESH_FOR.total_seconds() - 1)
    assert gauge.read(clock.now()) == first and store.asked == 1, "a flood does not ask the store each time"
    clock.advance(seconds=1)
    assert gauge.read(clock.now()).last_hour == 1 and store.asked == 2
    clock.advance(seconds=-60)
    gauge.read(clock.now())
    assert store.asked == 3, "a clock that went back reads afresh"


def test_while_the_store_is_away_the_last_reading_stands_and_is_asked_again_every_few_seconds() -> None:
    clock = ManualClock()
    store = CountingStore()
    gauge = PaceGauge(store, MemoryUnitOfWork(MemoryDatabase()))
    store.unreachable = True
    assert gauge.read(clock.now()) == PaceReading(0, (0,) * DAYS_OF_HISTORY), "none read yet: no sign-ups"
    store.unreachable = False
    store.starts = [clock.now()] * 3
    clock.advance(seconds=COUNTS_FRESH_FOR.total_seconds())
    assert gauge.read(clock.now()).last_hour == 3
    store.unreachable = True
    clock.advance(seconds=COUNTS_FRESH_FOR.total_seconds())
    assert gauge.read(clock.now()).last_hour == 3 and store.asked == 3
    assert gauge.read(clock.now()).last_hour == 3 and store.asked == 3, "not asked again at once"


def test_the_stores_count_licences_started_after_a_windows_start_and_up_to_its_end(world: World) -> None:
    start = world.clock.now()
    for minutes in (0, 30, 60, 61, 24 * 60, 24 * 60 + 59):
        world.clock.moment = start + timedelta(minutes=minutes)
        world.sign_up(f"user{minutes}@example.org")
    hour = timedelta(hours=1)
    windows = [
        (start, start + hour),
        (start - hour, start),
        (start + hour, start + 2 * hour),
        (start + timedelta(days=1), start + timedelta(days=1, hours=1)),
        (start + hour, start + hour),
    ]
    assert world.store.licences.licences_started(windows) == [2, 1, 1, 1, 0]
    assert world.store.licences.licences_started([]) == []


def test_the_gauge_reads_the_last_hour_and_the_same_hour_of_earlier_days(world: World) -> None:
    today = world.clock.now()
    for days_ago, licences in ((1, 2), (3, 1), (7, 4), (8, 5)):
        world.clock.moment = today - timedelta(days=days_ago, minutes=30)
        for number in range(licences):
            world.sign_up(f"day{days_ago}-{number}@example.org")
    world.clock.moment = today - timedelta(minutes=10)
    world.sign_up("now@example.org")
    world.clock.moment = today
    reading = PaceGauge(world.store.licences, world.store.unit_of_work).read(today)
    assert reading == PaceReading(1, (2, 0, 1, 0, 0, 0, 4)), "the eighth day back is not in the week"
    assert reading.usual == 1
