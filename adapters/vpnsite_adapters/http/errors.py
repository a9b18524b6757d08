"""Every failure as JSON: ``{"detail": ..., "code": ...}`` with the right status, never a trace."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app, g, jsonify
from werkzeug.exceptions import HTTPException

from vpnsite.errors import (
    ChallengeExpired,
    ChallengeInvalid,
    ChallengeRequired,
    ChallengeUsed,
    DomainError,
    FreeTierFull,
    InvalidField,
    InvalidSignature,
    LicenceNotFound,
    NodeUnauthorized,
    NotRenewableYet,
    ProfileNotFound,
    RateLimited,
    RenewalClosed,
    RequestAlreadyUsed,
    RequestExpired,
    SessionNotFound,
    SignupsBusy,
    StoreUnavailable,
)
from vpnsite.support import MAX_MESSAGE
from vpnsite_adapters.http.messages import detail_text, field_text
from vpnsite_adapters.texts.languages import DEFAULT_LANGUAGE
from vpnsite_contract.structuring import FieldError, InvalidBody, unstructure
from vpnsite_contract.website import Challenge, Challenged, Error, FieldProblem, ValidationError

log = logging.getLogger("vpnsite.http")

MAX_BODY_BYTES = 16 * 1024
_FIELD_LIMITS: dict[str, dict[str, Any]] = {"message_too_long": {"limit": MAX_MESSAGE}}
_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


# What each business error is in HTTP; the API contract (and the spec's messages) fix these.
STATUS_OF: dict[type[DomainError], int] = {
    RequestAlreadyUsed: 400,
    NodeUnauthorized: 401,
    InvalidSignature: 403,
    FreeTierFull: 403,
    LicenceNotFound: 404,
    SessionNotFound: 404,
    ProfileNotFound: 404,
    NotRenewableYet: 409,
    RenewalClosed: 410,
    RequestExpired: 410,
    InvalidField: 422,
    RateLimited: 429,
    SignupsBusy: 429,
    StoreUnavailable: 503,
    # A proof of work is owed: the answer carries the challenge to solve (challenge_response).
    ChallengeRequired: 428,
    ChallengeInvalid: 428,
    ChallengeExpired: 428,
    ChallengeUsed: 428,
}


class BadJson(Exception):
    """The body is not JSON, or not sent as JSON."""

    def __init__(self, status: int, code: str) -> None:
        super().__init__(code)
        self.status = status
        self.code = code


def language() -> str:
    return str(getattr(g, "language", DEFAULT_LANGUAGE))


def error_response(status: int, code: str, **params: object) -> Response:
    response = jsonify(unstructure(Error(detail_text(code, language(), **params), code)))
    response.status_code = status
    return response


def field_message(error: FieldError, lang: str) -> str:
    return field_text(error.kind, lang, **{**_FIELD_LIMITS.get(error.kind, {}), **error.params})


def validation_response(errors: list[FieldError]) -> Response:
    lang = language()
    detail = [
        FieldProblem(list(error.loc), field_message(error, lang), f"value_error.{error.kind}")
        for error in errors
    ]
    response = jsonify(unstructure(ValidationError(detail)))
    response.status_code = 422
    return response


def refusal_headers(error: DomainError) -> dict[str, str]:
    """What a refusal sends beside its text (and counts, and logs), as JSON or as a page."""
    headers: dict[str, str] = {}
    if isinstance(error, RateLimited):
        current_app.extensions["vpnsite"].metrics.rate_limited.labels(error.action).inc()
        headers["Retry-After"] = str(error.retry_after_seconds)
    if STATUS_OF[type(error)] == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if isinstance(error, StoreUnavailable):
        log.error("database unavailable: %s", type(error.__cause__).__name__)
        headers["Retry-After"] = "5"
    return headers


def domain_error_response(error: DomainError) -> Response:
    response = error_response(STATUS_OF[type(error)], error.code, **error.params)
    response.headers.update(refusal_headers(error))
    return response


def challenge_response(error: ChallengeRequired) -> Response:
    """428 Precondition Required: the refusal's text and the challenge to solve before trying again."""
    given = error.challenge
    challenge = Challenge(given.algorithm, given.challenge, given.max_number, given.salt, given.signature)
    response = jsonify(unstructure(Challenged(detail_text(error.code, language()), error.code, challenge)))
    response.status_code = STATUS_OF[type(error)]
    response.headers["Cache-Control"] = "no-store"
    current_app.extensions["vpnsite"].metrics.signup_challenges.labels(error.code).inc()
    return response


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(InvalidField)
    def invalid_field(error: InvalidField) -> Response:
        return validation_response(
            [FieldError(("body", name), error.kind, dict(error.details)) for name in error.fields]
        )

    @app.errorhandler(InvalidBody)
    def invalid_body(error: InvalidBody) -> Response:
        return validation_response(error.errors)

    app.register_error_handler(DomainError, domain_error_response)
    app.register_error_handler(ChallengeRequired, challenge_response)

    @app.errorhandler(BadJson)
    def bad_json(error: BadJson) -> Response:
        return error_response(error.status, error.code, limit=MAX_BODY_BYTES // 1024)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        code = _HTTP_CODES.get(status, "internal_error")
        response = error_response(status, code, limit=MAX_BODY_BYTES // 1024)
        allowed = getattr(error, "valid_methods", None)
        if allowed:
            response.headers["Allow"] = ", ".join(allowed)
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        log.exception("unexpected error")
        return error_response(500, "internal_error")
