"""One small internet per test module (tests/vpn/world.py). These tests need root, /dev/net/tun,
openvpn and nftables (or iptables); outside CI they skip with the reason, under CI=true they
must run."""

from __future__ import annotations

import os
import signal
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.vpn.netns import Namespaces, traces_on_this_host, wait_for
from tests.vpn.world import NETWORKS, WIREGUARD, World, missing


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    ours = [item for item in items if "tests/vpn/" in str(item.path)]
    reason = missing()
    if reason is None or not ours:
        return
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{reason} — under CI=true the OpenVPN tests must run")
    for item in ours:
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[World]:
    """A module may ask for server B to renegotiate on its own, every ``SERVER_RENEG_SECONDS``."""
    reneg = getattr(request.module, "SERVER_RENEG_SECONDS", None)
    built = World(tmp_path_factory.mktemp("vpn"), wireguard=WIREGUARD, server_reneg_seconds=reneg)
    try:
        built.build()
        # A browser on this host, loading a page as the network changes, fails it (netns.py).
        assert not traces_on_this_host(built.net.prefix, NETWORKS), "the world changed this host's network"
        yield built
    finally:
        built.close()


@pytest.fixture(scope="session", autouse=True)
def bystander(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Another vpnsite server on the same host, which has nothing to do with the tests (a live
    deployment, say): its node and its OpenVPN processes are still the same ones after the suite."""
    if missing() is not None:
        yield
        return
    tmp = tmp_path_factory.mktemp("bystander")
    env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp / "hub")}
    env.pop("VPNSITE_DATABASE_URL", None)
    setup = World(tmp, wireguard=False)
    setup.env = env
    setup.vpnsite("vpn", "init")
    setup.vpnsite("migrate")
    setup.vpnsite(
        "vpn",
        "add-server",
        "bystander",
        "--country",
        "nl",
        "--city",
        "Delft",
        "--host",
        "192.0.2.9",
        "--wg-port",
        "0",
    )
    directory = tmp / "node"
    # Nobody answers at this hub: the node serves its clients' tunnels all the same.
    setup.vpnsite(
        "vpn",
        "server-config",
        "bystander",
        "--out",
        str(directory),
        "--hub",
        "http://127.0.0.1:9",
        "--insecure",
    )
    net = Namespaces(f"y{uuid.uuid4().hex[:4]}")
    namespace = net.add("n")
    log = tmp / "node.log"
    node = net.start(
        namespace,
        [
            sys.executable,
            "-m",
            "vpnsite_adapters.cli.main",
            "node",
            "run",
            "--dir",
            str(directory),
            "--no-nat",
        ],
        log,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        for protocol in ("udp", "tcp"):
            assert wait_for(log, f"openvpn-{protocol} is up", 40), log.read_text()
        pids = {path.name: path.read_text() for path in (directory / "run").glob("*.pid")}
        assert len(pids) == 2, pids
        yield
        assert node.poll() is None, "the unrelated node was stopped:\n" + log.read_text()[-2000:]
        now = {path.name: path.read_text() for path in (directory / "run").glob("*.pid")}
        assert now == pids, "the unrelated node's OpenVPN was killed and restarted"
        assert all(Path(f"/proc/{pid.strip()}").exists() for pid in now.values())
    finally:
        node.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 20
        while node.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        net.close()
