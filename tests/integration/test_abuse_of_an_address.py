"""What strangers can do with someone else's e-mail address, against a real `vpnsite serve`
(waitress in front, behind a trusted proxy so each request may come from an address of its own):
neither the support form nor a flood of wrong codes locks the address's owner out, neither the
sign-up nor the support form mails the owner in bulk, however the address is spelt, and the
support form does not quote strangers' words to them. One network cannot take more than three
clients' worth of sign-ups."""

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
from vpnsite.rate_limits import DEVICE_FAILURES

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
    assert [check(base, wrong_code(600), "192.0.2.1").status_code for _ in range(3)] == [404, 404, 429], (
        "a new address is looked at twice while the ceiling is full"
    )

    owner = check(base, code, "198.51.100.9")
    assert owner.status_code == 200, owner.text


# One Gmail mailbox, as six strangers spell it.
SPELLINGS = [
    "victim@gmail.com",
    "v.ictim@gmail.com",
    "Victim+vpn@googlemail.com",
    "VIC.TIM@GMAIL.COM",
    "victim@googlemail.com",
    "vi.ct.im+x@gmail.com",
]


def sign_up(base: str, address: str, client: str) -> requests.Response:
    home = {"X-Forwarded-For": client}
    return requests.post(
        base + "/api/create-user", json=signed_form(base, address, **home), headers=home, timeout=10
    )


def test_one_mailbox_gets_one_licence_e_mail_and_one_acknowledgement_however_spelt(
    serve: Serve, tmp_path: Path
) -> None:
    """Six strangers from six networks sign the mailbox up and open tickets in its name: each gets
    a licence (shown, not mailed after the first) and a ticket; the mailbox gets one licence e-mail
    and one acknowledgement. Without JavaScript the answer says, in its language, why no e-mail."""
    served = serve()
    created = [sign_up(served.base, address, f"203.0.{n}.9") for n, address in enumerate(SPELLINGS)]
    assert [answer.status_code for answer in created] == [200] * 6
    assert [answer.json()["emailed"] for answer in created] == [True] + [False] * 5
    assert len({answer.json()["user_code"] for answer in created}) == 6, "every licence is shown"
    tickets = [ticket(served.base, address, SPAM, f"198.18.{n}.9") for n, address in enumerate(SPELLINGS)]
    assert [answer.status_code for answer in tickets] == [200] * 6

    page = requests.post(
        served.base + "/ru/activation",
        data={"email": "V.I.C.T.I.M@gmail.com"},
        headers={"Origin": served.base, "X-Forwarded-For": "192.0.2.77"},
        timeout=10,
    )
    assert page.status_code == 200
    assert 'data-mailed="no"' in page.text and "Сегодня на этот адрес уже отправлялось письмо" in page.text
    first = requests.post(
        served.base + "/activation",
        data={"email": "someone.else@example.org"},
        headers={"Origin": served.base, "X-Forwarded-For": "192.0.2.78"},
        timeout=10,
    )
    assert 'data-mailed="yes"' in first.text, "mailed: the note is there for the stylesheet to hide"

    sent = mails(outbox(served, tmp_path), 6 + 1 + 1 + 1)
    to_victim = [m for m in sent if m["To"] != "support@localhost" and "someone" not in m["To"]]
    assert sorted(m["Subject"].split(" ")[0] for m in to_victim) == ["We", "Your"], [
        m["Subject"] for m in to_victim
    ]
    assert len([m for m in sent if m["To"] == "support@localhost"]) == 6, "every ticket reaches support"


def test_an_internationalised_domain_is_one_mailbox_in_either_form(serve: Serve, tmp_path: Path) -> None:
    served = serve()
    assert sign_up(served.base, "anna@bücher.de", "203.0.113.1").json()["emailed"] is True
    assert sign_up(served.base, "ANNA@XN--BCHER-KVA.DE", "198.51.100.1").json()["emailed"] is False
    [licence_mail] = mails(outbox(served, tmp_path), 1)
    assert licence_mail["To"] == "anna@xn--bcher-kva.de", "mailed in the form every server reads"


def test_an_owner_who_mistypes_while_strangers_keep_the_ceiling_full_gets_in(serve: Serve) -> None:
    """The review's case: strangers fill the 200-an-hour ceiling first; the owner, from an address
    of their own, types an old code, then the right one."""
    base = serve(rate_limits="check-license:ip=1000/1m").base
    code = sign_up(base, "owner@example.org", "198.51.100.9").json()["user_code"]
    strangers = [check(base, wrong_code(n), f"203.0.113.{n % 20}").status_code for n in range(200)]
    assert strangers == [404] * 200
    assert check(base, wrong_code(10**18), "192.0.2.44").status_code == 404, "an old code"
    owner = check(base, code, "192.0.2.44")
    assert owner.status_code == 200, owner.text


def test_a_browser_that_opened_the_licence_before_is_never_held_back(serve: Serve) -> None:
    """Strangers behind the owner's own address (a shared network) fill the ceiling and the
    address's own count for the e-mail: without its device cookie the owner waits an hour; the
    browser that opened the licence before gets in, even after mistyping, in the API and in the
    form without JavaScript."""
    base = serve(rate_limits="check-license:ip=1000/1m").base
    code = sign_up(base, "owner@example.org", "198.51.100.9").json()["user_code"]
    browser = requests.Session()
    opened = browser.post(
        base + "/api/check-license",
        json={"email": "owner@example.org", "activation_code": code},
        headers={"X-Forwarded-For": "198.51.100.9"},
        timeout=10,
    )
    assert opened.status_code == 200
    cookie = opened.headers["Set-Cookie"]
    assert "hz_device=" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert "owner" not in cookie and code not in cookie

    for n in range(200):
        check(base, wrong_code(n), "198.51.100.9" if n < 20 else f"203.0.113.{n % 20}")
    assert check(base, code, "198.51.100.9").status_code == 429, "no cookie: the address is a guesser"

    def with_cookie(typed: str) -> int:
        return browser.post(
            base + "/api/check-license",
            json={"email": "Owner@example.org", "activation_code": typed},
            headers={"X-Forwarded-For": "198.51.100.9"},
            timeout=10,
        ).status_code

    assert with_cookie(wrong_code(10**18)) == 404, "the owner mistypes"
    assert with_cookie(code) == 200, "and gets in"
    page = browser.post(
        base + "/license",
        data={"email": "owner@example.org", "activation_code": code},
        headers={"Origin": base, "X-Forwarded-For": "198.51.100.9"},
        timeout=10,
    )
    assert page.status_code == 200 and "owner@example.org" in page.text


def test_a_browser_that_keeps_typing_wrong_codes_waits_even_with_the_right_one(serve: Serve) -> None:
    """The device cookie's own count holds: after DEVICE_FAILURES wrong codes within the hour, the
    browser that opened the licence waits like anyone, even when it then types the right code;
    the count is read in the same look as the licence, and still decides before it."""
    base = serve(rate_limits="check-license:ip=1000/1m").base
    code = sign_up(base, "owner@example.org", "198.51.100.9").json()["user_code"]
    browser = requests.Session()

    def with_cookie(typed: str) -> requests.Response:
        return browser.post(
            base + "/api/check-license",
            json={"email": "owner@example.org", "activation_code": typed},
            headers={"X-Forwarded-For": "198.51.100.9"},
            timeout=10,
        )

    assert with_cookie(code).status_code == 200
    assert [with_cookie(wrong_code(n)).status_code for n in range(DEVICE_FAILURES)] == [404] * DEVICE_FAILURES
    refused = with_cookie(code)
    assert refused.status_code == 429, refused.text
    assert int(refused.headers["Retry-After"]) > 0


def slash_64(n: int, site: str = "2001:db8:aa") -> str:
    return f"{site}:{n:x}::1"


def test_one_network_gets_three_clients_worth_of_sign_ups(serve: Serve) -> None:
    """Forty /64s of one /48 in a row, then the /48 next door; forty addresses of one /24."""
    base = serve().base

    def submitted(client: str) -> int:
        return requests.post(
            base + "/api/submit-email",
            json={"email": "new@example.org"},
            headers={"X-Forwarded-For": client},
            timeout=10,
        ).status_code

    site = [submitted(slash_64(n)) for n in range(40)]
    assert site.count(200) == 15 and site[15:] == [429] * 25
    assert submitted(slash_64(0, "2001:db8:bb")) == 200, "another /48 is unaffected"
    office = [submitted(f"198.51.100.{n}") for n in range(40)]
    assert office.count(200) == 15
    assert submitted("198.51.101.1") == 200
