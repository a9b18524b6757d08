"""Brute force and timing, measured on the real use cases and store (SQLite, in process, on a
manual clock so an hour takes seconds):

1. guessing codes for one e-mail, one attempt a second for an hour, from one address, from twenty
   addresses in turn, from a new address every time, from two hundred addresses in turn (each
   fails once before the shared ceiling fills, then tries again: the worst case of the rule that
   the ceiling holds back a client only once it has failed twice, or once while the ceiling was
   full), and from two hundred addresses of which ten fill the ceiling first and the others try
   once each (the best the same addresses could do before that rule): how many guesses are even
   looked at, and whether the owner can still check the licence afterwards — the owner who has not
   got it wrong, and in one scenario the owner who mistyped the code once just before the attack;
2. a wrong e-mail and a wrong code: status, body and latency side by side (median, and the
   difference of means in units of its standard error).
3. a VPN-login burst: 300 wrong codes for one address in 10 s through the servers' login, from
   one server and from twelve in turn: how many are judged and how many refused for now, and how
   long the owner's app is told to wait before its right code gets in.

Usage: ``python bench/attack.py``.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flask.testing import FlaskClient

from vpnsite.codes import luhn_check_digit
from vpnsite.fleet import Location, issue_server_token
from vpnsite_adapters.bootstrap import Hub, build_hub
from vpnsite_adapters.clock_and_random import SystemRandom
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.settings import load_settings


class ManualClock:
    def __init__(self) -> None:
        self.moment = datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self.moment


def code(n: int) -> str:
    payload = f"{n:019d}"
    return payload + luhn_check_digit(payload)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        clock = ManualClock()
        settings = load_settings({"VPNSITE_ACCESS_LOG": "false"}, env_file=None, data_dir=Path(folder))
        hub = build_hub(settings, clock=clock)
        client = create_app(hub.services).test_client()
        form = client.post("/api/submit-email", json={"email": "victim@example.org"}).get_json()["form_data"]
        owner_code = client.post(
            "/api/create-user", json={"email": form.pop("user_email"), **form}
        ).get_json()["user_code"]
        owner_address = {"REMOTE_ADDR": "192.0.2.200"}

        def owner_checks(typed: str) -> int:
            return client.post(
                "/api/check-license",
                json={"email": "victim@example.org", "activation_code": typed},
                environ_base=owner_address,
            ).status_code

        # Which address (a number) makes the attempt of each second, and whether the owner
        # mistyped the code once just before the attack.
        attacks: list[tuple[str, Callable[[int], int], bool]] = [
            ("one address", lambda second: 0, False),
            ("twenty addresses in turn", lambda second: second % 20, False),
            ("a new address every try", lambda second: second, False),
            ("twenty addresses in turn, the owner mistyped once before", lambda second: second % 20, True),
            ("two hundred addresses in turn", lambda second: second % 200, False),
            (
                "two hundred addresses, ten filling the ceiling first",
                lambda second: second % 10 if second < 200 else 10 + (second - 200) % 190,
                False,
            ),
        ]
        for day, (label, address_of, mistyped) in enumerate(attacks, start=1):
            start = clock.moment = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=day)
            if mistyped:
                assert owner_checks(code(10**18)) == 404
            looked_at = refused = 0
            for second in range(3600):
                clock.moment = start + timedelta(seconds=second, milliseconds=1)
                n = address_of(second)
                response = client.post(
                    "/api/check-license",
                    json={"email": "victim@example.org", "activation_code": code(second)},
                    environ_base={"REMOTE_ADDR": f"10.{n // 65536}.{n // 256 % 256}.{n % 256}"},
                )
                if response.status_code == 429:
                    refused += 1
                else:
                    looked_at += 1
            owner = owner_checks(owner_code)
            years = 10**19 / 2 / looked_at / 24 / 365
            print(
                f"brute force, {label}: {looked_at} of 3600 guesses per hour looked at, {refused} refused "
                f"(half the code space takes ~{years:.1e} years at that rate); "
                f"the owner's check afterwards: {owner}"
            )
        print(
            "best guessing rate for one e-mail: 20 an hour from one client, 200 an hour in all, "
            "plus one for every IPv4 address or IPv6 /64 the attacker brings that has failed at most "
            "once when the ceiling fills (at worst every address it brings: 400 an hour with 200)"
        )

        clock.moment += timedelta(days=7)
        real = client.post("/api/submit-email", json={"email": "timing@example.org"}).get_json()["form_data"]
        good = client.post("/api/create-user", json={"email": real.pop("user_email"), **real}).get_json()[
            "user_code"
        ]
        pairs = {
            "a real code with a wrong e-mail / a real e-mail with a wrong code": (
                {"email": "nobody@example.org", "activation_code": good},
                {"email": "timing@example.org", "activation_code": code(424242)},
            ),
            "probing whether an e-mail has a licence (the same made-up code)": (
                {"email": "nobody@example.org", "activation_code": code(515151)},
                {"email": "timing@example.org", "activation_code": code(515151)},
            ),
        }
        for title, cases in pairs.items():
            timings: list[list[float]] = [[], []]
            bodies: list[tuple[int, bytes]] = [(0, b""), (0, b"")]
            for n in range(4000):
                clock.moment += timedelta(
                    minutes=4
                )  # each call in its own window: time the check, not the limiter
                which = n % 2
                started = time.perf_counter()
                response = client.post(
                    "/api/check-license",
                    json=cases[which],
                    environ_base={"REMOTE_ADDR": f"198.51.100.{n % 200}"},
                )
                timings[which].append((time.perf_counter() - started) * 1e6)
                bodies[which] = (response.status_code, response.get_data())
            a, b = timings
            se = (statistics.variance(a) / len(a) + statistics.variance(b) / len(b)) ** 0.5
            print(
                f"timing, {title}: medians {statistics.median(a):.0f} / {statistics.median(b):.0f} µs, "
                f"difference of means {(statistics.mean(a) - statistics.mean(b)) / se:+.1f} standard errors; "
                f"same status and body: {bodies[0] == bodies[1]}"
            )
        vpn_login_burst(hub, client, clock)
        hub.close()


def vpn_login_burst(hub: Hub, client: FlaskClient, clock: ManualClock) -> None:
    """Scenario 3: the burst a server's token allows, as the node API meets it."""
    keys, fleet = hub.services.node_access.keys, hub.store.fleet
    tokens = []
    for n in range(12):
        name = f"burst-{n}"
        fleet.add_server(Location(name, "Netherlands", "nl", "Amsterdam"), f"{name}.example", 1194, 443)
        tokens.append(issue_server_token(fleet, name, keys, SystemRandom()))
    for label, servers in (("one server", tokens[:1]), ("twelve servers in turn", tokens)):
        clock.moment += timedelta(days=1)
        email = f"vpn-{len(servers)}@example.org"
        form = client.post("/api/submit-email", json={"email": email}).get_json()["form_data"]
        owner = client.post("/api/create-user", json={"email": form.pop("user_email"), **form}).get_json()
        start = clock.moment
        answers = []
        for n in range(300):
            clock.moment = start + timedelta(seconds=n / 30)
            headers = {"Authorization": f"Bearer {servers[n % len(servers)]}"}
            body = {"username": email, "password": code(n), "protocol": "udp"}
            answers.append(client.post("/api/node/login", json=body, headers=headers).get_json()["reason"])
        clock.moment = start + timedelta(seconds=10)
        headers = {"Authorization": f"Bearer {servers[0]}"}
        body = {"username": email, "password": owner["user_code"], "protocol": "udp"}
        told = client.post("/api/node/login", json=body, headers=headers).get_json()
        clock.moment += timedelta(seconds=told.get("retry_after", 0))
        after = client.post("/api/node/login", json=body, headers=headers).get_json()
        print(
            f"VPN-login burst, {label}: 300 wrong codes in 10 s, {answers.count('bad_credentials')} judged, "
            f"{answers.count('rate_limited')} refused for now; the owner's app, right after, is told "
            f"{told.get('reason')} and to wait {told.get('retry_after', 0)} s, "
            f"then admitted: {after['admitted']}"
        )
    print(
        "best guessing rate through the VPN login for one address: 10 a minute on one server, "
        "100 a minute across the fleet (144,000 a day)"
    )


if __name__ == "__main__":
    main()
