"""What a VPN server logs must not say who connected from where, nor with what: addresses and
e-mails are replaced before a line of OpenVPN's output, or of the node's own, reaches a log, and
the lines that describe a client's device are not logged at all."""

from __future__ import annotations

import re

_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?(?![\w.])")
# An IPv6 address: either compressed ("::") or with all eight groups, so a time such as
# 13:37:20 is left alone.
_IPV6 = re.compile(
    r"(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}(?![\w:])"
    r"|(?<![\w:])(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?::(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?(?![\w:])"
)
_EMAIL = re.compile(r"[^\s@,;'\"<>/\[\]()]+@[^\s@,;'\"<>/\[\]()]+")


def scrub(line: str) -> str:
    line = _EMAIL.sub("[e-mail]", line)
    line = _IPV4.sub("[address]", line)
    return _IPV6.sub("[address]", line)


# OpenVPN's lines that are dropped whole:
# - "peer info": what a client says of its device (IV_HWADDR is its MAC address, UV_* whatever
#   its app sets, IV_PLAT_VER its system's version);
# - a TCP connection that never started TLS: the hub's reachability ping, every 10 s.
_UNLOGGED = re.compile(
    r" peer info: "
    r"|^TCP connection established with "
    r"|^[^\s/]+ Connection reset, restarting"
    r"|^[^\s/]+ SIGUSR1\[soft,connection-reset\] received, client-instance restarting"
)


def worth_logging(line: str) -> bool:
    return _UNLOGGED.search(line) is None
