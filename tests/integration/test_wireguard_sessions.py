"""WireGuard peers as devices on a VPN server's node (node/wireguard_sessions.py): connected while
their handshakes are fresh, one session id for as long as they stay, ended ones off until the hub
lists them again. `sync` runs `wg` on an interface that does not exist here: it says so in a
warning, and what it learns of the hub's list is what these tests look at."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vpnsite_node.wireguard_sessions import QUIET_AFTER, WireguardSessions

NOW = 1_800_000_000.0
KEYS = [f"key-{n}=" for n in range(6)]


class Interface:
    def __init__(self) -> None:
        self.handshakes: dict[str, float] = {}
        self.now = NOW

    def sessions(self) -> WireguardSessions:
        return WireguardSessions("wgtest", lambda _: dict(self.handshakes), lambda: self.now)


@given(st.dictionaries(st.sampled_from(KEYS), st.floats(min_value=0, max_value=2 * QUIET_AFTER)))
def test_a_peer_is_a_connected_device_while_its_handshakes_are_fresh(ages: dict[str, float]) -> None:
    interface = Interface()
    interface.handshakes = {key: (NOW - age if age else 0.0) for key, age in ages.items()}
    peers = interface.sessions()
    listed = {key: (f"10.66.0.{n + 2}/32", f"licence-{n}") for n, key in enumerate(KEYS)}
    peers.sync(listed)
    held = peers.held()
    fresh = {f"licence-{KEYS.index(key)}" for key, age in ages.items() if age and age < QUIET_AFTER}
    assert {licence for _, licence, _ in held} == fresh
    assert {protocol for _, _, protocol in held} <= {"wireguard"}
    assert len({session for session, _, _ in held}) == len(held), "one session each"
    assert peers.held() == held, "the same session while it stays connected"


def test_a_peer_unknown_to_the_hub_is_no_device() -> None:
    interface = Interface()
    interface.handshakes = {KEYS[0]: NOW - 5}
    peers = interface.sessions()
    peers.sync({})
    assert peers.held() == []


def test_a_peer_the_hub_ended_stays_off_until_the_hub_lists_it_again_whatever_the_node_forgets() -> None:
    interface = Interface()
    interface.handshakes = {KEYS[0]: NOW - 5, KEYS[1]: NOW - 5}
    peers = interface.sessions()
    listed = {KEYS[0]: ("10.66.0.2/32", "anna"), KEYS[1]: ("10.66.0.3/32", "bob")}
    peers.sync(listed)
    (anna, *_), (bob, *_) = sorted(peers.held(), key=lambda held: held[1])
    assert peers.end([anna, "another-servers-session"]) == 1
    assert [licence for _, licence, _ in peers.held()] == ["bob"], "not reported again before the sync"
    held_out = {KEYS[1]: listed[KEYS[1]]}  # the hub's list holds anna's peer out
    for node in (peers, interface.sessions()):  # and so does a restarted node, which knew nothing
        interface.now += 3600
        interface.handshakes = {KEYS[0]: interface.now - 1, KEYS[1]: interface.now - 1}
        node.sync(held_out)
        assert [licence for _, licence, _ in node.held()] == ["bob"]
    peers.sync(listed)  # its owner connected it again
    assert sorted(licence for _, licence, _ in peers.held()) == ["anna", "bob"]
    assert anna not in [session for session, _, _ in peers.held()], "a session of its own"
