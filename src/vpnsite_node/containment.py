"""Nothing the node starts may outlive it. OpenVPN drops to an unprivileged user, and the kernel
clears a parent-death signal at that change, so a node killed outright (SIGKILL, an OOM kill)
would leave OpenVPN and wireguard-go carrying tunnels that nobody answers for. The node therefore
runs as the first process of a PID namespace of its own: when that process dies, for whatever
reason, the kernel kills everything inside it."""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys
from collections.abc import Callable

log = logging.getLogger("vpnsite.node")

CLONE_NEWPID = 0x20000000
PR_SET_PDEATHSIG = 1
RELAYED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def contained(run: Callable[[], int]) -> int:
    """``run()`` in a child that is the init of a new PID namespace and dies with this process;
    its exit code. Where namespaces are refused (systemd's RestrictNamespaces=), ``run()`` runs
    here, and the unit's cgroup (KillMode=mixed) ends what it leaves."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWPID) != 0:
        log.info(
            "no PID namespace (%s): the service manager must end OpenVPN with the node",
            os.strerror(ctypes.get_errno()),
        )
        return run()
    child = os.fork()
    if child == 0:
        # The init of the namespace: when this process dies, the kernel kills the rest.
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        try:
            code = run()
        except SystemExit as leaving:
            code = leaving.code if isinstance(leaving.code, int) else 1
        except BaseException:
            log.exception("the node stopped on an error")
            code = 1
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    for signum in RELAYED:
        signal.signal(signum, lambda received, _frame: os.kill(child, received))
    _, status = os.waitpid(child, 0)
    return os.waitstatus_to_exitcode(status)
