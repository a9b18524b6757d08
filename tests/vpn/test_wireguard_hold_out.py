"""A WireGuard device its owner disconnects on the devices page stays off its server — across a
restart of the server's node and past the ten minutes the node used to hold it out for — and is
back when its owner connects it again (real wireguard-go on both ends, in namespaces). The hub's
clock is moved as tests/support/moved_clock.py moves it, in a hub restarted for this."""

from __future__ import annotations

import os
from typing import Any

import pytest
import requests

from tests.support import moved_clock
from tests.vpn.test_real_openvpn import wireguard_up
from tests.vpn.world import WIREGUARD, World, poll

ELEVEN_MINUTES = 11 * 60


def restart_hub_with_a_moved_clock(world: World) -> Any:
    """Stop the hub (its PID), start it again reading its clock's offset from a file."""
    assert world.hub is not None
    world.hub.terminate()
    assert world.hub.wait(timeout=30) == 0
    clock = world.tmp / "hub-clock"
    clock.write_text("0")
    env = {**world.env, moved_clock.VARIABLE: str(clock)}
    world.start_hub(env, launcher=moved_clock.LAUNCHER)
    return clock


def test_a_disconnected_wireguard_device_stays_out_until_its_owner_connects_it_again(world: World) -> None:
    if not WIREGUARD:
        if os.environ.get("CI") == "true":
            pytest.fail("wireguard-go and wireguard-tools are needed under CI=true")
        pytest.skip("wireguard-go and wireguard-tools are not installed")
    clock = restart_hub_with_a_moved_clock(world)

    def reaches_server() -> bool:
        return world.net.run(world.client_a, "ping", "-c", "1", "-W", "1", "10.66.0.1").returncode == 0

    def listed(path: str, **more: str) -> dict[str, Any]:
        answer = requests.post(world.hub_url + path, json={**owner, **more}, timeout=10)
        assert answer.status_code == 200, answer.text
        return answer.json()  # type: ignore[no-any-return]

    email = "held-out@example.org"
    code, profiles = world.sign_up(email)
    owner = {"email": email, "activation_code": code}
    wireguard_up(world, profiles["wireguard/vpn-a.conf"])
    try:
        assert poll(reaches_server, 20), "the node adds the licence's peer and the tunnel carries a ping"
        assert poll(lambda: [d["protocol"] for d in listed("/api/devices")["devices"]] == ["wireguard"], 15)
        (device,) = listed("/api/devices")["devices"]
        freed = listed("/api/devices/disconnect", session=device["session"])
        assert freed["in_use"] == 0 and [held["server"]["id"] for held in freed["held_out"]] == ["vpn-a"]
        assert poll(lambda: not reaches_server(), 20), "the server drops the peer"

        world.stop_node("vpn-a")  # SIGTERM to the PID the world started, as an operator's restart
        moved_clock.move(clock, ELEVEN_MINUTES)
        world.start_node("vpn-a", world.a, world.node_dirs["vpn-a"])
        world.wait_until_serving()
        log = world.tmp / "vpn-a-node.log"
        assert poll(lambda: "WireGuard interface wg0 is up" in log.read_text(errors="replace"), 20)
        assert not poll(reaches_server, 20), "a restarted node, eleven minutes on: still out"
        assert listed("/api/devices")["devices"] == [], "and no device of the licence"
        assert [held["server"]["id"] for held in listed("/api/devices")["held_out"]] == ["vpn-a"]

        again = listed("/api/devices/connect-again", server="vpn-a")
        assert again["held_out"] == []
        assert poll(reaches_server, 60), "back at its next handshake once its owner connects it again"
        assert poll(lambda: [d["protocol"] for d in listed("/api/devices")["devices"]] == ["wireguard"], 15)
    finally:
        world.net.run(world.client_a, "ip", "link", "delete", "wgc")
