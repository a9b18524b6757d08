"""Brute force and timing, measured on the real use cases and store (SQLite, in process, on a
manual clock so an hour takes seconds):

1. guessing codes for one e-mail, one attempt a second for an hour, from one address, from twenty
   addresses in turn, from a new address every time (3,600 addresses in 15 /24s), from two hundred
   addresses in turn, and from a /24 of its own for every two tries (the worst case of the rule
   that the shared ceiling holds back, while full, a client that has failed twice or a network
   whose clients have failed six times): how many guesses are even looked at, and whether the owner
   can still check the licence afterwards — the owner who has not got it wrong, and in one scenario
   the owner who mistyped the code once just before the attack;
2. the owner against strangers who keep the ceiling full: mistyping once then typing the right
   code, and behind the owner's own address (a shared network) without and with the browser's
   device cookie;
3. a mail flood at one mailbox: a sign-up and a ticket for it every minute for a day, from a new
   address and a new spelling each time: the licence e-mails and acknowledgements it gets;
4. one network taking the free tier: a sign-up every ten seconds for a day from an IPv6 /48 (a new
   /64 each time) and from an IPv4 /24 (a new address each time): the licences it gets;
5. a wrong e-mail and a wrong code: status, body and latency side by side (median, and the
   difference of means in units of its standard error);
6. a VPN-login burst: 300 wrong codes for one address in 10 s through the servers' login, from
   one server and from twelve in turn: how many are judged and how many refused for now, and how
   long the owner's app is told to wait before its right code gets in;
7. a sign-up burst with the proof of work on (the default, ``auto``): a sign-up a second for ten
   minutes, each from a /48 of its own, on a service with no history: how many are asked for a
   challenge, and the CPU-seconds an attacker's script (hashlib) pays per licence once they are.

Scenarios 3 and 4 run with the proof of work off, to measure the rules they are about alone;
scenario 7 on a hub of its own with it on.

Usage: ``python bench/attack.py``.
"""

from __future__ import annotations

import base64
import email
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.policy import default
from pathlib import Path

from flask.testing import FlaskClient
from proof_of_work import solve

from vpnsite.codes import luhn_check_digit
from vpnsite.emails import mailbox_key
from vpnsite.fleet import Location
from vpnsite.server_tokens import issue_server_token
from vpnsite_adapters.bootstrap import Hub, build_hub
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.runtime.clock_and_random import SystemRandom
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
        settings = load_settings(
            {"VPNSITE_ACCESS_LOG": "false", "VPNSITE_SIGNUP_CHALLENGE": "off"},
            env_file=None,
            data_dir=Path(folder),
        )
        hub = build_hub(settings, clock=clock)
        # Strangers' calls, and the owner's from a browser that keeps no cookie (a device cookie
        # would let any call that carries it past the ceiling).
        client = create_app(hub.services).test_client(use_cookies=False)
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
            ("a /24 of its own for every two tries", lambda second: (second // 2) * 256, False),
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
            "plus two for every IPv4 address or IPv6 /64 the attacker brings and at most six for every "
            "/24 or /48 (a botnet of a million networks: ~10^12 hours for an even chance)"
        )
        owner_against_a_full_ceiling(client, clock, owner_code)
        mail_flood(client, clock, hub)
        one_network(client, clock)

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
        sign_up_burst_under_challenge(Path(folder) / "challenged")
        hub.close()


def wrong_checks(client: FlaskClient, clock: ManualClock, clients: Callable[[int], str], count: int) -> None:
    """``count`` wrong codes for the victim, one every seven seconds (no address makes more than
    the ten calls a minute its own rule allows), client ``clients(n)`` making the ``n``-th."""
    for n in range(count):
        clock.moment += timedelta(seconds=7)
        client.post(
            "/api/check-license",
            json={"email": "victim@example.org", "activation_code": code(10**15 + n)},
            environ_base={"REMOTE_ADDR": clients(n)},
        )


def owner_against_a_full_ceiling(client: FlaskClient, clock: ManualClock, owner_code: str) -> None:
    """Each scenario a day of its own; strangers first fill the 200-an-hour ceiling."""

    def owner(typed: str, address: str, browser: FlaskClient | None = None) -> int:
        return (
            (browser or client)
            .post(
                "/api/check-license",
                json={"email": "victim@example.org", "activation_code": typed},
                environ_base={"REMOTE_ADDR": address},
            )
            .status_code
        )

    clock.moment += timedelta(days=1)
    wrong_checks(client, clock, lambda n: f"10.9.0.{n % 20}", 200)
    answers = [owner(code(10**18), "192.0.2.201"), owner(owner_code, "192.0.2.201")]
    print(f"owner, the ceiling full: an old code, then the right one: {answers}")

    clock.moment += timedelta(days=1)
    browser = client.application.test_client()
    assert owner(owner_code, "192.0.2.202", browser) == 200  # the browser opens the licence once
    wrong_checks(client, clock, lambda n: "192.0.2.202" if n < 20 else f"10.9.1.{n % 20}", 200)
    without = owner(owner_code, "192.0.2.202")
    with_cookie = [owner(code(10**18), "192.0.2.202", browser), owner(owner_code, "192.0.2.202", browser)]
    print(
        "owner, strangers behind the owner's own address fill its count for the e-mail and the ceiling: "
        f"without the device cookie {without}; with it, an old code then the right one: "
        f"{with_cookie}"
    )


def mail_flood(client: FlaskClient, clock: ManualClock, hub: Hub) -> None:
    """A stranger signs one mailbox up, and opens a ticket in its name, every minute for a day."""
    clock.moment += timedelta(days=1)
    spellings = ["flood@gmail.com", "f.lood@gmail.com", "Flood+{n}@googlemail.com", "FLO.OD+{n}@gmail.com"]
    licences = tickets = 0
    for minute in range(24 * 60):
        clock.moment += timedelta(minutes=1)
        address = spellings[minute % 4].format(n=minute)
        where = {"REMOTE_ADDR": f"2001:db8:{minute:x}::1"}
        form = client.post("/api/submit-email", json={"email": address}, environ_base=where).get_json()
        created = client.post(
            "/api/create-user",
            json={"email": form["form_data"].pop("user_email"), **form["form_data"]},
            environ_base=where,
        )
        licences += created.status_code == 200
        tickets += (
            client.post(
                "/api/support", json={"email": address, "message": "hi"}, environ_base=where
            ).status_code
            == 200
        )
    outbox = hub.services.settings.data_dir / "outbox"
    before = set(outbox.glob("*.eml")) if outbox.exists() else set()
    while sum(hub.mail.deliver_due()):
        pass
    subjects = [
        message["Subject"]
        for message in (
            email.message_from_bytes(path.read_bytes(), policy=default)
            for path in outbox.glob("*.eml")
            if path not in before
        )
        if mailbox_key(message["To"]) == mailbox_key("flood@gmail.com")
    ]
    licence_mails = sum(subject.startswith("Your free VPN licence") for subject in subjects)
    acknowledgements = sum(subject.startswith("We have your message") for subject in subjects)
    print(
        f"mail flood at one mailbox, a sign-up and a ticket a minute for a day from 1,440 addresses in "
        f"four spellings: {licences} licences shown, {tickets} tickets taken; the mailbox got "
        f"{licence_mails} licence e-mail(s) and {acknowledgements} acknowledgement(s)"
    )


def one_network(client: FlaskClient, clock: ManualClock) -> None:
    networks: list[tuple[str, Callable[[int], str]]] = [
        ("an IPv6 /48, a new /64 each time", lambda n: f"2001:db8:77:{n % 65536:x}::1"),
        ("an IPv4 /24, a new address each time", lambda n: f"198.51.77.{n % 256}"),
    ]
    for label, address_of in networks:
        clock.moment += timedelta(days=2)
        licences = 0
        for n in range(24 * 360):
            clock.moment += timedelta(seconds=10)
            where = {"REMOTE_ADDR": address_of(n)}
            submitted = client.post(
                "/api/submit-email", json={"email": f"n{n}@example.org"}, environ_base=where
            )
            if submitted.status_code != 200:
                continue
            form = submitted.get_json()["form_data"]
            created = client.post(
                "/api/create-user", json={"email": form.pop("user_email"), **form}, environ_base=where
            )
            licences += created.status_code == 200
        print(f"one network, {label}, a sign-up every ten seconds for a day: {licences} licences")


def sign_up_burst_under_challenge(folder: Path) -> None:
    clock = ManualClock()
    settings = load_settings({"VPNSITE_ACCESS_LOG": "false"}, env_file=None, data_dir=folder)
    hub = build_hub(settings, clock=clock)
    client = create_app(hub.services).test_client()
    free = challenged = 0
    seconds: list[float] = []
    for n in range(600):
        clock.moment += timedelta(seconds=1)
        where = {"REMOTE_ADDR": f"2001:db8:{n:x}::1"}
        body: dict[str, object] = {"email": f"burst{n}@example.org"}
        asked = client.post("/api/submit-email", json=body, environ_base=where)
        if asked.status_code == 428:
            challenged += 1
            challenge = asked.get_json()["challenge"]
            start = time.process_time()
            number, _ = solve(challenge)
            seconds.append(time.process_time() - start)
            fields = {name: challenge[name] for name in ("algorithm", "challenge", "salt", "signature")}
            body["altcha"] = base64.b64encode(json.dumps({**fields, "number": number}).encode()).decode()
            asked = client.post("/api/submit-email", json=body, environ_base=where)
        else:
            free += 1
        form = asked.get_json()["form_data"]
        made = client.post(
            "/api/create-user", json={"email": form.pop("user_email"), **form}, environ_base=where
        )
        assert made.status_code == 200, made.get_data()
    hub.close()
    print(
        f"sign-up burst, the proof of work on (auto): a sign-up a second for ten minutes from 600 /48s: "
        f"{free} taken before the pace asked for challenges, {challenged} challenged; an attacker's "
        f"hashlib paid {statistics.median(seconds):.3f} CPU-s per licence (median; "
        f"{sum(seconds) / 3600 * 1_000_000 / len(seconds):.0f} CPU-hours a million)"
    )


def vpn_login_burst(hub: Hub, client: FlaskClient, clock: ManualClock) -> None:
    """Scenario 6: the burst a server's token allows, as the node API meets it."""
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
