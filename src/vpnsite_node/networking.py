"""The server's side of "everything goes through the VPN": packet forwarding, and NAT from the
tunnel subnets to the server's own address — with nftables, or iptables where nftables is
missing. The rules live in a table (or carry a comment) of their own and leave with the node."""

from __future__ import annotations

import logging
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

log = logging.getLogger("vpnsite.node")

TABLE = "vpnsite"
COMMENT = "vpnsite-node"


class NetworkingError(Exception):
    pass


def _run(args: Sequence[str], stdin: str | None = None) -> None:
    result = subprocess.run(list(args), input=stdin, capture_output=True, text=True)
    if result.returncode != 0:
        raise NetworkingError(f"{' '.join(args[:3])}: {result.stderr.strip() or result.returncode}")


def _nft_table(family: str, subnets: Sequence[str]) -> str:
    listed = ", ".join(subnets)
    return (
        f"table {family} {TABLE}\n"
        f"delete table {family} {TABLE}\n"
        f"table {family} {TABLE} {{\n"
        "  chain postrouting {\n"
        "    type nat hook postrouting priority srcnat; policy accept;\n"
        f"    {family} saddr {{ {listed} }} {family} daddr != {{ {listed} }} masquerade\n"
        "  }\n"
        "}\n"
    )


class Nat:
    def __init__(self, subnets: Sequence[str], subnets6: Sequence[str]) -> None:
        self.subnets = list(subnets)
        self.subnets6 = list(subnets6)
        self.tool = "nft" if shutil.which("nft") else "iptables" if shutil.which("iptables") else None

    def up(self) -> None:
        Path("/proc/sys/net/ipv4/ip_forward").write_text("1\n")
        if self.subnets6:
            Path("/proc/sys/net/ipv6/conf/all/forwarding").write_text("1\n")
        if self.tool is None:
            raise NetworkingError("neither nft nor iptables is installed (apt-get install nftables)")
        for family, subnets in (("ip", self.subnets), ("ip6", self.subnets6)):
            if not subnets:
                continue
            if self.tool == "nft":
                _run(["nft", "-f", "-"], _nft_table(family, subnets))
            else:
                command = "iptables" if family == "ip" else "ip6tables"
                self._iptables(command, "-D", subnets, check=False)
                self._iptables(command, "-A", subnets, check=True)
        log.info("forwarding on; NAT for %s with %s", ", ".join(self.subnets + self.subnets6), self.tool)

    def _iptables(self, command: str, action: str, subnets: Sequence[str], check: bool) -> None:
        for subnet in subnets:
            rule = [command, "-t", "nat", action, "POSTROUTING", "-s", subnet, "!", "-d", subnet]
            rule += ["-m", "comment", "--comment", COMMENT, "-j", "MASQUERADE"]
            try:
                _run(rule)
            except NetworkingError:
                if check:
                    raise

    def down(self) -> None:
        for family, subnets in (("ip", self.subnets), ("ip6", self.subnets6)):
            if not subnets:
                continue
            if self.tool == "nft":
                subprocess.run(["nft", "delete", "table", family, TABLE], capture_output=True)
            elif self.tool == "iptables":
                self._iptables("iptables" if family == "ip" else "ip6tables", "-D", subnets, check=False)
