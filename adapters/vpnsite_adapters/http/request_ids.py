"""Every answer names its request (``X-Request-Id``), and every log line written while handling
it carries the same id, so an operator can find one visitor's complaint in the log without the
log holding anything about the visitor."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

from attrs import frozen

from vpnsite_adapters.runtime.log_lines import request_id

HEADER = "X-Request-Id"
# Set by TrustedProxyHeaders when the peer is a configured proxy: only then is its id believed.
FROM_TRUSTED_PROXY = "vpnsite.from_trusted_proxy"
# A proxy's id is kept only if it cannot break a log line or a header, nor carry an address.
_SANE = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def new_request_id() -> str:
    # Unique, not secret: nothing is granted by knowing one, and every poll pays for it.
    return f"{random.getrandbits(96):024x}"


def choose_request_id(environ: dict[str, Any]) -> str:
    given = environ.get("HTTP_X_REQUEST_ID")
    if given and FROM_TRUSTED_PROXY in environ and _SANE.fullmatch(given):
        return str(given)
    return new_request_id()


@frozen
class RequestIds:
    """WSGI middleware around the Flask app, inside TrustedProxyHeaders (the polling paths,
    answered before Flask, name their requests themselves)."""

    app: Any

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        identifier = choose_request_id(environ)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            return start_response(status, [*headers, (HEADER, identifier)], exc_info)

        token = request_id.set(identifier)
        try:
            return self.app(environ, start)  # type: ignore[no-any-return]
        finally:
            request_id.reset(token)
