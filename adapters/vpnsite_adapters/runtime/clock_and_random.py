"""The real clock and the operating system's CSPRNG, for the domain's ports."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class SystemRandom:
    def randbelow(self, upper: int) -> int:
        return secrets.randbelow(upper)

    def token_bytes(self, size: int) -> bytes:
        return secrets.token_bytes(size)
