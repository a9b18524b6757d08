"""People on our VPN are people: visitors who reach the hub through one of our own VPN servers come
from its exit address, yet each is rate-limited as a person (their visitor id, else their e-mail),
the server as a whole by EXIT_FACTOR times each per-address rule, and their licences keep no
sign-up address. Through a real `vpnsite serve` behind a proxy it trusts (this host), which learns
the server's exit address from its heartbeats, on SQLite and PostgreSQL; the website's forms without
JavaScript too."""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import requests

from tests.integration.processes import vpnsite
from tests.support.serve import serve, stop
from vpnsite.rate_limits import EXIT_FACTOR

EXIT = "203.0.113.5"
ELSEWHERE = "198.51.100.20"
BEAT = {"cpu_load": 5, "bandwidth_mbps": 1, "sessions": 0, "service_up": True}
WHERE = ("--country", "nl", "--city", "Amsterdam", "--display-name", "Netherlands", "--host", "vpn.example")
CODE = re.compile(r'<code id="activation-code" class="code">((?:<span class="code-group">\d{4}</span>){5})')


class Hub(NamedTuple):
    base: str
    env: dict[str, str]


@pytest.fixture
def hub(tmp_path: Path, database_url: str) -> Iterator[Hub]:
    """`vpnsite serve` trusting a proxy on this host, with one VPN server whose heartbeats the
    proxy forwards from EXIT, beating (as a node does) for as long as the test runs."""
    env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp_path / "data"), "VPNSITE_DATABASE_URL": database_url}
    assert vpnsite("vpn", "init", env=env).returncode == 0
    added = vpnsite("vpn", "add-server", "nl-ams-1", *WHERE, env=env)
    assert added.returncode == 0, added.stderr
    token = added.stdout.strip().splitlines()[-1]
    served = serve({**env, "VPNSITE_TRUSTED_PROXIES": "127.0.0.1"}, tmp_path / "serve.log")
    stopped = threading.Event()

    def beat() -> None:
        while True:
            requests.post(
                served.base + "/api/node/heartbeat",
                json=BEAT,
                headers={"Authorization": f"Bearer {token}", "X-Forwarded-For": EXIT},
                timeout=10,
            ).raise_for_status()
            if stopped.wait(5):
                return

    beating = threading.Thread(target=beat, daemon=True)
    beating.start()
    try:
        deadline = time.monotonic() + 10
        while not get(served.base, "/api/connection-check", EXIT).json()["protected"]:
            assert time.monotonic() < deadline, "the hub never took EXIT for its server's exit"
            time.sleep(0.2)
        yield Hub(served.base, env)
    finally:
        stopped.set()
        beating.join(timeout=15)
        stop(served.process)
    assert EXIT not in served.log.read_text(), "no address is logged"


def get(base: str, path: str, ip: str) -> requests.Response:
    return requests.get(base + path, headers={"X-Forwarded-For": ip}, timeout=10)


def post(
    base: str, path: str, body: dict[str, Any], ip: str, visitor: str | None = None
) -> requests.Response:
    """A call of the site's script: the hz_id cookie goes with every call, and in the body of
    the sign-up's two."""
    cookies = {"hz_id": visitor} if visitor else {}
    if path in ("/api/submit-email", "/api/create-user"):
        body = {**body, "cookies": cookies}
    return requests.post(base + path, json=body, headers={"X-Forwarded-For": ip}, cookies=cookies, timeout=10)


def sign_up(base: str, email: str, ip: str, visitor: str | None) -> requests.Response:
    submitted = post(base, "/api/submit-email", {"email": email}, ip, visitor)
    if submitted.status_code != 200:
        return submitted
    form = submitted.json()["form_data"]
    return post(base, "/api/create-user", {"email": form.pop("user_email"), **form}, ip, visitor)


def signed_up_from(hub: Hub, email: str) -> list[str | None]:
    """The sign-up address of each of the e-mail's licences, as `vpnsite privacy export` shows it."""
    exported = vpnsite("privacy", "export", email, env=hub.env)
    assert exported.returncode == 0, exported.stderr
    return [licence["ip_address"] for licence in json.loads(exported.stdout)["licences"]]


def test_people_signing_up_through_our_server_are_told_apart_and_the_server_is_bounded(hub: Hub) -> None:
    submitted_through_ours = 0
    for n in range(10):
        created = sign_up(hub.base, f"p{n}@example.org", EXIT, f"hz-{n}")
        assert created.status_code == 200, created.text
        submitted_through_ours += 1
    assert signed_up_from(hub, "p0@example.org") == [None], "our own exit address is not where they live"

    # Without JavaScript: the form posts the sign-up's two calls at once, and no script set hz_id.
    for n in range(3):
        page = requests.post(
            hub.base + "/activation",
            data={"email": f"form{n}@example.org"},
            headers={"Origin": hub.base, "X-Forwarded-For": EXIT},
            timeout=10,
        )
        assert page.status_code == 200 and CODE.search(page.text), page.text[-2000:]
        submitted_through_ours += 1
    assert signed_up_from(hub, "form0@example.org") == [None]

    for n in range(5):
        assert post(hub.base, "/api/submit-email", {"email": f"e{n}@example.org"}, EXIT, "hz-eager").ok
        submitted_through_ours += 1
    refused = post(hub.base, "/api/submit-email", {"email": "e5@example.org"}, EXIT, "hz-eager")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0, "one person: 5 in 10 min"

    # submit-email:ip=5/10m × EXIT_FACTOR for the server, whatever ids its clients make up.
    while submitted_through_ours < 5 * EXIT_FACTOR:
        fresh = post(
            hub.base, "/api/submit-email", {"email": "x@example.org"}, EXIT, f"hz-x{submitted_through_ours}"
        )
        assert fresh.status_code == 200, (submitted_through_ours, fresh.text)
        submitted_through_ours += 1
    over = post(hub.base, "/api/submit-email", {"email": "y@example.org"}, EXIT, "hz-one-too-many")
    assert over.status_code == 429, "the server's ceiling holds"

    # From any other address, as ever: five sign-up requests in ten minutes, whoever asks.
    for n in range(5):
        assert sign_up(hub.base, f"o{n}@example.org", ELSEWHERE, f"hz-o{n}").status_code == 200
    assert (
        post(hub.base, "/api/submit-email", {"email": "o5@example.org"}, ELSEWHERE, "hz-o5").status_code
        == 429
    )
    assert signed_up_from(hub, "o0@example.org") == [ELSEWHERE]


def test_people_opening_their_dashboards_through_our_server_are_told_apart(hub: Hub) -> None:
    people = [(f"d{n}@example.org", f"hz-d{n}") for n in range(10)]
    codes = []
    for n, (email, visitor) in enumerate(people):
        created = sign_up(hub.base, email, f"198.51.100.{40 + n}", visitor)
        assert created.status_code == 200, created.text
        codes.append(created.json()["user_code"])

    def check(email: str, code: str, ip: str, visitor: str | None) -> requests.Response:
        return post(hub.base, "/api/check-license", {"email": email, "activation_code": code}, ip, visitor)

    # check-license:ip=10/1m: ten people, then one of them nine times more, in the same minute.
    for (email, visitor), code in zip(people, codes, strict=True):
        assert check(email, code, EXIT, visitor).status_code == 200
    (first, visitor), code = people[0], codes[0]
    for _ in range(9):
        assert check(first, code, EXIT, visitor).status_code == 200
    refused = check(first, code, EXIT, visitor)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0, "one person: 10 a minute"
    assert check(people[1][0], codes[1], EXIT, people[1][1]).status_code == 200, "the others go on"

    # The dashboard's form without JavaScript: no hz_id, so its owner is their e-mail.
    for (email, _), code in zip(people[2:5], codes[2:5], strict=True):
        page = requests.post(
            hub.base + "/license",
            data={"email": email, "activation_code": code},
            headers={"Origin": hub.base, "X-Forwarded-For": EXIT},
            timeout=10,
        )
        assert page.status_code == 200, page.text[-2000:]

    # From another address, as ever: ten licence checks a minute, whoever asks.
    for (email, visitor), code in zip(people, codes, strict=True):
        assert check(email, code, "198.51.100.30", visitor).status_code == 200
    assert check(people[1][0], codes[1], "198.51.100.30", people[1][1]).status_code == 429


def test_strangers_without_a_cookie_on_our_server_cannot_use_up_an_owners_tickets(hub: Hub) -> None:
    """The review's case: behind our exit, six cookieless tickets name an address, then its owner
    (no cookie either: the support form works without the script) opens their own. Six tickets in
    an hour is one client's allowance, but these people cannot be told apart: only the server's
    allowance (EXIT_FACTOR clients') holds them, never the address they typed."""
    for n in range(6):
        stranger = post(
            hub.base, "/api/support", {"email": "owner@example.org", "message": f"spam {n}"}, EXIT
        )
        assert stranger.status_code == 200, stranger.text
    owner = post(hub.base, "/api/support", {"email": "owner@example.org", "message": "VPN is slow"}, EXIT)
    assert owner.status_code == 200, owner.text
