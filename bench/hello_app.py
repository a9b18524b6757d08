"""The baseline: a bare WSGI app answering a small JSON body, served by waitress."""

from __future__ import annotations

import logging
import sys

import waitress

BODY = b'{"success":true,"user_count":1285}'


def app(environ, start_response):  # type: ignore[no-untyped-def]
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(BODY)))])
    return [BODY]


if __name__ == "__main__":
    # vpnsite silences the same warning: neither pays for a log line per queued request.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    waitress.serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=int(sys.argv[2]), _quiet=True)
