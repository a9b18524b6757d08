"""The polled status (every open status page asks every 3 seconds) travels gzip-compressed to a
client that accepts it, under an ETag of its own and with Vary: Accept-Encoding; conditional
polls still end in 304s, for either copy. Through a real `vpnsite serve`."""

from __future__ import annotations

import gzip
import http.client
import json
import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.support.serve import serve, stop
from vpnsite_adapters.http.api.polling import accepts_gzip

STATUS = "/api/server-status"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("gzip")
    env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp / "data"), "VPNSITE_ACCESS_LOG": "false"}
    env.pop("VPNSITE_DATABASE_URL", None)
    served = serve(env, tmp / "serve.log")
    try:
        yield served.base
    finally:
        stop(served.process)


def get(base: str, path: str, method: str = "GET", **headers: str) -> tuple[int, dict[str, str], bytes]:
    """An answer as it comes over the wire: no decoding on the way."""
    address = urlsplit(base)
    connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=10)
    try:
        connection.request(method, path, headers={"Accept-Encoding": "identity", **headers})
        response = connection.getresponse()
        varies = ", ".join(value for name, value in response.getheaders() if name.lower() == "vary")
        found = {name.lower(): value for name, value in response.getheaders()} | {"vary": varies}
        return response.status, found, response.read()
    finally:
        connection.close()


def both(base: str) -> tuple[tuple[int, dict[str, str], bytes], tuple[int, dict[str, str], bytes]]:
    """The identity and the gzip answer for one snapshot (it is refreshed every second)."""
    for _ in range(20):
        plain = get(base, STATUS)
        packed = get(base, STATUS, **{"Accept-Encoding": "gzip, deflate, br"})
        if packed[1]["etag"] == plain[1]["etag"].removesuffix('"') + '-gzip"':
            return plain, packed
    raise AssertionError("the snapshot changed between every pair of requests")


def test_the_status_is_gzipped_for_a_client_that_accepts_it(base: str) -> None:
    plain, packed = both(base)
    assert plain[0] == packed[0] == 200
    assert "content-encoding" not in plain[1]
    assert packed[1]["content-encoding"] == "gzip"
    for _, headers, body in (plain, packed):
        assert "Accept-Encoding" in headers["vary"]
        assert int(headers["content-length"]) == len(body)
        assert headers["content-type"] == "application/json"
    assert gzip.decompress(packed[2]) == plain[2]
    assert json.loads(plain[2])["vpn_servers"], "the whole snapshot"
    assert len(packed[2]) < len(plain[2]) / 2, (len(plain[2]), len(packed[2]))


def test_conditional_polls_end_in_304_for_either_copy(base: str) -> None:
    for encoding in ("gzip", "identity"):
        for _ in range(20):
            status, headers, _ = get(base, STATUS, **{"Accept-Encoding": encoding})
            again = get(base, STATUS, **{"Accept-Encoding": encoding, "If-None-Match": headers["etag"]})
            if again[0] == 304:
                break
        assert (again[0], again[2]) == (304, b""), encoding
        assert again[1]["etag"] == headers["etag"] and "Accept-Encoding" in again[1]["vary"]
        assert headers["etag"].endswith('-gzip"') == (encoding == "gzip")


@pytest.mark.parametrize("refused", ["identity", "gzip;q=0", "br", "*;q=0", "gzip;q=0, *"])
def test_a_client_that_does_not_take_gzip_gets_plain_json(base: str, refused: str) -> None:
    status, headers, body = get(base, STATUS, **{"Accept-Encoding": refused})
    assert status == 200 and "content-encoding" not in headers and json.loads(body)["summary"]


def test_head_says_what_get_would_send_and_a_small_answer_stays_plain(base: str) -> None:
    status, headers, body = get(base, STATUS, method="HEAD", **{"Accept-Encoding": "gzip"})
    assert (status, body, headers["content-encoding"]) == (200, b"", "gzip")
    # The user count is smaller than gzip's own framing: sent as it is, saying it could vary.
    status, headers, body = get(base, "/api/user-count", **{"Accept-Encoding": "gzip"})
    assert status == 200 and "content-encoding" not in headers and json.loads(body)["success"] is True
    assert "Accept-Encoding" in headers["vary"]


@pytest.mark.parametrize(
    ("header", "takes"),
    [
        (None, False),
        ("", False),
        ("gzip", True),
        ("GZIP", True),
        ("deflate, gzip;q=1.0, *;q=0.5", True),
        ("x-gzip", True),
        ("*", True),
        ("br", False),
        ("gzip;q=0", False),
        ("gzip; q=0.000", False),
        ("*, gzip;q=0", False),
        ("gzip;q=zero", False),
        ("identity", False),
    ],
)
def test_accept_encoding_is_read_as_http_says(header: Any, takes: bool) -> None:
    assert accepts_gzip(header) is takes
