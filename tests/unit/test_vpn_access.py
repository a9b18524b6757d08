"""Who may connect: a live licence, one session per server (the newest login wins), ten servers
in all; places never confirmed expire; what a server reports it holds is settled with the hub."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.clock import ManualClock
from tests.unit.fakes import SeededRandom
from vpnsite.keyed_hashes import Keyring
from vpnsite.licences import Licence
from vpnsite.vpn_access import MAX_SESSIONS, UNCONFIRMED_FOR, NodeAccess, Session, counts, refusal, settle

NOW = datetime(2026, 7, 1, tzinfo=UTC)
servers = st.sampled_from([f"server-{n}" for n in range(14)])
KEYS = Keyring.from_master(b"k" * 32)


def licence(ends_in: timedelta, licence_id: str = "l") -> Licence:
    return Licence(licence_id, "a@example.org", "h", NOW - timedelta(days=10), NOW + ends_in)


@given(
    st.lists(servers, unique=True, max_size=13),
    servers,
    st.timedeltas(min_value=timedelta(days=-5), max_value=timedelta(days=5)),
)
def test_the_device_limit(used: list[str], server: str, ends_in: timedelta) -> None:
    sessions = [Session("l", name, NOW, f"s-{name}", confirmed=True) for name in used]
    why = refusal(licence(ends_in), sessions, server, NOW)
    elsewhere = len(set(used) - {server})
    if ends_in <= timedelta(0):
        assert why == "ended"
    elif elsewhere >= MAX_SESSIONS:
        assert why == "too_many_devices"
    else:
        assert why is None, "a session on the same server is replaced, never a reason to refuse"


def test_unknown_credentials_are_refused() -> None:
    assert refusal(None, [], "server-1", NOW) == "bad_credentials"


@given(st.booleans(), st.timedeltas(min_value=timedelta(0), max_value=timedelta(minutes=2)))
def test_an_unconfirmed_place_counts_only_for_moments(confirmed: bool, age: timedelta) -> None:
    session = Session("l", "server-1", NOW - age, "s", confirmed)
    assert counts(session, NOW) == (confirmed or age < UNCONFIRMED_FOR)


class MemorySessions:
    """The SessionStore port in memory: one row per licence and server."""

    def __init__(self, licences: Mapping[str, Licence]) -> None:
        self.rows: dict[tuple[str, str], Session] = {}
        self.licences = dict(licences)
        self.heard: dict[str, datetime] = {}

    def server_for_token(self, token_hash: str) -> str | None:
        return next((s for s in self.heard if KEYS.nodes.hash(s) == token_hash), None)

    def sessions_of(
        self, licence_id: str, unconfirmed_since: datetime, heard_since: datetime
    ) -> list[Session]:
        return [
            s
            for s in self.rows.values()
            if s.licence_id == licence_id
            and (s.confirmed or s.started_at > unconfirmed_since)
            and self.heard[s.server_id] >= heard_since
        ]

    def sessions_on(self, server_id: str) -> list[Session]:
        return [s for s in self.rows.values() if s.server_id == server_id]

    def hold(self, session: Session) -> None:
        self.rows[(session.licence_id, session.server_id)] = session

    def confirm(self, server_id: str, session_id: str) -> bool:
        for key, s in self.rows.items():
            if s.server_id == server_id and s.id == session_id:
                self.rows[key] = Session(s.licence_id, s.server_id, s.started_at, s.id, True)
                return True
        return False

    def release(self, server_id: str, session_ids: Sequence[str]) -> int:
        gone = [k for k, s in self.rows.items() if s.server_id == server_id and s.id in session_ids]
        for key in gone:
            del self.rows[key]
        return len(gone)

    def servers_in_use(
        self, licence_ids: Sequence[str], server_id: str, unconfirmed_since: datetime, heard_since: datetime
    ) -> dict[str, int]:
        return {
            licence_id: sum(
                1
                for s in self.sessions_of(licence_id, unconfirmed_since, heard_since)
                if s.server_id != server_id
            )
            for licence_id in licence_ids
        }

    def licences_by_id(self, licence_ids: Sequence[str]) -> dict[str, Licence]:
        return {i: self.licences[i] for i in licence_ids if i in self.licences}

    def find_by_code_hash(self, code_hash: str) -> Licence | None:
        return next((lic for lic in self.licences.values() if lic.code_hash == code_hash), None)


CODE = "12345678901234567894"
step = st.one_of(
    st.tuples(st.just("login"), servers),
    st.tuples(st.just("establish"), servers),
    st.tuples(st.just("end"), servers),
    st.tuples(st.just("wait"), st.integers(min_value=1, max_value=40)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(step, max_size=60))
def test_the_session_table_keeps_its_promises(steps: list[tuple[str, object]]) -> None:
    """Whatever order logins, confirmations, departures and silences come in: one session per
    licence and server, never more than ten servers counting, and the newest login on a server
    is the one the hub holds there."""
    clock = ManualClock(NOW)
    anna = Licence(
        "anna", "anna@example.org", KEYS.codes.hash(CODE), NOW - timedelta(days=1), NOW + timedelta(days=9)
    )
    store = MemorySessions({"anna": anna})
    access = NodeAccess(store, store, KEYS, clock, SeededRandom(1))
    latest: dict[str, str] = {}
    for kind, value in steps:
        if kind == "wait":
            clock.advance(seconds=int(value))  # type: ignore[call-overload]
            continue
        server = str(value)
        store.heard[server] = clock.now()
        if kind == "login":
            admission = access.log_in(server, "Anna@Example.org", CODE)
            if admission.refused is None:
                assert admission.session_id
                latest[server] = admission.session_id
            else:
                assert admission.refused == "too_many_devices"
        elif kind == "establish" and server in latest:
            access.established(server, latest[server])
        elif kind == "end" and server in latest:
            access.ended(server, latest.pop(server))
        now = clock.now()
        held = list(store.rows.values())
        assert len({(s.licence_id, s.server_id) for s in held}) == len(held)
        counting = store.sessions_of("anna", now - UNCONFIRMED_FOR, now - timedelta(seconds=30))
        assert len({s.server_id for s in counting}) <= MAX_SESSIONS
        for s in held:
            assert latest.get(s.server_id) == s.id, "the hub holds the newest login of each server"


@given(
    st.dictionaries(st.sampled_from(["s1", "s2", "s3", "s4"]), st.sampled_from(["live", "ended", "gone"])),
    st.dictionaries(st.sampled_from(["live", "ended"]), st.sampled_from(["s1", "s2", "s9"])),
    st.integers(min_value=0, max_value=12),
)
def test_settling_a_servers_report(
    held: dict[str, str], recorded_ids: dict[str, str], elsewhere: int
) -> None:
    licences = {"live": licence(timedelta(days=3), "live"), "ended": licence(timedelta(days=-1), "ended")}
    recorded = [
        Session(lic, "srv", NOW - timedelta(minutes=5), sid, True) for lic, sid in recorded_ids.items()
    ]
    result = settle("srv", held, recorded, licences, {"live": elsewhere}, NOW)
    by_id = {s.id: s for s in recorded}
    for session_id, licence_id in held.items():
        known = by_id.get(session_id)
        should_end = (
            licence_id != "live"
            or (known is not None and known.licence_id != licence_id)
            or (known is None and "live" in recorded_ids)
            or (known is None and elsewhere >= MAX_SESSIONS)
        )
        if licence_id == "live" and known is None and not should_end:
            # Two held sessions of one licence that the hub lost: only one comes back.
            restored = [s for s in result.restore if s.licence_id == "live"]
            assert len(restored) == 1 and (restored[0].id == session_id or session_id in result.end)
            continue
        assert (session_id in result.end) == should_end, (session_id, licence_id)
    assert all(s.confirmed for s in result.restore)
    assert set(result.drop) == {s.id for s in recorded if s.id not in held}, "what the server lost goes"


def _access() -> tuple[NodeAccess, MemorySessions, ManualClock]:
    clock = ManualClock(NOW)
    anna = Licence(
        "anna", "anna@example.org", KEYS.codes.hash(CODE), NOW - timedelta(days=1), NOW + timedelta(days=9)
    )
    store = MemorySessions({"anna": anna})
    return NodeAccess(store, store, KEYS, clock, SeededRandom(2)), store, clock


def test_a_new_login_on_the_same_server_replaces_the_old_one() -> None:
    access, store, _ = _access()
    store.heard["server-1"] = NOW
    first = access.log_in("server-1", "anna@example.org", CODE)
    assert first.session_id and access.established("server-1", first.session_id)
    second = access.log_in("server-1", "anna@example.org", CODE)
    assert second.refused is None and second.session_id != first.session_id
    assert not access.ended("server-1", first.session_id), "the old session's late goodbye frees nothing"
    assert [s.id for s in store.rows.values()] == [second.session_id]
    assert access.settle("server-1", {first.session_id: "anna", second.session_id: "anna"}) == [
        first.session_id
    ]


def test_the_eleventh_server_is_refused_and_a_silent_one_stops_counting() -> None:
    access, store, clock = _access()
    for n in range(MAX_SESSIONS):
        store.heard[f"server-{n}"] = NOW
        admitted = access.log_in(f"server-{n}", "anna@example.org", CODE)
        assert admitted.session_id and access.established(f"server-{n}", admitted.session_id)
    store.heard["server-10"] = NOW
    assert access.log_in("server-10", "anna@example.org", CODE).refused == "too_many_devices"
    clock.advance(seconds=31)
    for n in range(1, 11):
        store.heard[f"server-{n}"] = clock.now()
    assert access.log_in("server-10", "anna@example.org", CODE).refused is None, "server-0 went silent"


def test_a_wrong_code_or_another_address_is_refused() -> None:
    access, store, _ = _access()
    store.heard["server-1"] = NOW
    assert access.log_in("server-1", "bob@example.org", CODE).refused == "bad_credentials"
    assert access.log_in("server-1", "anna@example.org", "0" * 20).refused == "bad_credentials"
    assert not store.rows
