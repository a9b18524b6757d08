"""What strangers can do with someone else's e-mail address, against a real `vpnsite serve`
(waitress in front, behind a trusted proxy so each request may come from an address of its own):
neither the support form nor a flood of wrong codes locks the address's owner out, and the support
form does not mail the owner in bulk or quote strangers' words to them."""

from __future__ import annotations

import email
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest
import requests

from tests.support.serve import Served, serving, signed_form
from vpnsite.codes import luhn_check_digit

Serve = Callable[..., Served]
SPAM = "Cheap pills at https://spam.example, reply now"


@pytest.fixture
def serve(tmp_path: Path, database_url: str) -> Iterator[Serve]:
    with serving(tmp_path, database_url=database_url, trusted_proxies="127.0.0.1") as start:
        yield start


def outbox(served: Served, tmp_path: Path) -> Path:
    return tmp_path / f"data-{served.base.rsplit(':', 1)[1]}" / "outbox"


def mails(folder: Path, count: int) -> list[EmailMessage]:
    """The outbox's messages, once it holds ``count`` of them (the sender runs in the background);
    a moment more, to see that no more come."""
    deadline = time.monotonic() + 15
    while len(list(folder.glob("*.eml"))) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1)
    return [
        email.message_from_bytes(path.read_bytes(), policy=default) for path in sorted(folder.glob("*.eml"))
    ]


def ticket(base: str, address: str, message: str, client: str) -> requests.Response:
    return requests.post(
        base + "/api/support",
        json={"email": address, "message": message},
        headers={"X-Forwarded-For": client},
        timeout=10,
    )


def test_strangers_cannot_lock_an_address_out_of_support_or_mail_it_in_bulk(
    serve: Serve, tmp_path: Path
) -> None:
    served = serve()
    answers = [ticket(served.base, "carol@example.org", SPAM, f"203.0.113.{n}") for n in range(5)]
    owner = ticket(served.base, "Carol@Example.org", "My VPN does not connect.", "198.51.100.7")
    tagged = ticket(served.base, "carol+support@example.org", SPAM, "203.0.113.77")
    answers += [owner, tagged]

    assert [answer.status_code for answer in answers] == [200] * 7, "the owner is not locked out"
    numbers = [answer.json()["ticket"] for answer in answers]
    assert len(set(numbers)) == 7
    # Whether an acknowledgement went out (only the first did) shows in nothing the visitor sees.
    shapes = {
        (
            answer.status_code,
            tuple(sorted(answer.json())),
            answer.json()["success"],
            tuple(sorted((k, v) for k, v in answer.headers.items() if k not in ("Date", "X-Request-Id"))),
        )
        for answer in answers
    }
    assert len(shapes) == 1, shapes

    sent = mails(outbox(served, tmp_path), 8)
    forwarded = [m for m in sent if m["To"] == "support@localhost"]
    acknowledgements = [m for m in sent if m["To"] != "support@localhost"]
    assert sorted(number for m in forwarded for number in numbers if number in m["Subject"]) == sorted(
        numbers
    )
    assert len(acknowledgements) == 1, "one acknowledgement an hour to one mailbox, tagged or not"
    [acknowledgement] = acknowledgements
    body = acknowledgement.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    html = acknowledgement.get_body(("html",)).get_content()  # type: ignore[union-attr]
    assert numbers[0] in acknowledgement["Subject"] and numbers[0] in body
    assert "spam.example" not in body + html and "pills" not in body + html, (
        "strangers' words are not relayed"
    )
    assert "reply to this e-mail" in body and acknowledgement["Reply-To"] == "support@localhost"

    for n in range(5):
        assert ticket(served.base, f"x{n}@example.org", "hi", "192.0.2.50").status_code == 200
    refused = ticket(served.base, "carol@example.org", "hi", "192.0.2.50")
    assert refused.status_code == 429, "one client is still held to five tickets an hour"


def wrong_code(n: int) -> str:
    payload = f"{n:019d}"
    return payload + luhn_check_digit(payload)


def check(base: str, code: str, client: str) -> requests.Response:
    return requests.post(
        base + "/api/check-license",
        json={"email": "owner@example.org", "activation_code": code},
        headers={"X-Forwarded-For": client},
        timeout=10,
    )


def test_an_owner_who_mistyped_once_is_not_locked_out_by_strangers_guessing(serve: Serve) -> None:
    # The per-address rule on all calls is set aside: a test sends faster than people do.
    base = serve(rate_limits="check-license:ip=1000/1m").base
    home = {"X-Forwarded-For": "198.51.100.9"}
    created = requests.post(
        base + "/api/create-user", json=signed_form(base, "owner@example.org", **home), headers=home
    )
    code = created.json()["user_code"]
    assert check(base, wrong_code(10**18), "198.51.100.9").status_code == 404, "the owner mistypes once"

    strangers = [check(base, wrong_code(n), f"203.0.113.{n % 20}").status_code for n in range(199)]
    assert strangers == [404] * 199, "with the owner's, 200 wrong codes: the ceiling is full"
    held = check(base, wrong_code(500), "203.0.113.0")
    assert held.status_code == 429 and int(held.headers["Retry-After"]) > 3000, "strangers are held back"
    assert [check(base, wrong_code(600), "192.0.2.1").status_code for _ in range(2)] == [404, 429], (
        "a new address is looked at once while the ceiling is full"
    )

    owner = check(base, code, "198.51.100.9")
    assert owner.status_code == 200, owner.text
