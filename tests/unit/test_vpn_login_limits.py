"""The VPN login judges at most ten wrong codes a minute for one address on one server and a
hundred across the fleet; a right code is never counted; once a ceiling is full a login is
refused for now, its code unread, with how long to wait; and after that wait the owner gets in."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world
from tests.unit.memory import MemoryStore
from vpnsite.rate_limits import LICENCE_EMAILS, TICKET_ACKNOWLEDGEMENTS, events_kept_for
from vpnsite.vpn_access import Admission
from vpnsite.vpn_login_limits import ACROSS_FLEET, PER_SERVER
from vpnsite_node.gatekeeper import told

SERVERS = [f"server-{n}" for n in range(12)]
WRONG = "0" * 20
# Spellings of one mailbox: each counts against it (the licence's own spelling, in any case, is
# the one its code opens).
SPELLINGS = ("anna@example.org", "Anna@Example.org", "anna+vpn@example.org", " ANNA@example.org ")


def token(server: str) -> str:
    return f"token-of-{server}"


def servers(world: World, names: list[str] = SERVERS) -> None:
    for name in names:
        world.add_server(name, token(name))


def in_window(times: list[datetime], now: datetime) -> int:
    return sum(1 for t in times if now - PER_SERVER.window < t <= now)


step = st.one_of(
    st.tuples(st.just("wrong"), st.sampled_from(SERVERS), st.integers(1, 14), st.sampled_from(SPELLINGS)),
    st.tuples(st.just("right"), st.sampled_from(SERVERS), st.just(1), st.just("Anna@Example.org")),
    st.tuples(st.just("stranger"), st.sampled_from(SERVERS), st.integers(1, 12), st.just("bob@example.org")),
    st.tuples(st.just("wait"), st.just(""), st.integers(1, 70), st.just("")),
    st.tuples(st.just("as told"), st.just(""), st.just(0), st.just("")),
)


@pytest.mark.parametrize("backend, examples", [("memory", 150), ("sqlite", 12)])
def test_the_login_judges_what_the_ceilings_allow_and_nothing_more(backend: str, examples: int) -> None:
    """Against a model of the two ceilings, for any run of wrong codes (any spelling of the
    address), right codes, another address's wrong codes and waits: each login is judged or
    refused for now exactly as the model says, a refusal says how long until the model has room
    (and a login that waits that long is judged), and the ceilings are never passed."""

    @settings(max_examples=examples, deadline=None)
    @given(st.lists(step, min_size=1, max_size=40))
    def as_the_model_says(steps: list[tuple[str, str, int, str]]) -> None:
        with open_world(backend) as world:
            anna = world.sign_up("anna@example.org")
            world.sign_up("bob@example.org")
            servers(world)
            judged: dict[tuple[str, str], list[datetime]] = {}
            told = timedelta(0)
            for kind, server, count, username in steps:
                if kind == "wait":
                    world.clock.advance(seconds=count)
                    continue
                if kind == "as told":
                    world.clock.moment += told
                    continue
                mailbox = "bob" if kind == "stranger" else "anna"
                for _ in range(count):
                    now = world.clock.now()
                    here = judged.setdefault((mailbox, server), [])
                    fleet = [t for (who, _), times in judged.items() if who == mailbox for t in times]
                    waits = [PER_SERVER.retry_after(here, now), ACROSS_FLEET.retry_after(fleet, now)]
                    wait = max((w for w in waits if w is not None), default=None)
                    code = anna.code if kind == "right" else WRONG
                    admission = world.node_access.log_in(server, username, code)
                    if wait is not None:
                        assert admission == Admission(None, "rate_limited", retry_after=wait)
                        told = wait
                    elif kind == "right":
                        assert admission.licence_id == anna.licence.id
                        assert admission.refused in (None, "too_many_devices")
                    else:
                        assert admission == Admission(None, "bad_credentials")
                        here.append(now)
                    everywhere = [t for (who, _), times in judged.items() if who == mailbox for t in times]
                    assert in_window(here, now) <= PER_SERVER.limit
                    assert in_window(everywhere, now) <= ACROSS_FLEET.limit

    as_the_model_says()


def test_a_burst_on_one_server_is_judged_ten_times_then_the_owner_waits_and_gets_in(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    servers(world, SERVERS[:2])
    answers = [world.node_access.log_in("server-0", "anna@example.org", WRONG) for _ in range(300)]
    assert [a.refused for a in answers].count("bad_credentials") == PER_SERVER.limit
    assert {a.refused for a in answers[PER_SERVER.limit :]} == {"rate_limited"}
    owner = world.node_access.log_in("server-0", "anna@example.org", anna.code)
    assert owner == Admission(None, "rate_limited", retry_after=PER_SERVER.window), "its code is not read"
    elsewhere = world.node_access.log_in("server-1", "anna@example.org", anna.code)
    assert elsewhere.refused is None, "another server's ceiling has room"
    world.clock.moment += PER_SERVER.window - timedelta(microseconds=1)
    assert world.node_access.log_in("server-0", "anna@example.org", anna.code).refused == "rate_limited"
    world.clock.advance(microseconds=1)
    assert world.node_access.log_in("server-0", "anna@example.org", anna.code).refused is None


def test_a_burst_across_the_fleet_is_judged_a_hundred_times(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    servers(world)
    refused = []
    for n in range(300):
        world.clock.advance(milliseconds=10)
        refused.append(world.node_access.log_in(SERVERS[n % 12], "anna@example.org", WRONG).refused)
    assert refused.count("bad_credentials") == ACROSS_FLEET.limit
    assert refused.count("rate_limited") == 300 - ACROSS_FLEET.limit
    told = world.node_access.log_in("server-5", "anna@example.org", anna.code)
    assert told.refused == "rate_limited" and told.retry_after is not None
    assert told.retry_after <= ACROSS_FLEET.window
    world.clock.moment += told.retry_after
    assert world.node_access.log_in("server-5", "anna@example.org", anna.code).refused is None


def test_a_right_code_is_never_counted(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    servers(world, SERVERS[:1])
    for _ in range(PER_SERVER.limit - 1):
        assert world.node_access.log_in("server-0", "anna@example.org", WRONG).refused == "bad_credentials"
    for _ in range(3 * PER_SERVER.limit):
        assert world.node_access.log_in("server-0", "anna@example.org", anna.code).refused is None
    assert world.node_access.log_in("server-0", "anna@example.org", WRONG).refused == "bad_credentials"
    assert world.node_access.log_in("server-0", "anna@example.org", WRONG).refused == "rate_limited"


def test_every_spelling_of_the_address_fills_one_ceiling_and_another_address_has_its_own(
    world: World,
) -> None:
    anna = world.sign_up("anna@example.org")
    bob = world.sign_up("bob@example.org")
    servers(world, SERVERS[:1])
    for n in range(PER_SERVER.limit):
        spelt = SPELLINGS[n % len(SPELLINGS)]
        assert world.node_access.log_in("server-0", spelt, WRONG).refused == "bad_credentials"
    for spelt in SPELLINGS:
        assert world.node_access.log_in("server-0", spelt, anna.code).refused == "rate_limited"
    assert world.node_access.log_in("server-0", "bob@example.org", bob.code).refused is None


def test_what_is_no_address_is_refused_and_counted_nowhere(world: World) -> None:
    anna = world.sign_up("anna@example.org")
    servers(world, SERVERS[:1])
    for _ in range(3 * PER_SERVER.limit):
        answer = world.node_access.log_in("server-0", "not an address", anna.code)
        assert answer == Admission(None, "bad_credentials")
    assert world.node_access.log_in("server-0", "anna@example.org", anna.code).refused is None


def test_the_counts_are_kept_as_keyed_hashes_only(world: World) -> None:
    servers(world, SERVERS[:1])
    for _ in range(3):
        world.node_access.log_in("server-0", "anna@example.org", WRONG)
    if isinstance(world.store, MemoryStore):
        keys = list(world.store.rate_limits.events)
    else:
        rows = world.store.db.execute_sql("SELECT DISTINCT key FROM rate_event")  # type: ignore[no-untyped-call]
        keys = [key for (key,) in rows]
    assert len(keys) == 2, "one count for the server, one for the fleet"
    assert not any("anna" in key or "server-0" in key for key in keys)


def test_the_counts_are_kept_as_long_as_their_window() -> None:
    """Retention keeps rate events for the longest window it knows, and never less than the fixed
    rules' (a licence e-mail a day), whatever the operator's rules: longer than these ceilings'
    minute."""
    assert events_kept_for(()) == max(TICKET_ACKNOWLEDGEMENTS.window, LICENCE_EMAILS.window)
    assert max(PER_SERVER.window, ACROSS_FLEET.window) <= events_kept_for(())


@given(st.integers(min_value=0, max_value=3600), st.sampled_from(["", "https://vpn.example/"]))
def test_the_app_is_told_to_wait_as_long_as_the_hub_said_then_try_again(seconds: int, site: str) -> None:
    """OpenVPN 2.6 reads ``TEMP[backoff N]`` as "wait at least N seconds, then connect again"
    (a wait of 0 is no backoff at all: the app waits a second at least)."""
    shown = told("rate_limited", site, seconds)
    matched = re.match(r"TEMP\[backoff (\d+)\]: \S", shown)
    assert matched is not None and int(matched.group(1)) == max(seconds, 1), shown
    assert told("bad_credentials", site, seconds) == "Wrong e-mail or activation code.", (
        "not for a wrong code"
    )


def test_the_readme_states_the_ceilings() -> None:
    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text().split())
    assert (
        f"judges at most {PER_SERVER.limit} wrong codes a minute for one address on one server and "
        f"{ACROSS_FLEET.limit} a minute across the fleet" in readme
    )
    assert f"at most {PER_SERVER.limit} a minute per server, {ACROSS_FLEET.limit} across the fleet" in readme
    assert PER_SERVER.window == ACROSS_FLEET.window == timedelta(minutes=1)
