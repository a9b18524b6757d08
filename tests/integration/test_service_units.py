"""The systemd units, checked by systemd itself (`systemd-analyze verify`): the hub's and the VPN
server's, as `vpnsite systemd-unit` prints them and as `vpnsite vpn server-config` writes it."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.integration.processes import vpnsite

SHARED_HARDENING = (
    "NoNewPrivileges=yes",
    "ProtectSystem=strict",
    "ProtectHome=yes",
    "PrivateTmp=yes",
    "Restart=on-failure",
    "KillSignal=SIGTERM",
    "EnvironmentFile=-/etc/vpnsite/vpnsite.env",
    "ProtectKernelModules=yes",
    "LockPersonality=yes",
    "MemoryDenyWriteExecute=yes",
    "SystemCallFilter=@system-service",
)


@pytest.fixture
def verify(tmp_path: Path) -> Callable[[str, str], None]:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        reason = "systemd-analyze is not installed (Debian package systemd)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + " (CI=true: the units must be verified)")
        pytest.skip(reason)

    def check(text: str, name: str) -> None:
        unit = tmp_path / name
        unit.write_text(text)
        result = subprocess.run([tool, "verify", str(unit)], capture_output=True, text=True, timeout=60)
        # verify exits 0 on an unknown key or a bad value, but says so: any word from it is a defect.
        assert result.returncode == 0 and not result.stderr.strip(), result.stderr

    return check


def _settings(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))


def _unit(*args: str, env: dict[str, str]) -> str:
    result = vpnsite("systemd-unit", *args, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_hub_unit_runs_the_installed_vpnsite_as_a_dynamic_user_with_nothing_but_its_data(
    verify: Callable[[str, str], None], tmp_path: Path
) -> None:
    env = {**os.environ}
    text = _unit("hub", env=env)
    verify(text, "vpnsite.service")
    for line in (*SHARED_HARDENING, "DynamicUser=yes", "StateDirectory=vpnsite", "CapabilityBoundingSet="):
        assert line in text.splitlines(), line
    settings = _settings(text)
    executable = settings["ExecStart"].split()[0]
    assert Path(executable).is_absolute() and os.access(executable, os.X_OK)
    assert settings["ExecStart"].endswith("--data-dir /var/lib/vpnsite serve")
    assert int(settings["TimeoutStopSec"]) > 10, "longer than the hub's own graceful shutdown"
    assert "ReadWritePaths" not in settings, "the state directory is the only place it writes"
    assert set(settings["RestrictAddressFamilies"].split()) == {"AF_INET", "AF_INET6", "AF_UNIX"}
    assert not (tmp_path / "vpnsite-data").exists(), "printing a unit creates no data directory"


def test_the_hub_unit_for_a_given_user_writes_only_its_data_directory(
    verify: Callable[[str, str], None],
) -> None:
    text = _unit("hub", "--user", "vpnsite", "--data-dir", "/srv/vpnsite", env={**os.environ})
    verify(text, "vpnsite.service")
    settings = _settings(text)
    assert settings["User"] == "vpnsite" and "DynamicUser" not in settings
    assert settings["ReadWritePaths"] == "/srv/vpnsite"
    assert settings["ExecStart"].endswith("--data-dir /srv/vpnsite serve")


def test_a_unit_with_a_place_systemd_cannot_give_is_refused_with_a_message() -> None:
    for args in (
        ("hub", "--data-dir", "/srv/vpnsite"),
        ("hub", "--data-dir", "relative"),
        ("node", "--dir", "/a b"),
    ):
        result = vpnsite("systemd-unit", *args, env={**os.environ})
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.startswith("vpnsite: ") and "Traceback" not in result.stderr


def test_the_node_unit_keeps_only_what_openvpn_forwarding_and_nat_need(
    verify: Callable[[str, str], None],
) -> None:
    text = _unit("node", "--dir", "/etc/vpnsite-node", env={**os.environ})
    verify(text, "vpnsite-node.service")
    for line in (*SHARED_HARDENING, "ReadWritePaths=/etc/vpnsite-node", "DeviceAllow=/dev/net/tun rw"):
        assert line in text.splitlines(), line
    settings = _settings(text)
    assert settings["ExecStart"].endswith("node run --dir /etc/vpnsite-node")
    assert set(settings["CapabilityBoundingSet"].split()) <= {
        "CAP_NET_ADMIN",
        "CAP_NET_BIND_SERVICE",
        "CAP_SETUID",
        "CAP_SETGID",
        "CAP_KILL",
        "CAP_SYS_NICE",
    }
    assert "AF_NETLINK" in settings["RestrictAddressFamilies"], "nft and ip speak netlink"
    # Forwarding is a write under /proc/sys, and OpenVPN needs /dev/net/tun.
    assert "ProtectKernelTunables" not in settings and "PrivateDevices" not in settings


def test_server_config_writes_the_same_node_unit(verify: Callable[[str, str], None], tmp_path: Path) -> None:
    env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp_path / "data")}
    for args in (
        ("vpn", "init"),
        ("vpn", "add-server", "nl-ams-1", "--country", "nl", "--city", "Amsterdam", "--host", "203.0.113.10"),
        ("vpn", "server-config", "nl-ams-1", "--out", str(tmp_path / "node"), "--hub", "https://hub.example"),
    ):
        result = vpnsite(*args, env=env, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    written = (tmp_path / "node" / "vpnsite-node.service").read_text()
    verify(written, "vpnsite-node.service")
    printed = _unit("node", env=env)
    assert written.replace("vpnsite VPN server nl-ams-1", "vpnsite VPN server") == printed
