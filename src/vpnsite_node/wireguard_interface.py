"""The server's WireGuard interface (experimental): the kernel's where it has one, wireguard-go
where it does not. Its peers are the hub's live licences, which the agent keeps in sync."""

from __future__ import annotations

import logging
import shutil
import subprocess

from vpnsite_node.config import WireguardSetup
from vpnsite_node.networking import NetworkingError

log = logging.getLogger("vpnsite.node")


def _ip(*args: str, check: bool = True) -> bool:
    result = subprocess.run(["ip", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise NetworkingError(f"ip {' '.join(args)}: {result.stderr.strip()}")
    return result.returncode == 0


def _tool(*args: str) -> None:
    """Run a WireGuard tool; when it fails, its own words (say, "UAPI listen error: unix socket
    in use"), not an exit status, and not the banner wireguard-go draws around its warnings."""
    result = subprocess.run(list(args), capture_output=True, text=True)
    if result.returncode == 0:
        return
    lines = [line.strip() for line in (result.stderr + result.stdout).splitlines()]
    said = [line for line in lines if line and not line.startswith(("┌", "│", "└"))]
    errors = [line for line in said if "error" in line.lower()]
    cause = (errors or said or [f"exit status {result.returncode}"])[-1]
    raise NetworkingError(f"{' '.join(args[:2])}: {cause}")


class WireguardMissing(NetworkingError):
    """This machine cannot run WireGuard: the package to install is named."""


def missing_package(kernel_has_wireguard: bool) -> str | None:
    """What this machine lacks for WireGuard: `wg` comes with wireguard-tools; without WireGuard
    in the kernel, wireguard-go runs it in user space."""
    if shutil.which("wg") is None:
        return "wireguard-tools"
    if not kernel_has_wireguard and shutil.which("wireguard-go") is None:
        return "wireguard-go"
    return None


class WireguardInterface:
    def __init__(self, setup: WireguardSetup) -> None:
        self.setup = setup

    def up(self) -> None:
        name = self.setup.interface
        _ip("link", "delete", name, check=False)
        in_kernel = _ip("link", "add", name, "type", "wireguard", check=False)
        lacking = missing_package(in_kernel)
        if lacking is not None:
            _ip("link", "delete", name, check=False)
            raise WireguardMissing(lacking)
        if not in_kernel:
            _tool("wireguard-go", name)
        _tool("wg", "setconf", name, self.setup.config)
        _ip("address", "add", self.setup.address, "dev", name)
        _ip("link", "set", name, "up")
        log.info("WireGuard interface %s is up", name)

    def down(self) -> None:
        _ip("link", "delete", self.setup.interface, check=False)
