"""The public addresses the service hands out, in answers and in e-mails alike, all under the
configured public URL (never the Host a request came with)."""

from __future__ import annotations


def archive_url(origin: str, token: str) -> str:
    return f"{origin}/api/config/{token}"


def licence_url(origin: str, language: str) -> str:
    return f"{origin}{_prefix(language)}/license"


def renewal_url(origin: str, language: str, token: str) -> str:
    return f"{licence_url(origin, language)}?renew={token}"


def _prefix(language: str) -> str:
    return "" if language == "en" else f"/{language}"
