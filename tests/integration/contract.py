"""Checks real responses against the service's own OpenAPI document."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from vpnsite_adapters.http.api.openapi import openapi_document

DOCUMENT = openapi_document()


def schema_for(path: str, method: str, status: int) -> dict[str, Any] | None:
    operation = DOCUMENT["paths"][path][method.lower()]
    response = operation["responses"].get(str(status))
    assert response is not None, (
        f"{method} {path} answered {status}, which the OpenAPI document does not list"
    )
    content = response.get("content")
    if content is None:
        return None
    return {**content["application/json"]["schema"], "components": DOCUMENT["components"]}


def assert_matches_contract(path: str, method: str, response: Any) -> Any:
    schema = schema_for(path, method, response.status_code)
    if schema is None:
        return None
    body = response.get_json()
    errors = sorted(Draft202012Validator(schema).iter_errors(body), key=str)
    assert not errors, f"{method} {path} {response.status_code} breaks the contract: {errors[0].message}"
    return body
