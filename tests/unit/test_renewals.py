"""Renewing: the same licence and code for another term, from seven days before the end to thirty
after; a reminder with a one-time link once per end."""

from __future__ import annotations

from datetime import datetime, timedelta

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.conftest import TERM_DAYS, World, open_world, store_property
from vpnsite.errors import FreeTierFull, LicenceNotFound, NotRenewableYet, RenewalClosed, RequestAlreadyUsed
from vpnsite.notifications import Reminder
from vpnsite.privacy import erase_address
from vpnsite.renewals import OPENS_BEFORE_END, can_renew, renewal_opens, renewed_end


def test_a_licence_renews_from_seven_days_before_its_end_keeping_its_code(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    world.clock.advance(days=TERM_DAYS - 7, microseconds=-1)
    with pytest.raises(NotRenewableYet) as early:
        world.renewals.renew_with_code("anna@example.org", anna.code, ip=None)
    assert early.value.params == {"opens": renewal_opens(anna.licence.ends_at).date()}

    world.clock.advance(microseconds=1)
    renewed = world.renewals.renew_with_code("Anna@Example.org", anna.code, ip=None)
    assert renewed.licence.id == anna.licence.id and renewed.code == anna.code
    assert renewed.licence.ends_at == anna.licence.ends_at + timedelta(days=TERM_DAYS)
    assert (
        renewed.archive_token
        and world.archives.open(renewed.archive_token, ip=None).licence == renewed.licence
    )
    assert world.checks.check("anna@example.org", anna.code, ip=None).licence == renewed.licence
    with pytest.raises(NotRenewableYet):
        world.renewals.renew_with_code("anna@example.org", anna.code, ip=None)


def test_an_ended_licence_renews_for_thirty_days_after_its_end(world: World) -> None:
    bob = world.sign_up("bob@example.org")
    carol = world.sign_up("carol@example.org")
    world.clock.advance(days=TERM_DAYS + 29)
    renewed = world.renewals.renew_with_code("bob@example.org", bob.code, ip=None)
    assert renewed.licence.ends_at == world.clock.now() + timedelta(days=TERM_DAYS)
    assert world.users() == 1
    world.clock.advance(days=1)
    with pytest.raises(RenewalClosed):
        world.renewals.renew_with_code("carol@example.org", carol.code, ip=None)


def test_an_ended_licence_renews_only_while_the_free_tier_has_room(world: World) -> None:
    dave = world.sign_up("dave@example.org")
    world.clock.advance(days=TERM_DAYS + 1)
    world.sign_up("erin@example.org")
    full = attrs.evolve(world.renewals, plan=attrs.evolve(world.renewals.plan, cap=1))
    with pytest.raises(FreeTierFull):
        full.renew_with_code("dave@example.org", dave.code, ip=None)
    assert world.renewals.renew_with_code("dave@example.org", dave.code, ip=None).licence.is_live(
        world.clock.now()
    )
    frank = world.sign_up("frank@example.org")
    world.clock.advance(days=TERM_DAYS - 3)
    assert full.renew_with_code("frank@example.org", frank.code, ip=None), "a live licence is no new user"


def test_the_wrong_code_renews_nothing(world: World) -> None:
    world.sign_up("gina@example.org")
    other = world.sign_up("hal@example.org")
    world.clock.advance(days=TERM_DAYS - 1)
    with pytest.raises(LicenceNotFound):
        world.renewals.renew_with_code("gina@example.org", other.code, ip=None)


def test_a_reminder_goes_once_per_end_with_a_one_time_link(world: World) -> None:
    ivan = world.sign_up("ivan@example.org")
    world.clock.advance(days=TERM_DAYS - 8)
    assert world.renewals.send_reminders() == 0, "the window has not opened"
    world.clock.advance(days=2)
    assert world.renewals.send_reminders() == 1
    assert world.renewals.send_reminders() == 0, "once per end"
    [_, (kind, reminder)] = world.notifications.said
    assert kind == "renewal" and isinstance(reminder, Reminder) and reminder.licence == ivan.licence

    renewed = world.renewals.renew_with_link(reminder.renewal_token)
    assert renewed.ends_at == ivan.licence.ends_at + timedelta(days=TERM_DAYS)
    with pytest.raises(RequestAlreadyUsed):
        world.renewals.renew_with_link(reminder.renewal_token)
    with pytest.raises(LicenceNotFound):
        world.renewals.renew_with_link(reminder.renewal_token[:-1] + "x")

    world.clock.advance(days=TERM_DAYS)
    assert world.renewals.send_reminders() == 1, "the new end has a reminder of its own"
    assert len(world.notifications.said) == 3


def test_no_reminder_for_an_ended_or_erased_licence_and_their_links_stop(world: World) -> None:
    jo = world.sign_up("jo@example.org")
    world.sign_up("kim@example.org")
    world.clock.advance(days=TERM_DAYS - 3)
    assert world.renewals.send_reminders() == 2
    links = {r.licence.email: r.renewal_token for kind, r in world.notifications.said if kind == "renewal"}  # type: ignore[attr-defined]
    erase_address(
        world.store.privacy, world.keys, world.journal_keys.current(), "kim@example.org", world.clock.now()
    )
    with pytest.raises(LicenceNotFound):
        world.renewals.renew_with_link(links["kim@example.org"])
    world.clock.advance(days=4)
    assert world.renewals.send_reminders() == 0
    assert world.renewals.renew_with_link(links["jo@example.org"]).id == jo.licence.id, "good after the end"


@store_property
@given(st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=TERM_DAYS + 40)))
def test_renewing_moves_the_end_exactly_as_the_rules_say(backend: str, age: timedelta) -> None:
    with open_world(backend) as world:
        licence = (lina := world.sign_up("lina@example.org")).licence
        world.clock.moment += age
        now = world.clock.now()
        if now < renewal_opens(licence.ends_at):
            outcome: object = NotRenewableYet
        elif not can_renew(licence, now):
            outcome = RenewalClosed
        else:
            outcome = renewed_end(licence, now, TERM_DAYS)
        try:
            result: object = world.renewals.renew_with_code(
                "lina@example.org", lina.code, ip=None
            ).licence.ends_at
        except (NotRenewableYet, RenewalClosed) as refused:
            result = type(refused)
        assert result == outcome
        found = world.checks.check("lina@example.org", lina.code, ip=None).licence
        assert found.ends_at == (outcome if isinstance(outcome, datetime) else licence.ends_at)


@store_property
@given(
    st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=4),
    st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=8),
)
def test_each_licence_is_reminded_once_at_the_first_round_inside_its_window(
    backend: str, signed_up_on: list[int], round_gaps: list[int]
) -> None:
    """Sign-ups on the given days, reminder rounds every so many days: a licence is reminded at
    the first round in the seven days before its end, and never again for that end."""
    with open_world(backend) as world:
        start = world.clock.now()
        ends = {}
        for n, day in enumerate(sorted(signed_up_on)):
            world.clock.moment = start + timedelta(days=day)
            ends[world.sign_up(f"user{n}@example.org").licence.id] = world.clock.now() + timedelta(
                days=TERM_DAYS
            )
        reminded: dict[str, datetime] = {}
        rounds = []
        for gap in round_gaps:
            world.clock.advance(days=gap)
            rounds.append(world.clock.now())
            before = len(world.notifications.said)
            sent = world.renewals.send_reminders()
            assert sent == len(world.notifications.said) - before
            for _, reminder in world.notifications.said[before:]:
                licence_id = reminder.licence.id  # type: ignore[attr-defined]
                assert licence_id not in reminded
                reminded[licence_id] = world.clock.now()
        for licence_id, end in ends.items():
            # The store lists licences ending strictly before a week from now: a round at the very
            # moment the window opens leaves the reminder to the next one.
            first = next((at for at in rounds if end - OPENS_BEFORE_END < at < end), None)
            assert reminded.get(licence_id) == first


def test_a_refused_renewal_leaves_the_reminders_link_for_another_try(world: World) -> None:
    world.sign_up("lea@example.org")
    world.clock.advance(days=TERM_DAYS - 3)
    assert world.renewals.send_reminders() == 1
    token = next(r.renewal_token for kind, r in world.notifications.said if kind == "renewal")  # type: ignore[attr-defined]
    world.clock.advance(days=4)
    world.sign_up("max@example.org")
    full = attrs.evolve(world.renewals, plan=attrs.evolve(world.renewals.plan, cap=1))
    with pytest.raises(FreeTierFull):
        full.renew_with_link(token)
    renewed = world.renewals.renew_with_link(token)
    assert renewed.is_live(world.clock.now())
    with pytest.raises(RequestAlreadyUsed):
        world.renewals.renew_with_link(token)
