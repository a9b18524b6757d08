"""The client's address: the peer's, or the one a trusted proxy forwarded."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from attrs import frozen

from vpnsite_adapters.http.request_ids import FROM_TRUSTED_PROXY
from vpnsite_adapters.settings import Network


def client_ip(environ: Mapping[str, Any], trusted: Sequence[Network]) -> str | None:
    """``X-Forwarded-For`` is believed only from a trusted proxy, and only back to the first hop
    that is not one: a client cannot choose its own address by sending the header."""
    peer = environ.get("REMOTE_ADDR")
    if not trusted or not _is_trusted(peer, trusted):
        return peer
    hops = [hop.strip() for hop in str(environ.get("HTTP_X_FORWARDED_FOR", "")).split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop if _is_address(hop) else peer
    return hops[0] if hops and _is_address(hops[0]) else peer


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _is_trusted(address: str | None, trusted: Sequence[Network]) -> bool:
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


@frozen
class TrustedProxyHeaders:
    """WSGI middleware: a configured proxy's ``X-Forwarded-For`` (the right-most hop it does not
    trust) becomes the client's address and its ``X-Forwarded-Proto`` the scheme; from anyone
    else both headers are dropped, so nothing further in can believe them. What comes from a
    proxy is marked so (``vpnsite.from_trusted_proxy``): its ``X-Request-Id`` may be kept."""

    app: Any
    trusted: tuple[Network, ...]

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if self.trusted and _is_trusted(environ.get("REMOTE_ADDR"), self.trusted):
            environ[FROM_TRUSTED_PROXY] = True
            environ["REMOTE_ADDR"] = client_ip(environ, self.trusted)
            proto = str(environ.get("HTTP_X_FORWARDED_PROTO", "")).rsplit(",", 1)[-1].strip().lower()
            if proto in ("http", "https"):
                environ["wsgi.url_scheme"] = proto
        environ.pop("HTTP_X_FORWARDED_FOR", None)
        environ.pop("HTTP_X_FORWARDED_PROTO", None)
        return self.app(environ, start_response)  # type: ignore[no-any-return]
