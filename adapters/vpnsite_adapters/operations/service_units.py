"""The systemd units that run vpnsite: the hub (`vpnsite serve`) and a VPN server (`vpnsite node
run`), each given only what it needs. One source for both `vpnsite systemd-unit` and the unit
`vpnsite vpn server-config` writes into a server's directory."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path, PurePosixPath

from vpnsite_adapters.settings import SHUTDOWN_SECONDS

ENVIRONMENT_FILE = "/etc/vpnsite/vpnsite.env"
STATE_ROOT = PurePosixPath("/var/lib")
# The hub's graceful stop gives its requests up to VPNSITE_SHUTDOWN_TIMEOUT, then its background
# jobs as long again: systemd waits for both, and a margin, before it kills.
HUB_STOP_SECONDS = 2 * SHUTDOWN_SECONDS + 10
# A node waits up to 10 s for each OpenVPN instance, then sends the hub its last report.
NODE_STOP_SECONDS = 40

_COMMON_HARDENING = """\
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
MemoryDenyWriteExecute=yes
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallErrorNumber=EPERM
"""


class UnitError(ValueError):
    pass


def installed_executable() -> str | None:
    """The `vpnsite` script of this installation: beside the interpreter (a virtualenv's bin/),
    else the first on PATH."""
    beside = Path(sys.executable).parent / "vpnsite"
    if beside.is_file():
        return str(beside)
    found = shutil.which("vpnsite")
    return str(Path(found).resolve()) if found else None


def _path(value: str, what: str) -> str:
    """An absolute path as a unit file takes it: no whitespace (it separates paths) and ``%``
    doubled (it starts a specifier)."""
    if not PurePosixPath(value).is_absolute() or any(c.isspace() or c in "\"'\\" for c in value):
        raise UnitError(f"the {what} must be an absolute path without spaces or quotes: {value!r}")
    return value.replace("%", "%%")


def _name(value: str, what: str) -> str:
    if not value or not all(c.isalnum() or c in "-_." for c in value):
        raise UnitError(f"the {what} must be letters, digits, '-', '_' or '.': {value!r}")
    return value


def hub_unit(executable: str, data_dir: str, user: str | None = None) -> str:
    """``user`` None: a dynamic user, which can own only a state directory under /var/lib."""
    exe, data = _path(executable, "vpnsite executable"), _path(data_dir, "data directory")
    state = PurePosixPath(data_dir)
    under_state_root = state.parent == STATE_ROOT
    if user is None and not under_state_root:
        raise UnitError(
            f"without --user the data directory must be /var/lib/NAME (systemd's StateDirectory): {data_dir}"
        )
    identity = "DynamicUser=yes" if user is None else f"User={_name(user, 'user')}\nGroup={user}"
    writable = (
        f"StateDirectory={_name(state.name, 'data directory name')}\nStateDirectoryMode=0700"
        if under_state_root
        else f"ReadWritePaths={data}"
    )
    return f"""[Unit]
Description=vpnsite hub: the website, the API and the background jobs
After=network-online.target postgresql.service
Wants=network-online.target

[Service]
Type=simple
ExecStart={exe} --data-dir {data} serve
EnvironmentFile=-{ENVIRONMENT_FILE}
{identity}
{writable}
WorkingDirectory={data}
UMask=0077
Restart=on-failure
RestartSec=5
KillSignal=SIGTERM
TimeoutStopSec={HUB_STOP_SECONDS}
CapabilityBoundingSet=
AmbientCapabilities=
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectProc=invisible
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX
{_COMMON_HARDENING}SystemCallFilter=~@privileged @resources

[Install]
WantedBy=multi-user.target
"""


def node_unit(executable: str, directory: str, server: str = "", openvpn_user: str = "nobody") -> str:
    """Root, for what `node run` sets up: forwarding (a write under /proc/sys, so no
    ProtectKernelTunables), NAT (netlink), tun devices; OpenVPN drops to ``openvpn_user``."""
    exe, folder = _path(executable, "vpnsite executable"), _path(directory, "node directory")
    user = "" if openvpn_user == "nobody" else f" --openvpn-user {_name(openvpn_user, 'OpenVPN user')}"
    title = f"vpnsite VPN server {_name(server, 'server name')}" if server else "vpnsite VPN server"
    return f"""[Unit]
Description={title}: OpenVPN, WireGuard and the hub agent
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
ExecStart={exe} node run --dir {folder}{user}
EnvironmentFile=-{ENVIRONMENT_FILE}
WorkingDirectory={folder}
ReadWritePaths={folder}
Restart=on-failure
RestartSec=5
KillSignal=SIGTERM
KillMode=mixed
TimeoutStopSec={NODE_STOP_SECONDS}
CapabilityBoundingSet=CAP_NET_ADMIN CAP_NET_BIND_SERVICE CAP_SETUID CAP_SETGID CAP_KILL CAP_SYS_NICE
DevicePolicy=closed
DeviceAllow=/dev/net/tun rw
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_NETLINK
{_COMMON_HARDENING}
[Install]
WantedBy=multi-user.target
"""
