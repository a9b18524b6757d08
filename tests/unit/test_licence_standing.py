"""What a licence's holder is told about it: its term, the days left, whether it is live and when
it may be renewed; and what a renewal needs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import TERM_DAYS, World, open_world
from vpnsite.errors import DomainError, InvalidField
from vpnsite.licences import Licence, licence_term
from vpnsite.notifications import Reminder
from vpnsite.renewals import CLOSES_AFTER_END, OPENS_BEFORE_END, standing

moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC))
terms = st.integers(min_value=1, max_value=3650)


def licence(starts_at: datetime, days: int) -> Licence:
    start, end = licence_term(starts_at, days)
    return Licence("0" * 32, "anna@example.org", "hash", start, end)


@given(moments, terms, st.timedeltas(min_value=timedelta(hours=-11), max_value=timedelta(hours=11)))
def test_a_licence_runs_the_term_it_was_given(start: datetime, days: int, drift: timedelta) -> None:
    """Whole days, to the nearest one: a term moved by less than half a day is still that term."""
    given_licence = licence(start, days)
    assert given_licence.term_days == days
    moved = Licence("0" * 32, "a@example.org", "h", start, given_licence.ends_at + drift)
    assert moved.term_days == days


@given(moments, terms, st.timedeltas(min_value=timedelta(days=-4000), max_value=timedelta(days=4000)))
def test_the_holder_is_told_the_days_left_and_whether_to_renew(
    start: datetime, days: int, since_start: timedelta
) -> None:
    held = licence(start, days)
    now = start + since_start
    told = standing(held, now)
    assert told.active == (now < held.ends_at)
    assert (told.days > 0) == told.active
    assert told.days == 0 or timedelta(days=told.days - 1) < held.ends_at - now <= timedelta(days=told.days)
    assert told.renewable == (held.ends_at - OPENS_BEFORE_END <= now < held.ends_at + CLOSES_AFTER_END)
    assert told.renewable_from == (held.ends_at - OPENS_BEFORE_END).date()


@given(
    st.sampled_from(["", None]),
    st.sampled_from(["", None, "anna@example.org"]),
    st.sampled_from(["", None, "X"]),
)
def test_a_renewal_without_a_link_needs_both_the_email_and_the_code(
    token: str | None, email: str | None, code: str | None
) -> None:
    with open_world("memory") as world:
        if email and code:
            with pytest.raises(DomainError) as checked:
                world.renewals.renew(token, email, code, None)
            assert getattr(checked.value, "kind", None) != "missing", "both given: the code is checked"
            return
        with pytest.raises(InvalidField) as refused:
            world.renewals.renew(token, email, code, None)
        missing = [name for name, value in (("email", email), ("activation_code", code)) if not value]
        assert refused.value.fields == tuple(missing) and refused.value.kind == "missing"


def test_a_link_renews_without_the_email_or_the_code(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    bob = world.sign_up("bob@example.org")
    world.clock.advance(days=TERM_DAYS - 6)
    assert world.renewals.send_reminders() == 2
    reminder = next(
        r for _, r in world.notifications.said if isinstance(r, Reminder) and r.licence == anna.licence
    )
    renewed = world.renewals.renew(reminder.renewal_token, "bob@example.org", bob.code, None)
    assert renewed.licence.id == anna.licence.id, "the link comes first"
    assert renewed.licence.ends_at == anna.licence.ends_at + timedelta(days=TERM_DAYS)
    assert renewed.code is None and renewed.archive_token is None
    by_code = world.renewals.renew(None, "bob@example.org", bob.code, None)
    assert by_code.licence.id == bob.licence.id and by_code.code == bob.code and by_code.archive_token
