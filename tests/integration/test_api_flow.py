"""The whole sign-up flow through the HTTP API, every answer checked against the OpenAPI document."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import call, sign_up


def test_sign_up_then_check_the_licence_with_the_code(client: Any, services: Any) -> None:
    _, before = call(client, "/api/user-count")
    payload = sign_up(client, "Anna@Example.ORG")
    assert payload["email"] == "Anna@example.org"
    assert payload["user_days"] == 90

    status, activation = call(client, "/api/create-user", payload)
    assert status == 200
    assert activation["user_days"] == 90
    assert activation["user_stop"] - activation["user_start"] == 90 * 86400
    assert activation["activation_url"].startswith("http://localhost/api/config/")

    status, checked = call(
        client,
        "/api/check-license",
        {"email": "anna@EXAMPLE.org", "activation_code": activation["user_code"]},
    )
    assert status == 200
    licence = checked["license"]
    assert licence["code"] == activation["user_code"]
    assert licence["days"] == 90
    assert licence["email"] == "Anna@example.org"
    assert licence["configUrl"].startswith("http://localhost/api/config/")
    # A link is the licence and its expiry, signed: the same second gives the same link.
    assert licence["configUrl"] == activation["activation_url"]

    services.snapshot.refresh()
    _, after = call(client, "/api/user-count")
    assert after["user_count"] == before["user_count"] + 1


def test_a_code_typed_in_groups_is_understood(client: Any) -> None:
    _, activation = call(client, "/api/create-user", sign_up(client))
    code = activation["user_code"]
    grouped = " ".join(code[i : i + 4] for i in range(0, 20, 4))
    status, _ = call(client, "/api/check-license", {"email": "anna@example.org", "activation_code": grouped})
    assert status == 200


def test_replaying_create_user_is_refused_as_already_used(client: Any, services: Any) -> None:
    payload = sign_up(client)
    assert call(client, "/api/create-user", payload)[0] == 200
    status, error = call(client, "/api/create-user", payload)
    assert status == 400
    assert error["code"] == "request_already_used"
    assert "already been used" in error["detail"]
    services.snapshot.refresh()
    assert services.snapshot.users == 1


@pytest.mark.parametrize(
    "field, value",
    [
        ("user_days", 3650),
        ("email", "mallory@example.org"),
        ("subscription", "premium"),
        ("user_comment", "vip"),
        ("request_id", "0" * 32),
        ("sig", "0" * 64),
    ],
)
def test_a_tampered_request_is_refused(client: Any, field: str, value: Any) -> None:
    payload = sign_up(client)
    status, error = call(client, "/api/create-user", {**payload, field: value})
    assert status == 403
    assert error["code"] == "invalid_signature"
    # The genuine request is still good: tampering did not burn it.
    assert call(client, "/api/create-user", payload)[0] == 200


def test_a_request_expires_after_thirty_minutes(client: Any, clock: Any) -> None:
    payload = sign_up(client)
    clock.advance(minutes=30)
    status, error = call(client, "/api/create-user", payload)
    assert status == 410
    assert error["code"] == "request_expired"


def test_wrong_code_and_wrong_email_are_indistinguishable(client: Any) -> None:
    _, activation = call(client, "/api/create-user", sign_up(client))
    code = activation["user_code"]
    other_code = code[:18] + str((int(code[18]) + 1) % 10)
    from vpnsite.codes import luhn_check_digit

    other_code += luhn_check_digit(other_code)
    wrong_code = client.post(
        "/api/check-license", json={"email": "anna@example.org", "activation_code": other_code}
    )
    wrong_email = client.post(
        "/api/check-license", json={"email": "bob@example.org", "activation_code": code}
    )
    assert wrong_code.status_code == wrong_email.status_code == 404
    assert wrong_code.get_json() == wrong_email.get_json()
    assert wrong_code.get_json()["detail"] == "Activation code or e-mail not found."


def test_a_mistyped_code_is_caught_by_its_check_digit(client: Any) -> None:
    _, activation = call(client, "/api/create-user", sign_up(client))
    code = activation["user_code"]
    typo = code[:5] + str((int(code[5]) + 1) % 10) + code[6:]
    status, error = call(client, "/api/check-license", {"email": "anna@example.org", "activation_code": typo})
    assert status == 422
    assert error["detail"][0]["loc"] == ["body", "activation_code"]
    assert error["detail"][0]["type"] == "value_error.code_mistyped"


def test_the_eleventh_check_in_a_minute_is_rate_limited(client: Any, clock: Any) -> None:
    _, activation = call(client, "/api/create-user", sign_up(client))
    body = {"email": "anna@example.org", "activation_code": activation["user_code"]}
    for _ in range(10):
        assert call(client, "/api/check-license", body)[0] == 200
    response = client.post("/api/check-license", json=body)
    assert response.status_code == 429
    assert "Too many requests" in response.get_json()["detail"]
    assert response.get_json()["code"] == "rate_limited"
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    clock.advance(seconds=int(response.headers["Retry-After"]))
    assert call(client, "/api/check-license", body)[0] == 200


def test_sign_ups_are_limited_per_visitor_and_per_address(client: Any) -> None:
    for _ in range(5):
        assert (
            client.post(
                "/api/submit-email", json={"email": "a@example.org", "cookies": {"hz_id": "v"}}
            ).status_code
            == 200
        )
    refused = client.post("/api/submit-email", json={"email": "a@example.org", "cookies": {"hz_id": "v"}})
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0


def test_the_free_tier_cap_refuses_sign_ups(make_hub: Any) -> None:
    from vpnsite_adapters.http.app import create_app

    hub = make_hub(free_tier_cap=1)
    services = hub.services
    client = create_app(services).test_client()
    assert call(client, "/api/create-user", sign_up(client))[0] == 200
    services.snapshot.refresh()
    status, error = call(
        client, "/api/submit-email", {"email": "late@example.org"}, **{"Accept-Language": "fr-FR"}
    )
    assert status == 403
    assert error["code"] == "free_tier_full"
    assert "places gratuites" in error["detail"]


def test_a_support_ticket_gets_a_number(client: Any) -> None:
    status, ticket = call(
        client,
        "/api/support",
        {"email": "anna@example.org", "activation_code": "", "message": "It does not connect."},
    )
    assert status == 200
    assert ticket["ticket"].startswith("T-")


def test_server_status_lists_the_eight_locations(client: Any) -> None:
    status, fleet = call(client, "/api/server-status")
    assert status == 200
    assert [server["flag"] for server in fleet["vpn_servers"]] == [
        "nl",
        "lv",
        "pl",
        "ch",
        "ro",
        "de",
        "it",
        "us",
    ]
    assert fleet["summary"]["vpn_servers_count"] == 8
    # No billing service is configured: it is not listed.
    assert {server["id"] for server in fleet["system_servers"]} == {"activation-server", "hub-server"}
    activation_server = fleet["system_servers"][0]
    assert activation_server["status"] == "online" and activation_server["ping"] is not None


def test_polling_answers_304_when_nothing_changed(client: Any, services: Any) -> None:
    first = client.get("/api/user-count")
    assert first.headers["Cache-Control"] == "public, max-age=2"
    again = client.get("/api/user-count", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    call(client, "/api/create-user", sign_up(client))
    services.snapshot.refresh()
    changed = client.get("/api/user-count", headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200
    assert changed.get_json()["user_count"] == 1


def test_health_and_readiness(client: Any) -> None:
    assert call(client, "/healthz")[1] == {"status": "ok"}
    assert call(client, "/readyz")[1] == {"status": "ready"}
