"""Sign-ups that come faster than people do pay a proof of work, against real `vpnsite serve`
processes on both databases (behind a trusted proxy, so each sign-up may come from an address of
its own): submit-email answers 428 with a challenge, a solved one signs up once, a replayed,
forged or expired one is refused with its own code, a burst past the floor is challenged on every
hub sharing the database, and the plain form without a script gets its bounded allowance, then a
"try again in …" in its language."""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs
import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.integration.contract import assert_matches_contract
from tests.support.proof_of_work import payload, solution_number
from tests.support.serve import Served, serving
from vpnsite.keyed_hashes import Keyring
from vpnsite.signup_pace import COUNTS_FRESH_FOR
from vpnsite_adapters.http.messages import detail_text
from vpnsite_adapters.protection.altcha_challenges import AltchaChallenges
from vpnsite_adapters.runtime.clock_and_random import SystemRandom

Serve = Callable[..., Served]
SECRET = "a-test-master-key-shared-by-every-hub-of-this-test"


@pytest.fixture
def serve(tmp_path: Path, database_url: str) -> Iterator[Serve]:
    with serving(
        tmp_path, database_url=database_url, trusted_proxies="127.0.0.1", secret_key=SECRET
    ) as start:
        yield start


def submit(served: Served, email: str, client: str, altcha: str | None = None, language: str = "en") -> Any:
    body: dict[str, Any] = {"email": email, **({"altcha": altcha} if altcha is not None else {})}
    return requests.post(
        served.base + "/api/submit-email",
        json=body,
        headers={"X-Forwarded-For": client, "Accept-Language": language},
        timeout=10,
    )


def create(served: Served, answer: Any, client: str) -> Any:
    form = answer.json()["form_data"]
    body = {"email": form.pop("user_email"), **form}
    return requests.post(
        served.base + "/api/create-user", json=body, headers={"X-Forwarded-For": client}, timeout=10
    )


def challenge_of(answer: Any, code: str = "challenge_required") -> dict[str, Any]:
    assert answer.status_code == 428, answer.text
    # The contract check reads a Flask answer's get_json.
    read = SimpleNamespace(status_code=answer.status_code, get_json=answer.json)
    body = assert_matches_contract("/api/submit-email", "post", read)
    assert body["code"] == code and answer.headers["Cache-Control"] == "no-store"
    challenge: dict[str, Any] = body["challenge"]
    return challenge


def test_always_a_sign_up_solves_a_challenge_once_and_a_replayed_forged_or_expired_one_is_refused(
    serve: Serve,
) -> None:
    served = serve(signup_challenge="always")
    asked = submit(served, "anna@example.org", "198.51.100.1", language="ru")
    challenge = challenge_of(asked)
    assert asked.json()["detail"] == detail_text("challenge_required", "ru"), "in the caller's language"
    assert challenge["algorithm"] == "SHA-256" and challenge["maxnumber"] >= 100_000

    solution = payload(challenge)
    answer = submit(served, "anna@example.org", "198.51.100.1", solution)
    assert answer.status_code == 200, answer.text
    assert create(served, answer, "198.51.100.1").status_code == 200, "a solved challenge signs up"

    replayed = challenge_of(submit(served, "bob@example.org", "198.51.100.2", solution), "challenge_used")
    assert replayed["challenge"] != challenge["challenge"], "with a fresh challenge to solve"

    fresh = challenge_of(submit(served, "carol@example.org", "198.51.100.3"))
    wrong = payload(fresh, number=(solution_number(fresh) + 1) % (fresh["maxnumber"] + 1))
    challenge_of(submit(served, "carol@example.org", "198.51.100.3", wrong), "challenge_invalid")
    challenge_of(submit(served, "carol@example.org", "198.51.100.3", "bm90IGpzb24="), "challenge_invalid")

    # A challenge the service itself signed (the same master key), whose time is up.
    ours = AltchaChallenges(Keyring.from_master(SECRET.encode()), SystemRandom(), 1000)
    expired = ours.issue(datetime.now(UTC) - timedelta(seconds=5))
    sent = {**attrs.asdict(expired), "maxnumber": expired.max_number}
    challenge_of(submit(served, "dave@example.org", "198.51.100.4", payload(sent)), "challenge_expired")
    assert served.process.poll() is None


def test_a_burst_past_the_floor_is_challenged_on_every_hub_sharing_the_database(serve: Serve) -> None:
    """A new service with a floor of three sign-ups an hour: a burst gets through as it is until
    the counts are read again (every few seconds), then each sign-up solves a challenge, on this
    hub and on another one on the same database; a solution used on one is refused on the other."""
    first, second = serve(signup_challenge_floor="3"), serve(signup_challenge_floor="3")
    unchallenged = 0
    deadline = time.monotonic() + COUNTS_FRESH_FOR.total_seconds() * 4
    challenged = None
    for number in range(1000):
        client = f"10.77.{number % 250}.1"  # a /24 of its own: the burst comes from many networks
        answer = submit(first, f"burst{number}@example.org", client)
        if answer.status_code == 428:
            challenged = answer
            break
        assert answer.status_code == 200, answer.text
        if unchallenged < 3:
            assert create(first, answer, client).status_code == 200
            unchallenged += 1
        assert time.monotonic() < deadline, "the burst was never challenged"
        time.sleep(0.2)
    assert challenged is not None and unchallenged == 3

    deadline = time.monotonic() + COUNTS_FRESH_FOR.total_seconds() * 4
    while (answer := submit(second, "other-hub@example.org", "192.0.2.9")).status_code == 200:
        assert time.monotonic() < deadline, "the other hub never saw the pace"
        time.sleep(0.2)
    solution = payload(challenge_of(answer))
    signed = submit(first, "solved@example.org", "192.0.2.10", solution)
    assert signed.status_code == 200 and create(first, signed, "192.0.2.10").status_code == 200
    challenge_of(submit(second, "again@example.org", "192.0.2.11", solution), "challenge_used")


def sign_up_without_script(served: Served, email: str, client: str, prefix: str = "") -> requests.Response:
    return requests.post(
        f"{served.base}{prefix}/activation",
        data={"email": email},
        headers={"Origin": served.base, "X-Forwarded-For": client},
        timeout=10,
    )


def test_the_plain_form_under_pressure_gets_its_allowance_then_try_again_in_its_language(
    serve: Serve,
) -> None:
    served = serve(signup_challenge="always", signup_challenge_floor="2", metrics_token=SECRET)
    for number in range(2):
        answer = sign_up_without_script(served, f"plain{number}@example.org", f"198.51.100.{number + 1}")
        assert answer.status_code == 200 and "activation" in answer.text
    refused = sign_up_without_script(served, "third@example.org", "198.51.100.9", "/fr")
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert 3500 < wait <= 3600, "the hour's first unchallenged sign-up leaves the window"
    said = detail_text("signups_busy", "fr", seconds=wait)
    assert html.escape(said, quote=False) in refused.text or said in html.unescape(refused.text)
    assert "third@example.org" in refused.text, "the address typed stays in the form"

    api = submit(served, "api@example.org", "198.51.100.10")
    assert api.status_code == 428, "a script is still asked for a challenge, not held to the allowance"

    # The operator sees the pressure: the challenges asked for, and the plain form's refusals.
    scraped = requests.get(served.base + "/metrics", headers={"Authorization": f"Bearer {SECRET}"}, timeout=5)
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(scraped.text)
        for sample in family.samples
    }
    assert samples[("vpnsite_signup_challenges_total", (("code", "challenge_required"),))] == 1
    assert samples[("vpnsite_signup_challenges_total", (("code", "challenge_used"),))] == 0
    assert samples[("vpnsite_rate_limit_refusals_total", (("action", "unchallenged-sign-up"),))] == 1


def test_off_asks_nothing_of_anyone(serve: Serve) -> None:
    served = serve(signup_challenge="off", signup_challenge_floor="0")
    for number in range(3):
        answer = submit(served, f"free{number}@example.org", f"198.51.100.{number + 1}")
        assert (
            answer.status_code == 200
            and create(served, answer, f"198.51.100.{number + 1}").status_code == 200
        )
        form = sign_up_without_script(served, f"form{number}@example.org", f"203.0.113.{number + 1}")
        assert form.status_code == 200
