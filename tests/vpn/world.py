"""A small internet in network namespaces, set up as the README's "VPN servers" section says: a
real `vpnsite serve` hub, two VPN servers each run by `vpnsite node run --dir` from a directory
`vpnsite vpn server-config` wrote (copied elsewhere first, as an operator copies it to the
server), one client namespace per server, and a web server behind server A that clients reach
only through the tunnel.

    [hub] 203.0.113.1 ── 203.0.113.2 [A] 10.77.2.1 ── 10.77.2.2 [client-a]
                                   10.77.5.1 ── 10.77.5.2 [internet]  web :8080
    [hub] 10.77.3.1 ── 10.77.3.2 [B] 10.77.4.1 ── 10.77.4.2 [client-b]

The hub runs in a namespace of its own too, so that building this changes nothing on the host
(netns.py says why); the tests reach it as its visitors do, at ``hub_url``, through a doorway.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
import zipfile
from pathlib import Path

import requests

from tests.integration.processes import free_port
from tests.support.serve import VPNSITE, serve
from tests.vpn.netns import Doorway, Namespaces, wait_for

WIREGUARD = shutil.which("wireguard-go") is not None and shutil.which("wg") is not None
# The networks this world's addresses are in (its servers', clients', hub's and internet's).
NETWORKS = ("10.77.", "203.0.113.", "2001:db8:")
CONNECTED = "Initialization Sequence Completed"
REFUSED = "AUTH_FAILED"
INTERNET = "10.77.5.2"
SERVER_A_EXIT = "10.77.5.1"
CLIENT_ADDRESSES = ("10.77.2.2", "10.77.4.2", "2001:db8:2::2")
# An IPv6 address beyond client-a's own link, reached through its router (server A's link) —
# the path a leak would take while the tunnel is up.
OFF_LINK_V6 = "2001:db8:99::1"
# The hub's IPv6 address on its link to server B; it has no route back to the tunnel's subnet.
HUB_V6 = "2001:db8:3::1"
# Where server A's clients' traffic reaches the hub from: its NAT leaves by its link to the hub.
SERVER_A_HUB_SIDE = "203.0.113.2"
# The hub's address on that link: on the internet, as server A sees it (the hub learns A's exit
# address from its heartbeats, and learns none from a private address).
HUB_ON_A_LINK = "203.0.113.1"

# The page's server answers with the address the request came from.
WEB_SERVER = """
import http.server, sys
class Echo(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = self.client_address[0].encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("0.0.0.0", 8080), Echo).serve_forever()
"""


def missing() -> str | None:
    if os.geteuid() != 0:
        return "needs root for network namespaces"
    if not Path("/dev/net/tun").exists():
        return "needs /dev/net/tun"
    for tool in ("openvpn", "ip", "ping"):
        if shutil.which(tool) is None:
            return f"needs {tool} (apt-get install openvpn iproute2 iputils-ping)"
    if shutil.which("nft") is None and shutil.which("iptables") is None:
        return "needs nftables or iptables"
    return None


class World:
    def __init__(self, tmp: Path, wireguard: bool, server_reneg_seconds: int | None = None) -> None:
        self.tmp = tmp
        self.server_reneg_seconds = server_reneg_seconds
        self.net = Namespaces(f"v{uuid.uuid4().hex[:4]}")
        self.port = free_port()
        # The servers call the hub on a listener of their own, as the README advises.
        self.node_port = free_port()
        self.env = {
            **os.environ,
            "VPNSITE_DATA_DIR": str(tmp / "hub"),
            "VPNSITE_RATE_LIMITS": "off",
            "VPNSITE_NODE_ADDRESS": f"0.0.0.0:{self.node_port}",
        }
        self.env.pop("VPNSITE_DATABASE_URL", None)
        self.doorways: list[Doorway] = []
        self.wireguard = wireguard
        self.clients = 0
        self.hub: subprocess.Popen[bytes] | None = None
        self.created: dict[str, dict[str, object]] = {}
        self.nodes: dict[str, subprocess.Popen[bytes]] = {}

    # -- the hub --------------------------------------------------------------------------------

    def vpnsite(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "-m", "vpnsite_adapters.cli.main", *args],
            env=self.env,
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    @property
    def hub_url(self) -> str:
        """Where this host's tests (and the links the hub writes) reach the hub's website."""
        assert self.doorways, "build() first"
        return f"http://127.0.0.1:{self.doorways[0].port}"

    @property
    def node_api_url(self) -> str:
        """Where this host's tests reach the listener the hub keeps for its servers."""
        return f"http://127.0.0.1:{self.doorways[1].port}"

    def start_hub(self, env: dict[str, str] | None = None, launcher: tuple[str, ...] = VPNSITE) -> None:
        """``env`` and ``launcher`` as :func:`serve` takes them; the world's own by default."""
        self.hub = serve(
            env or self.env,
            self.tmp / "hub.log",
            port=self.port,
            host="0.0.0.0",
            within=("ip", "netns", "exec", self.hub_namespace),
            reached_at=self.hub_url,
            launcher=launcher,
        ).process
        self.net.processes.append(self.hub)

    def db(self) -> sqlite3.Connection:
        return sqlite3.connect(self.tmp / "hub" / "vpnsite.db")

    def sessions(self, email: str, server: str | None = None) -> int:
        query = (
            "SELECT COUNT(*) FROM vpn_session JOIN licence ON licence.id = vpn_session.licence_id "
            "WHERE licence.email = ?" + (" AND vpn_session.server_id = ?" if server else "")
        )
        with self.db() as db:
            return int(db.execute(query, (email, server) if server else (email,)).fetchone()[0])

    # -- building it ----------------------------------------------------------------------------

    def build(self) -> None:
        net = self.net
        self.hub_namespace, self.a, self.b = net.add("h"), net.add("a"), net.add("b")
        self.client_a, self.client_b, self.internet = net.add("ca"), net.add("cb"), net.add("i")
        self.doorways = [Doorway(self.hub_namespace, port) for port in (self.port, self.node_port)]
        self.env["VPNSITE_PUBLIC_URL"] = self.hub_url
        net.link(self.hub_namespace, HUB_ON_A_LINK, self.a, SERVER_A_HUB_SIDE, "ha")
        net.link(self.hub_namespace, "10.77.3.1", self.b, "10.77.3.2", "hb")
        net.link(self.a, "10.77.2.1", self.client_a, "10.77.2.2", "ca")
        net.link(self.b, "10.77.4.1", self.client_b, "10.77.4.2", "cb")
        net.link(self.a, SERVER_A_EXIT, self.internet, INTERNET, "ai")
        for client, router in ((self.client_a, "10.77.2.1"), (self.client_b, "10.77.4.1")):
            assert net.run(client, "ip", "route", "add", "default", "via", router).returncode == 0
        # client-a also has IPv6 from its "ISP" (server A's link), which must not leak past the tunnel.
        for namespace, command in (
            (self.a, ["ip", "addr", "add", "2001:db8:2::1/64", "dev", f"{net.prefix}caa"[:15], "nodad"]),
            (self.a, ["ip", "addr", "add", f"{OFF_LINK_V6}/128", "dev", "lo"]),
            (
                self.client_a,
                ["ip", "addr", "add", "2001:db8:2::2/64", "dev", f"{net.prefix}cab"[:15], "nodad"],
            ),
            (self.client_a, ["ip", "-6", "route", "add", "default", "via", "2001:db8:2::1"]),
            # Server B routes its clients' IPv6 (server-config --ipv6 route) out of its link to the hub.
            (self.b, ["ip", "addr", "add", "2001:db8:3::2/64", "dev", f"{net.prefix}hbb"[:15], "nodad"]),
            (
                self.hub_namespace,
                ["ip", "addr", "add", f"{HUB_V6}/64", "dev", f"{net.prefix}hba"[:15], "nodad"],
            ),
        ):
            result = net.run(namespace, *command)
            assert result.returncode == 0, (command, result.stderr)
        net.start(self.internet, [sys.executable, "-c", WEB_SERVER], self.tmp / "web.log")

        self.vpnsite("vpn", "init")
        self.start_hub()
        for name, namespace, host, hub_address in (
            ("vpn-a", self.a, "10.77.2.1", HUB_ON_A_LINK),
            ("vpn-b", self.b, "10.77.4.1", "10.77.3.1"),
        ):
            wg_port = ["--wg-port", "51820"] if name == "vpn-a" and self.wireguard else ["--wg-port", "0"]
            self.vpnsite(
                "vpn",
                "add-server",
                name,
                "--country",
                "nl",
                "--city",
                "Amsterdam",
                "--host",
                host,
                *wg_port,
            )
            written = self.tmp / "written" / name
            ipv6 = ["--ipv6", "route"] if name == "vpn-b" else []
            self.vpnsite(
                "vpn",
                "server-config",
                name,
                "--out",
                str(written),
                "--hub",
                f"http://{hub_address}:{self.node_port}",
                "--insecure",  # the hub's node listener on the test's own network
                *ipv6,
            )
            # The operator copies the directory to the server: it must work from anywhere.
            installed = self.tmp / "servers" / name / "etc-vpnsite-node"
            shutil.copytree(written, installed)
            shutil.rmtree(written)
            if name == "vpn-b" and self.server_reneg_seconds:
                # An operator's own setting: server B starts each renegotiation itself.
                for config in installed.glob("server-*.conf"):
                    config.write_text(config.read_text() + f"reneg-sec {self.server_reneg_seconds}\n")
            # A careless copy: the node puts back what OpenVPN's unprivileged key check needs.
            installed.chmod(0o700)
            (installed / "verify-key.sh").chmod(0o600)
            self.start_node(name, namespace, installed)
        self.wait_until_serving()

    def start_node(self, name: str, namespace: str, directory: Path, path: str | None = None) -> None:
        """``path``: the node's PATH (the tools it finds), the host's by default."""
        self.nodes[name] = self.net.start(
            namespace,
            [
                sys.executable,
                "-m",
                "vpnsite_adapters.cli.main",
                "node",
                "run",
                "--dir",
                str(directory),
                "--interval",
                "2",
            ],
            self.tmp / f"{name}-node.log",
            env={**os.environ, "PYTHONUNBUFFERED": "1", **({"PATH": path} if path else {})},
        )
        self.node_dirs = getattr(self, "node_dirs", {})
        self.node_dirs[name] = directory

    def stop_node(self, name: str) -> None:
        node = self.nodes[name]
        node.send_signal(signal.SIGTERM)
        assert node.wait(timeout=30) == 0

    def openvpn_pid(self, name: str, protocol: str) -> int:
        """The OpenVPN process of this node and protocol, as the node reports it (a pattern on
        command lines would find every vpnsite OpenVPN on the host, a live server's too)."""
        return int((self.node_dirs[name] / "run" / f"openvpn-{protocol}.pid").read_text())

    def wait_until_serving(self) -> None:
        deadline = time.monotonic() + 40
        for name in self.nodes:
            log = self.tmp / f"{name}-node.log"
            for protocol in ("udp", "tcp"):
                while f"openvpn-{protocol} is up" not in log.read_text(errors="replace"):
                    assert time.monotonic() < deadline and self.nodes[name].poll() is None, log.read_text()
                    time.sleep(0.2)

    # -- users ----------------------------------------------------------------------------------

    def sign_up(self, email: str) -> tuple[str, dict[str, str]]:
        form = requests.post(self.hub_url + "/api/submit-email", json={"email": email}, timeout=10).json()[
            "form_data"
        ]
        created = requests.post(
            self.hub_url + "/api/create-user", json={"email": form.pop("user_email"), **form}, timeout=10
        ).json()
        self.created[email] = created
        archive = requests.get(created["activation_url"], timeout=10)
        assert archive.status_code == 200, archive.text
        with zipfile.ZipFile(io.BytesIO(archive.content)) as zipped:
            profiles = {name: zipped.read(name).decode() for name in zipped.namelist()}
        return created["user_code"], profiles

    def connect(
        self,
        profile: str,
        email: str,
        code: str,
        *extra: str,
        namespace: str | None = None,
        nice: bool = False,
    ) -> Client:
        self.clients += 1
        folder = self.tmp / f"client-{self.clients}"
        folder.mkdir()
        (folder / "client.ovpn").write_text(profile)
        (folder / "login.txt").write_text(f"{email}\n{code}\n")
        if namespace is None:
            namespace = self.client_b if "remote 10.77.4.1" in profile else self.client_a
        # A crowd of clients stands for other people's machines: it must not take this one's CPU.
        process = self.net.start(
            namespace,
            [
                *(["nice", "-n", "19"] if nice else []),
                "openvpn",
                "--cd",
                str(folder),
                "--config",
                "client.ovpn",
                "--auth-user-pass",
                "login.txt",
                "--auth-retry",
                "none",
                *extra,
            ],
            folder / "client.log",
        )
        return Client(self, namespace, process, folder / "client.log")

    def fetch(self, namespace: str, timeout: float = 3) -> str | None:
        """What the web server behind server A saw as our address, or None when unreachable."""
        answer = self._get(namespace, f"http://{INTERNET}:8080/", timeout)
        return None if answer is None else answer.strip()

    def hub_json(self, namespace: str, path: str, timeout: float = 3) -> dict[str, object] | None:
        """GET a hub API path from inside a namespace (through its tunnel, when one is up), at
        the hub's address on server A's link; None when unreachable."""
        answer = self._get(namespace, f"http://{HUB_ON_A_LINK}:{self.port}{path}", timeout)
        return None if answer is None else json.loads(answer)

    def hub_page(self, namespace: str, path: str, timeout: float = 3) -> str | None:
        """A website page as the hub sends it to a request from inside a namespace."""
        return self._get(namespace, f"http://{HUB_ON_A_LINK}:{self.port}{path}", timeout)

    def _get(self, namespace: str, url: str, timeout: float) -> str | None:
        """The body a GET of ``url`` from inside ``namespace`` answers; None when unreachable."""
        script = (
            "import sys, urllib.request\n"
            f"try: print(urllib.request.urlopen({url!r}, timeout={timeout}).read().decode())\n"
            "except OSError: sys.exit(1)\n"
        )
        result = self.net.run(namespace, sys.executable, "-c", script)
        return result.stdout if result.returncode == 0 else None

    def hub_processes(self) -> list[int]:
        """The hub and the processes it started (its node API runs in a child of its own), found
        by parent PID, never by a command line."""
        assert self.hub is not None
        pids = [self.hub.pid]
        for pid in pids:
            for task in Path(f"/proc/{pid}/task").glob("*/children"):
                pids += [int(child) for child in task.read_text().split()]
        return pids

    def pause_hub(self) -> None:
        """An outage of the whole hub: the website's process and its node API's alike."""
        for pid in self.hub_processes():
            os.kill(pid, signal.SIGSTOP)

    def resume_hub(self) -> None:
        for pid in self.hub_processes():
            os.kill(pid, signal.SIGCONT)

    def close(self) -> None:
        if self.hub is not None and self.hub.poll() is None:
            self.resume_hub()
        for doorway in self.doorways:
            doorway.close()
        self.net.close()


class Client:
    def __init__(self, world: World, namespace: str, process: subprocess.Popen[bytes], log: Path) -> None:
        self.world = world
        self.namespace = namespace
        self.process = process
        self.log = log

    def wait_connected(self, seconds: float = 25) -> bool:
        return wait_for(self.log, CONNECTED, seconds, REFUSED)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def fetch(self) -> str | None:
        return self.world.fetch(self.namespace)

    def ended(self) -> bool:
        return self.process.poll() is not None

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        self.process.wait(timeout=15)


def poll(check: object, seconds: float, interval: float = 0.2) -> bool:
    """True as soon as ``check()`` is; False when the deadline passes first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(interval)
    return bool(check())  # type: ignore[operator]
