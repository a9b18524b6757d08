"""One OpenVPN server process under the node: started unprivileged after set-up, answered
through its management socket, restarted when it dies, and heard only through a filter that
keeps client addresses and e-mails out of the log."""

from __future__ import annotations

import contextlib
import ctypes
import grp
import logging
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

from vpnsite_node.config import Instance
from vpnsite_node.gatekeeper import Gatekeeper
from vpnsite_node.log_privacy import scrub, worth_logging
from vpnsite_node.management import Management

log = logging.getLogger("vpnsite.node")

ATTACH_SECONDS = 15.0
EXIT_SECONDS = 5.0
MAX_BACKOFF = 30.0
HEALTHY_RUN = 60.0
_PR_SET_PDEATHSIG = 1
DATA_PLANE_PRIORITY = -5


def _prepare_child() -> None:
    """A parent-death signal for the time before OpenVPN drops to its user (the kernel clears it
    then; the node's PID namespace, node/containment.py, is what ends OpenVPN with a node killed
    outright); and the tunnels' traffic is scheduled ahead of the node's own work, logins included."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, DATA_PLANE_PRIORITY)


def unprivileged_group(user: str) -> str:
    """Debian calls nobody's group nogroup; most others call it nobody."""
    if user != "nobody":
        return user
    try:
        grp.getgrnam("nogroup")
        return "nogroup"
    except KeyError:
        return "nobody"


def data_channel_offload(line: str) -> tuple[bool, str] | None:
    """What an OpenVPN 2.6 line says of data channel offload: (in use, why); None if nothing.
    At start it prints "DCO version: …" — "N/A" when the kernel has no ovpn-dco module — and it
    names an option that turns DCO off ("Note: --… disables data channel offload")."""
    if "DCO version:" in line:
        version = line.partition("DCO version:")[2].strip()
        if version == "N/A":
            return False, "the kernel has no ovpn-dco module (modprobe ovpn-dco-v2)"
        return True, f"ovpn-dco {version}"
    if "data channel offload" in line and ("disabl" in line or "not " in line):
        return False, line.strip()
    return None


def host_pid(pid: int) -> int:
    """The host's id of our child ``pid``. The node runs in a PID namespace of its own
    (containment.py) while /proc is the host's: /proc/self/task/*/children lists the host's ids,
    and each one's NSpid line ends with the id this namespace knows it by."""
    for children in Path("/proc/self/task").glob("*/children"):
        with contextlib.suppress(OSError):
            for child in children.read_text().split():
                status = Path(f"/proc/{child}/status").read_text()
                for line in status.splitlines():
                    if line.startswith("NSpid:") and line.split()[-1] == str(pid):
                        return int(child)
    return pid


def openvpn_command(instance: Instance, user: str) -> list[str]:
    """How the node starts an instance's OpenVPN, in the server's directory."""
    return [
        "openvpn",
        "--config",
        instance.config,
        "--suppress-timestamps",
        # OpenVPN serves nobody until the node has attached and released it: in the moment
        # between its start and the node's attaching, a client back by its session token would
        # be let in by OpenVPN alone, a connection the hub never hears of.
        "--management-hold",
        "--user",
        user,
        "--group",
        unprivileged_group(user),
    ]


class OpenVpnInstance:
    def __init__(
        self, instance: Instance, gatekeeper: Gatekeeper, user: str, stopping: threading.Event
    ) -> None:
        self.instance = instance
        self.name = f"openvpn-{instance.protocol}"
        self.gatekeeper = gatekeeper
        self.user = user
        self.stopping = stopping
        self.management = Management(self.name, Path(instance.management), gatekeeper.on_event)
        self.process: subprocess.Popen[bytes] | None = None
        # Whether the data channel is offloaded to the kernel, as OpenVPN said at its start.
        self.dco: bool | None = None
        self._thread = threading.Thread(target=self._supervise, name=self.name, daemon=True)

    @property
    def up(self) -> bool:
        return self.management.connected.is_set()

    def start(self) -> None:
        self._thread.start()

    def _supervise(self) -> None:
        backoff = 1.0
        while not self.stopping.is_set():
            started = time.monotonic()
            code = self._run_once()
            if self.stopping.is_set():
                break
            backoff = 1.0 if time.monotonic() - started > HEALTHY_RUN else min(backoff * 2, MAX_BACKOFF)
            log.warning("%s exited (%s); starting it again in %.0f s", self.name, code, backoff)
            self.stopping.wait(backoff)

    def _run_once(self) -> int | None:
        Path(self.instance.management).unlink(missing_ok=True)
        process = subprocess.Popen(
            openvpn_command(self.instance, self.user),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            preexec_fn=_prepare_child,
        )
        self.process = process
        self.dco = None
        self._write_pid(process.pid)
        reader = threading.Thread(target=self._relay, args=(process,), name=f"{self.name}-log", daemon=True)
        reader.start()
        deadline = time.monotonic() + ATTACH_SECONDS
        attached = False
        while process.poll() is None and not self.stopping.is_set() and time.monotonic() < deadline:
            if self.management.attach(timeout=1.0):
                attached = True
                break
            time.sleep(0.1)
        if attached:
            log.info("%s is up and hands its logins to the node", self.name)
            self.management.serve()
        else:
            log.warning("%s never opened its management socket", self.name)
        self.gatekeeper.instance_lost(self.management)
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(timeout=1)
        Path(self.instance.pid_file).unlink(missing_ok=True)
        return process.returncode

    def _write_pid(self, pid: int) -> None:
        """The process's id as the host sees it, for whoever must signal this OpenVPN and no
        other (a command-line pattern would match every vpnsite server on the host)."""
        Path(self.instance.pid_file).write_text(f"{host_pid(pid)}\n")

    def _relay(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            line = raw.decode(errors="replace").rstrip()
            offload = data_channel_offload(line)
            if offload is not None:
                self._offload(*offload)
            if line and worth_logging(line):
                log.info("%s: %s", self.name, scrub(line))

    def _offload(self, used: bool, why: str) -> None:
        """Say once per start whether this instance's data channel runs in the kernel, and keep
        it as a metric (node_exporter's textfile format) beside the pid file."""
        if self.dco is False or used == self.dco:
            return  # an option that turned it off has the last word
        self.dco = used
        log.info("%s: data channel offload (DCO) %s: %s", self.name, "on" if used else "off", why)
        metric = Path(self.instance.pid_file).with_suffix(".prom")
        metric.write_text(
            "# HELP vpnsite_node_openvpn_dco Whether the data channel runs in the kernel (ovpn-dco).\n"
            "# TYPE vpnsite_node_openvpn_dco gauge\n"
            f'vpnsite_node_openvpn_dco{{instance="{self.name}"}} {int(used)}\n'
        )

    def stop(self) -> None:
        process = self.process
        if process is not None and process.poll() is None:
            process.terminate()

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)
