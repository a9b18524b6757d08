"""One small internet per test module (tests/vpn/world.py). These tests need root, /dev/net/tun,
openvpn and nftables (or iptables); outside CI they skip with the reason, under CI=true they
must run."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.vpn.world import WIREGUARD, World, missing


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
        yield built
    finally:
        built.close()
