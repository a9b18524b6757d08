"""The agent on each VPN server: every ten seconds it tells the hub how the server is doing."""

from __future__ import annotations

import json
import logging
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from vpnsite.fleet import HEARTBEAT_PERIOD, Heartbeat

log = logging.getLogger("vpnsite.agent")

POST_TIMEOUT = 5.0
STATUS_FRESH_SECONDS = 120


class NodeAgent:
    def __init__(
        self,
        hub: str,
        token: str,
        measure: Callable[[], Heartbeat],
        interval: float = HEARTBEAT_PERIOD.total_seconds(),
        name: str = "node-agent",
        deny_list: Path | None = None,
        wireguard_interface: str | None = None,
    ) -> None:
        self.url = hub.rstrip("/") + "/api/node/heartbeat"
        self.token = token
        self.measure = measure
        self.interval = interval
        self.name = name
        self.deny_list = deny_list
        self.wireguard_interface = wireguard_interface
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def beat(self) -> bool:
        beat = self.measure()
        body = json.dumps(
            {
                "cpu_load": round(beat.cpu_load, 1),
                "bandwidth_mbps": round(beat.bandwidth_mbps, 2),
                "sessions": beat.sessions,
                "service_up": beat.service_up,
            }
        ).encode()
        request = urllib.request.Request(
            self.url,
            data=body,
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=POST_TIMEOUT) as response:  # noqa: S310
                return bool(response.status == 200)
        except urllib.error.HTTPError as error:
            log.warning("%s: the hub answered %s", self.name, error.code)
        except OSError as error:
            log.warning("%s: the hub is unreachable (%s)", self.name, type(error).__name__)
        return False

    def sync_deny_list(self) -> None:
        """Copy the hub's list of refused licences next to the server's hooks (atomically)."""
        if self.deny_list is None:
            return
        request = urllib.request.Request(
            self.url.replace("/heartbeat", "/deny-list"), headers={"Authorization": f"Bearer {self.token}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=POST_TIMEOUT) as response:  # noqa: S310
                body = response.read()
        except OSError as error:
            log.warning("%s: deny list not refreshed (%s)", self.name, type(error).__name__)
            return
        partial = self.deny_list.with_suffix(".partial")
        partial.write_bytes(body)
        partial.replace(self.deny_list)

    def sync_wireguard_peers(self) -> None:
        """Make the interface's peers the hub's list: new licences in, ended ones out."""
        if self.wireguard_interface is None:
            return
        request = urllib.request.Request(
            self.url.replace("/heartbeat", "/wireguard-peers"),
            headers={"Authorization": f"Bearer {self.token}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=POST_TIMEOUT) as response:  # noqa: S310
                wanted = {
                    peer["public_key"]: peer["allowed_ips"] for peer in json.loads(response.read())["peers"]
                }
            shown = subprocess.run(
                ["wg", "show", self.wireguard_interface, "peers"], capture_output=True, text=True, check=True
            ).stdout.split()
            for key in set(shown) - set(wanted):
                subprocess.run(["wg", "set", self.wireguard_interface, "peer", key, "remove"], check=True)
            for key, allowed in wanted.items():
                if key not in shown:
                    subprocess.run(
                        ["wg", "set", self.wireguard_interface, "peer", key, "allowed-ips", allowed],
                        check=True,
                    )
        except (OSError, ValueError, KeyError, subprocess.CalledProcessError) as error:
            log.warning("%s: WireGuard peers not synced (%s)", self.name, type(error).__name__)

    def run(self) -> None:
        """Beat until stopped; after a failure try again sooner, so a restarted hub hears at once."""
        while not self._stop.is_set():
            delivered = self.beat()
            if delivered:
                self.sync_deny_list()
                self.sync_wireguard_peers()
            self._stop.wait(self.interval if delivered else min(2.0, self.interval))

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=POST_TIMEOUT + 1)


class HostMeasure:
    """Load and traffic of this host from /proc, sessions from OpenVPN's status file."""

    def __init__(self, openvpn_status: Path | None = None) -> None:
        self.openvpn_status = openvpn_status
        self._cpu = _cpu_times()
        self._net = (_net_bytes(), time.monotonic())

    def __call__(self) -> Heartbeat:
        cpu = _cpu_times()
        busy, total = cpu[0] - self._cpu[0], cpu[1] - self._cpu[1]
        self._cpu = cpu
        moved, now = _net_bytes(), time.monotonic()
        seconds = max(now - self._net[1], 1e-6)
        mbps = max(0.0, (moved - self._net[0]) * 8 / seconds / 1e6)
        self._net = (moved, now)
        sessions, up = self._openvpn()
        return Heartbeat(
            cpu_load=min(100.0, max(0.0, 100.0 * busy / total if total else 0.0)),
            bandwidth_mbps=min(mbps, 1e6),
            sessions=sessions,
            service_up=up,
        )

    def _openvpn(self) -> tuple[int, bool]:
        if self.openvpn_status is None:
            return 0, True
        try:
            stat = self.openvpn_status.stat()
            text = self.openvpn_status.read_text(errors="replace")
        except OSError:
            return 0, False
        fresh = time.time() - stat.st_mtime < STATUS_FRESH_SECONDS
        sessions = sum(1 for line in text.splitlines() if line.startswith("CLIENT_LIST"))
        return sessions, fresh


def _cpu_times() -> tuple[int, int]:
    try:
        fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


def _net_bytes() -> int:
    try:
        lines = Path("/proc/net/dev").read_text().splitlines()[2:]
    except OSError:
        return 0
    total = 0
    for line in lines:
        name, _, data = line.partition(":")
        if name.strip() != "lo":
            fields = data.split()
            total += int(fields[0]) + int(fields[8])
    return total
