"""Bad input gets a clear 4xx in the documented shapes, never a 500, and nothing is stored."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.integration.contract import assert_matches_contract
from tests.support.api import sign_up
from vpnsite.errors import DomainError
from vpnsite_adapters.http.errors import STATUS_OF
from vpnsite_adapters.texts.languages import LANGUAGES

CALLS = ["/api/submit-email", "/api/create-user", "/api/check-license", "/api/support"]


def count_rows(hub: Any) -> dict[str, int]:
    db = hub.store.db
    return {
        table: db.execute_sql(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        for table in ("licence", "user_end", "ticket", "mail_queue")
    }


@pytest.mark.parametrize("path", CALLS)
@pytest.mark.parametrize(
    "data, content_type, status, code",
    [
        ("{not json", "application/json", 400, "invalid_json"),
        ('{"email": "a@b.co"}', "text/plain", 415, "unsupported_media_type"),
        ("", "application/json", 400, "invalid_json"),
        ("[" * 5000 + "]" * 5000, "application/json", 400, "invalid_json"),
        ('{"email": "' + "a" * 17000 + '"}', "application/json", 413, "payload_too_large"),
    ],
)
def test_unreadable_bodies(
    client: Any, hub: Any, path: str, data: str, content_type: str, status: int, code: str
) -> None:
    before = count_rows(hub)
    response = client.post(path, data=data, content_type=content_type)
    assert response.status_code == status
    assert assert_matches_contract(path, "POST", response)["code"] == code
    assert count_rows(hub) == before


@pytest.mark.parametrize(
    "path, body, loc, kind",
    [
        ("/api/submit-email", {}, ["body", "email"], "missing"),
        ("/api/submit-email", {"email": 42}, ["body", "email"], "wrong_type"),
        ("/api/submit-email", {"email": ["a@b.co"]}, ["body", "email"], "wrong_type"),
        ("/api/submit-email", {"email": "not an address"}, ["body", "email"], "email_invalid"),
        ("/api/submit-email", {"email": "a@localhost"}, ["body", "email"], "email_invalid"),
        # No mail of ours could reach it (SMTPUTF8): no licence is issued to it.
        ("/api/submit-email", {"email": "jörg@example.org"}, ["body", "email"], "email_invalid"),
        ("/api/submit-email", {"email": "a@b.co", "cookies": "x"}, ["body", "cookies"], "wrong_type"),
        (
            "/api/submit-email",
            {"email": "a@b.co", "cookies": {"hz_id": 7}},
            ["body", "cookies", "hz_id"],
            "wrong_type",
        ),
        (
            "/api/submit-email",
            {"email": "a@b.co", "cookies": {"hz_id": "x" * 65}},
            ["body", "cookies", "hz_id"],
            "too_long",
        ),
        ("/api/submit-email", [1, 2], ["body"], "wrong_type"),
        ("/api/submit-email", "a@b.co", ["body"], "wrong_type"),
        ("/api/create-user", {"email": "a@b.co", "user_days": "90"}, ["body", "user_days"], "wrong_type"),
        ("/api/create-user", {"email": "a@b.co", "user_days": True}, ["body", "user_days"], "wrong_type"),
        ("/api/check-license", {"email": "a@b.co"}, ["body", "activation_code"], "missing"),
        (
            "/api/check-license",
            {"email": "a@b.co", "activation_code": "123"},
            ["body", "activation_code"],
            "code_format",
        ),
        (
            "/api/check-license",
            {"email": "a@b.co", "activation_code": "  "},
            ["body", "activation_code"],
            "missing",
        ),
        ("/api/support", {"email": "a@b.co", "message": "   "}, ["body", "message"], "missing"),
        ("/api/support", {"email": "a@b.co", "message": "x" * 6000}, ["body", "message"], "message_too_long"),
        (
            "/api/support",
            {"email": "a@b.co", "message": "hi", "activation_code": "12345678901234567890"},
            ["body", "activation_code"],
            "code_mistyped",
        ),
    ],
)
def test_validation_errors_name_the_field(
    client: Any, hub: Any, path: str, body: Any, loc: list[str], kind: str
) -> None:
    before = count_rows(hub)
    response = client.post(path, json=body)
    assert response.status_code == 422
    errors = assert_matches_contract(path, "POST", response)["detail"]
    assert {"loc": loc, "type": f"value_error.{kind}"} in [
        {"loc": e["loc"], "type": e["type"]} for e in errors
    ]
    assert count_rows(hub) == before


def test_validation_messages_follow_accept_language(client: Any) -> None:
    response = client.post(
        "/api/submit-email", json={"email": "nope"}, headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}
    )
    assert response.get_json()["detail"][0]["msg"] == "Введите корректный адрес e-mail."
    response = client.post("/api/submit-email", json={"email": "nope"}, headers={"Accept-Language": "pt-BR"})
    assert response.get_json()["detail"][0]["msg"] == "Digite um endereço de e-mail válido."
    # A wrong type is said as a person would say it, not "a value of type string".
    for language, said in [
        ("ru", "Здесь нужно указать текст."),
        ("pt-BR", "Este campo precisa conter um texto."),
    ]:
        response = client.post("/api/submit-email", json={"email": 42}, headers={"Accept-Language": language})
        assert response.get_json()["detail"][0]["msg"] == said


@pytest.mark.parametrize("language", LANGUAGES)
def test_clients_match_on_the_code_and_only_english_keeps_the_old_phrases(client: Any, language: str) -> None:
    payload = sign_up(client)
    client.post("/api/create-user", json=payload)
    used = client.post("/api/create-user", json=payload, headers={"Accept-Language": language}).get_json()
    assert used["code"] == "request_already_used"
    for _ in range(5):
        client.post("/api/submit-email", json={"email": "z@example.org"})
    limited = client.post(
        "/api/submit-email", json={"email": "z@example.org"}, headers={"Accept-Language": language}
    ).get_json()
    assert limited["code"] == "rate_limited"
    english = language == "en"
    assert ("already been used" in used["detail"]) is english, used["detail"]
    assert ("Too many requests" in limited["detail"]) is english, limited["detail"]
    assert "(" not in used["detail"] + limited["detail"], "no English in brackets"


def test_unknown_extra_fields_are_ignored(client: Any) -> None:
    response = client.post(
        "/api/submit-email", json={"email": "a@example.org", "admin": True, "user_days": 999}
    )
    assert response.status_code == 200
    assert response.get_json()["form_data"]["user_days"] == 90


def test_unknown_paths_and_methods_answer_json(client: Any) -> None:
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404 and missing.get_json()["code"] == "not_found"
    wrong_method = client.get("/api/submit-email")
    assert wrong_method.status_code == 405 and wrong_method.get_json()["code"] == "method_not_allowed"
    assert "POST" in wrong_method.headers["Allow"]


def test_every_response_carries_the_security_headers(client: Any) -> None:
    for response in (client.get("/api/user-count"), client.post("/api/submit-email", json={})):
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
        assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"


def test_answers_with_a_code_are_never_cached_nor_referred(client: Any) -> None:
    created = client.post("/api/create-user", json=sign_up(client))
    checked = client.post(
        "/api/check-license",
        json={"email": "anna@example.org", "activation_code": created.get_json()["user_code"]},
    )
    for response in (created, checked):
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["Referrer-Policy"] == "no-referrer"


def test_cors_allows_only_configured_origins(make_hub: Any) -> None:
    from vpnsite_adapters.http.app import create_app

    client = create_app(make_hub(cors_origins="https://vpn.example.com").services).test_client()
    allowed = client.get("/api/user-count", headers={"Origin": "https://vpn.example.com"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://vpn.example.com"
    other = client.get("/api/user-count", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_no_log_line_holds_a_code_or_a_token(client: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    payload = sign_up(client)
    activation = client.post("/api/create-user", json=payload).get_json()
    checked = client.post(
        "/api/check-license", json={"email": "anna@example.org", "activation_code": activation["user_code"]}
    ).get_json()
    token = activation["activation_url"].rsplit("/", 1)[1]
    client.get(f"/api/config/{token}")
    client.get(f"/api/profile/{token}/nowhere-udp.ovpn")
    client.get(f"/api/profile-qr/{token}/nowhere-udp.svg")
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "POST /api/create-user 200" in logged
    assert "/api/config/[redacted]" in logged
    assert "/api/profile/[redacted]/nowhere-udp.ovpn" in logged
    assert "/api/profile-qr/[redacted]/nowhere-udp.svg" in logged
    secrets = [
        activation["user_code"],
        token,
        checked["license"]["configUrl"].rsplit("/", 1)[1],
        payload["sig"],
    ]
    for secret in secrets:
        assert secret not in logged
    assert "anna@example.org" not in logged


def _subclasses(cls: type[DomainError]) -> set[type[DomainError]]:
    return {sub for direct in cls.__subclasses__() for sub in {direct, *_subclasses(direct)}}


def test_every_business_error_has_the_status_the_api_promises() -> None:
    assert {error.__name__: status for error, status in STATUS_OF.items()} == {
        "RequestAlreadyUsed": 400,
        "NodeUnauthorized": 401,
        "InvalidSignature": 403,
        "FreeTierFull": 403,
        "LicenceNotFound": 404,
        "SessionNotFound": 404,
        "ProfileNotFound": 404,
        "NotRenewableYet": 409,
        "RenewalClosed": 410,
        "RequestExpired": 410,
        "InvalidField": 422,
        "RateLimited": 429,
        "SignupsBusy": 429,
        "StoreUnavailable": 503,
        "ChallengeRequired": 428,
        "ChallengeInvalid": 428,
        "ChallengeExpired": 428,
        "ChallengeUsed": 428,
    }
    assert _subclasses(DomainError) == set(STATUS_OF), "a new business error needs its status here"
