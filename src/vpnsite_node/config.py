"""`node.json`: everything `vpnsite node run` needs to know about its server, written by the
hub's `vpnsite vpn server-config` into the same self-contained directory as the keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from attrs import frozen

NODE_FILE = "node.json"
DENY_LIST = "denied-licences.txt"
KEY_CHECK = "verify-key.sh"
# Root's alone (0700): the management sockets live here.
RUN_DIR = "run"
IPV6_MODES = ("block", "route")
Ipv6Mode = Literal["block", "route"]


class NodeConfigError(Exception):
    pass


@frozen
class Instance:
    """One OpenVPN server process: its protocol, config file and client subnets."""

    protocol: str
    config: str
    subnet: str
    subnet6: str

    @property
    def management(self) -> str:
        return f"{RUN_DIR}/management-{self.protocol}.sock"

    @property
    def pid_file(self) -> str:
        return f"{RUN_DIR}/openvpn-{self.protocol}.pid"


@frozen
class WireguardSetup:
    interface: str
    config: str
    address: str
    subnet: str


@frozen
class NodeConfig:
    server: str
    hub: str
    token: str
    instances: tuple[Instance, ...]
    wireguard: WireguardSetup | None
    ipv6: Ipv6Mode
    # The public addresses clients' traffic leaves from, for the hub's "am I protected?" check.
    exit_addresses: tuple[str, ...] = ()
    # The website visitors use (the hub's VPNSITE_PUBLIC_URL): where a refused app sends its user.
    site: str = ""

    @property
    def subnets(self) -> list[str]:
        found = [instance.subnet for instance in self.instances]
        return found + ([self.wireguard.subnet] if self.wireguard else [])

    @property
    def subnets6(self) -> list[str]:
        return [instance.subnet6 for instance in self.instances] if self.ipv6 == "route" else []

    def to_json(self) -> str:
        def instance(i: Instance) -> dict[str, str]:
            return {"protocol": i.protocol, "config": i.config, "subnet": i.subnet, "subnet6": i.subnet6}

        wireguard: dict[str, Any] | None = None
        if self.wireguard is not None:
            w = self.wireguard
            wireguard = {
                "interface": w.interface,
                "config": w.config,
                "address": w.address,
                "subnet": w.subnet,
            }
        return json.dumps(
            {
                "server": self.server,
                "hub": self.hub,
                "token": self.token,
                "openvpn": [instance(i) for i in self.instances],
                "wireguard": wireguard,
                "ipv6": self.ipv6,
                "exit_addresses": list(self.exit_addresses),
                "site": self.site,
            },
            indent=2,
        )

    @classmethod
    def load(cls, directory: Path) -> NodeConfig:
        path = directory / NODE_FILE
        try:
            raw = json.loads(path.read_text())
            instances = tuple(
                Instance(str(i["protocol"]), str(i["config"]), str(i["subnet"]), str(i["subnet6"]))
                for i in raw["openvpn"]
            )
            wg = raw.get("wireguard")
            wireguard = (
                WireguardSetup(str(wg["interface"]), str(wg["config"]), str(wg["address"]), str(wg["subnet"]))
                if wg
                else None
            )
            ipv6 = raw.get("ipv6", "block")
            if ipv6 not in IPV6_MODES:
                raise NodeConfigError(f"{path}: ipv6 must be one of {', '.join(IPV6_MODES)}")
            exits = tuple(str(address) for address in raw.get("exit_addresses", []))
            return cls(
                str(raw["server"]),
                str(raw["hub"]),
                str(raw["token"]),
                instances,
                wireguard,
                ipv6,
                exits,
                str(raw.get("site", "")),
            )
        except FileNotFoundError:
            raise NodeConfigError(
                f"{path} is missing: write the directory with `vpnsite vpn server-config` on the hub"
            ) from None
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise NodeConfigError(f"{path} is unreadable ({type(error).__name__}: {error})") from None
