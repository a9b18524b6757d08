"""What a VPN server logs must not say who connected from where: addresses and e-mails are
replaced before a line of OpenVPN's output, or of the node's own, reaches a log."""

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
