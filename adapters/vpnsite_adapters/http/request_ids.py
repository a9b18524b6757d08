"""Every answer names its request (``X-Request-Id``), and every log line written while handling
it carries the same id, so an operator can find one visitor's complaint in the log without the
log holding anything about the visitor."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Any

from attrs import frozen

from vpnsite_adapters.log_lines import request_id

HEADER = "X-Request-Id"
# Set by TrustedProxyHeaders when the peer is a configured proxy: only then is its id believed.
FROM_TRUSTED_PROXY = "vpnsite.from_trusted_proxy"
# A proxy's id is kept only if it cannot break a log line or a header, nor carry an address.
_SANE = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def new_request_id() -> str:
    return os.urandom(12).hex()


def choose_request_id(environ: dict[str, Any]) -> str:
    given = environ.get("HTTP_X_REQUEST_ID")
    if given and environ.get(FROM_TRUSTED_PROXY) and _SANE.fullmatch(given):
        return str(given)
    return new_request_id()


@frozen
class RequestIds:
    """WSGI middleware, inside TrustedProxyHeaders and outside everything that answers."""

    app: Any

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        identifier = choose_request_id(environ)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            # A new list: the polling answers pass header lists they share between requests.
            return start_response(status, [*headers, (HEADER, identifier)], exc_info)

        token = request_id.set(identifier)
        try:
            return self.app(environ, start)  # type: ignore[no-any-return]
        finally:
            request_id.reset(token)
