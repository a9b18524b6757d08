"""Data requests under the privacy policy: everything held about an address, and its erasure."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from vpnsite.emails import email_key, normalise_email


class PrivacyStore(Protocol):
    def export_address(self, key: str) -> dict[str, Any]:
        """Everything stored about the address whose :func:`email_key` is ``key``."""
        ...

    def erase_address(self, key: str, now: datetime) -> dict[str, int]:
        """End its licences, erase its personal data, drop its sessions; counts of what changed."""
        ...


def export_address(store: PrivacyStore, email: str) -> dict[str, Any]:
    return store.export_address(email_key(normalise_email(email)))


def erase_address(store: PrivacyStore, email: str, now: datetime) -> dict[str, int]:
    return store.erase_address(email_key(normalise_email(email)), now)
