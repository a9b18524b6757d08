"""Renewal keeps the licence and its code: opens seven days before the end, once per window, up to
thirty days after; reminders go out once with a one-time link."""

from __future__ import annotations

import email
import threading
from email.policy import default
from typing import Any

from tests.integration.contract import assert_matches_contract
from tests.support.api import sign_up
from vpnsite_adapters.http.app import create_app


def renew(client: Any, body: dict[str, str]) -> Any:
    response = client.post("/api/renew", json=body)
    assert_matches_contract("/api/renew", "POST", response)
    return response


def licensed(make_hub: Any, **settings: Any) -> tuple[Any, Any, dict[str, str]]:
    hub = make_hub(**settings)
    services = hub.services
    client = create_app(services).test_client()
    code = client.post("/api/create-user", json=sign_up(client)).get_json()["user_code"]
    return hub, client, {"email": "anna@example.org", "activation_code": code}


def test_renewal_opens_seven_days_before_the_end(make_hub: Any, clock: Any) -> None:
    hub, client, credentials = licensed(make_hub)
    early = renew(client, credentials)
    assert early.status_code == 409
    assert early.get_json()["code"] == "not_renewable_yet"
    assert "8 April 2026" in early.get_json()["detail"]
    french = client.post("/api/renew", json=credentials, headers={"Accept-Language": "fr"}).get_json()[
        "detail"
    ]
    assert "à partir du 8 avril 2026" in french
    checked = client.post("/api/check-license", json=credentials).get_json()["license"]
    assert checked["renewable"] is False and checked["renewable_from"] == "2026-04-08"

    clock.advance(days=84)
    assert client.post("/api/check-license", json=credentials).get_json()["license"]["renewable"] is True
    renewed = renew(client, credentials)
    assert renewed.status_code == 200
    licence = renewed.get_json()["license"]
    assert licence["days"] == 96, "the days left plus a whole term"
    assert licence["code"] == credentials["activation_code"]
    assert renew(client, credentials).status_code == 409, "once per window"


def test_an_ended_licence_renews_for_thirty_days_then_not(make_hub: Any, clock: Any) -> None:
    hub, client, credentials = licensed(make_hub)
    clock.advance(days=90 + 29)
    renewed = renew(client, credentials)
    assert renewed.status_code == 200
    assert renewed.get_json()["license"]["days"] == 90
    assert renewed.get_json()["license"]["configUrl"] is not None

    hub2, client2, credentials2 = licensed(make_hub)
    clock.advance(days=90 + 31)
    closed = renew(client2, credentials2)
    assert closed.status_code == 410 and closed.get_json()["code"] == "renewal_closed"


def test_a_wrong_code_cannot_renew(make_hub: Any, clock: Any) -> None:
    _, client, credentials = licensed(make_hub)
    clock.advance(days=85)
    response = renew(
        client, {"email": "someone@example.org", "activation_code": credentials["activation_code"]}
    )
    assert response.status_code == 404
    assert renew(client, {"email": "anna@example.org"}).status_code == 422


def test_an_ended_licence_renews_only_while_the_free_tier_has_room(make_hub: Any, clock: Any) -> None:
    hub, client, credentials = licensed(make_hub, free_tier_cap=1)
    clock.advance(days=91)
    other = client.post("/api/create-user", json=sign_up(client, "bob@example.org"))
    assert other.status_code == 200
    hub.services.snapshot.refresh()
    refused = renew(client, credentials)
    assert refused.status_code == 403 and refused.get_json()["code"] == "free_tier_full"


def test_a_reminder_carries_a_one_time_renewal_link(make_hub: Any, clock: Any, tmp_path: Any) -> None:
    hub, client, credentials = licensed(make_hub, public_url="https://vpn.example")
    clock.advance(days=82)
    assert hub.jobs.send_renewal_reminders() == 0, "not yet inside the window"
    clock.advance(days=2)
    assert hub.jobs.send_renewal_reminders() == 1
    assert hub.jobs.send_renewal_reminders() == 0, "one reminder per window"
    hub.mail.deliver_due()
    reminder = sorted((tmp_path / "data" / "outbox").glob("*.eml"))[-1]
    message = email.message_from_bytes(reminder.read_bytes(), policy=default)
    assert message["Subject"] == "Your free VPN licence ends on 15 April 2026"
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    text = str(body.get_content())
    link = next(word for word in text.split() if word.startswith("https://vpn.example/license?renew="))
    token = link.rsplit("=", 1)[1]

    renewed = renew(client, {"token": token})
    assert renewed.status_code == 200
    assert renewed.get_json()["license"]["days"] == 96
    assert renewed.get_json()["license"]["code"] is None
    again = renew(client, {"token": token})
    assert again.status_code == 400 and "already been used" in again.get_json()["detail"]
    assert renew(client, {"token": "nonsense"}).status_code == 404
    checked = client.post("/api/check-license", json=credentials)
    assert checked.get_json()["license"]["days"] == 96, "the same code still opens the renewed licence"


def test_two_hubs_reminding_at_the_same_moment_remind_each_licence_once(make_hub: Any, clock: Any) -> None:
    """Hubs started together run their reminder rounds together: of the two, one reminds."""
    first, second = make_hub(rate_limits="off"), make_hub(rate_limits="off")
    client = create_app(first.services).test_client()
    licences = 12
    for n in range(licences):
        created = client.post("/api/create-user", json=sign_up(client, f"user{n}@example.org"))
        assert created.status_code == 200, created.get_json()
    clock.advance(days=84)
    barrier = threading.Barrier(2)
    sent: list[int] = []

    def remind(hub: Any) -> None:
        barrier.wait()
        sent.append(hub.jobs.send_renewal_reminders())

    threads = [threading.Thread(target=remind, args=(hub,)) for hub in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(sent) == licences, sent
    assert first.jobs.send_renewal_reminders() + second.jobs.send_renewal_reminders() == 0
