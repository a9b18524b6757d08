"""The wire contract in Flask: a request's body read as one of its classes, an answer written from
one. Every JSON call goes through these two, so what the OpenAPI document says (it is generated
from the same classes) is what the handlers take and give."""

from __future__ import annotations

import json
from typing import TypeVar

from flask import Response, jsonify, request

from vpnsite_adapters.http.errors import MAX_BODY_BYTES, BadJson
from vpnsite_contract.structuring import structure, unstructure

T = TypeVar("T")


def json_body(cls: type[T], limit: int = MAX_BODY_BYTES) -> T:
    """The request's JSON body as ``cls``: 415 unless sent as JSON, 413 beyond ``limit`` bytes, 400
    when not JSON, 422 (``InvalidBody``) listing every field that is wrong."""
    if request.mimetype != "application/json":
        raise BadJson(415, "unsupported_media_type")
    if (request.content_length or 0) > limit:
        raise BadJson(413, "payload_too_large")
    request.max_content_length = limit
    raw = request.get_data(cache=False)
    if len(raw) > limit:
        raise BadJson(413, "payload_too_large")
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadJson(400, "invalid_json") from None
    return structure(body, cls)


def answer(value: object, status: int = 200) -> Response:
    """An instance of one of the contract's answer classes as the JSON response."""
    response = jsonify(unstructure(value))
    response.status_code = status
    return response
