"""Calling the API through Flask's test client, every answer checked against the API contract."""

from __future__ import annotations

from typing import Any

from tests.integration.contract import assert_matches_contract


def call(client: Any, path: str, body: Any = None, **headers: str) -> tuple[int, Any]:
    if body is None:
        response = client.get(path, headers=headers)
    else:
        response = client.post(path, json=body, headers=headers)
    payload = assert_matches_contract(path, "GET" if body is None else "POST", response)
    return response.status_code, payload


def sign_up(client: Any, email: str = "anna@example.org") -> dict[str, Any]:
    """A signed create-user body for ``email``, fresh from submit-email."""
    status, submitted = call(client, "/api/submit-email", {"email": email, "cookies": {"hz_id": "visitor-1"}})
    assert status == 200
    form = submitted["form_data"]
    return {"email": form.pop("user_email"), **form, "cookies": {"hz_id": "visitor-1"}}
