"""The server's WireGuard interface (experimental): the kernel's where it has one, wireguard-go
where it does not. Its peers are the hub's live licences, which the agent keeps in sync."""

from __future__ import annotations

import logging
import shutil
import subprocess

from vpnsite_adapters.node.config import WireguardSetup
from vpnsite_adapters.node.networking import NetworkingError

log = logging.getLogger("vpnsite.node")


def _ip(*args: str, check: bool = True) -> bool:
    result = subprocess.run(["ip", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise NetworkingError(f"ip {' '.join(args)}: {result.stderr.strip()}")
    return result.returncode == 0


class WireguardInterface:
    def __init__(self, setup: WireguardSetup) -> None:
        self.setup = setup

    def up(self) -> None:
        name = self.setup.interface
        _ip("link", "delete", name, check=False)
        if not _ip("link", "add", name, "type", "wireguard", check=False):
            if shutil.which("wireguard-go") is None:
                raise NetworkingError("no WireGuard in this kernel and no wireguard-go installed")
            subprocess.run(["wireguard-go", name], capture_output=True, check=True)
        subprocess.run(["wg", "setconf", name, self.setup.config], capture_output=True, check=True)
        _ip("address", "add", self.setup.address, "dev", name)
        _ip("link", "set", name, "up")
        log.info("WireGuard interface %s is up", name)

    def down(self) -> None:
        _ip("link", "delete", self.setup.interface, check=False)
