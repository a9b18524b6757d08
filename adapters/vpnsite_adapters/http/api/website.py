"""The six calls of the website, plus health checks: thin handlers around the use cases."""

from __future__ import annotations

from flask import Blueprint, Response, g

from vpnsite_adapters.http.context import (
    caller_ip,
    device_cookie,
    licence_answer,
    personal,
    personal_archive_url,
    personal_profiles,
    remember_device,
    services,
    signed_form,
    visitor_id,
)
from vpnsite_adapters.http.described import Call, route
from vpnsite_adapters.http.wire import answer, json_body
from vpnsite_contract.website import (
    ActivationResult,
    CheckLicense,
    CreateUser,
    Health,
    LicenceResult,
    RenewLicence,
    SubmitEmail,
    SubmitEmailResult,
    SupportRequest,
    SupportResult,
)
from vpnsite_contract.website import FormData as FormAnswer

api = Blueprint("api", __name__)


@route(
    api,
    Call(
        "/api/submit-email",
        "Start a sign-up: a signed, one-time request",
        SubmitEmailResult,
        SubmitEmail,
        (403,),
        challenged=True,
    ),
)
def submit_email() -> Response:
    body = json_body(SubmitEmail)
    signed = services().signups.submit_email(
        body.email, caller_ip(), visitor_id(body.cookies), g.language, solution=body.altcha
    )
    form = signed.form
    return answer(
        SubmitEmailResult(
            FormAnswer(
                user_email=form.user_email,
                user_days=form.user_days,
                subscription=form.subscription,
                user_comment=form.user_comment,
                request_id=form.request_id,
                sig=signed.sig,
            )
        )
    )


@route(
    api,
    Call(
        "/api/create-user",
        "Redeem a sign-up request for a licence",
        ActivationResult,
        CreateUser,
        (403, 410),
    ),
)
def create_user() -> Response:
    body = json_body(CreateUser)
    activation = services().signups.create_user(signed_form(body), caller_ip(), visitor_id(body.cookies))
    services().metrics.signups.inc()
    licence = activation.licence
    return personal(
        answer(
            ActivationResult(
                user_email=licence.email,
                user_code=activation.code,
                user_days=licence.term_days,
                user_start=int(licence.starts_at.timestamp()),
                user_stop=int(licence.ends_at.timestamp()),
                activation_url=personal_archive_url(activation.archive_token),
                profiles=personal_profiles(activation.archive_token),
                emailed=activation.emailed,
            )
        )
    )


@route(
    api,
    Call(
        "/api/check-license",
        "Look up a licence by e-mail and activation code",
        LicenceResult,
        CheckLicense,
        (404,),
    ),
)
def check_license() -> Response:
    body = json_body(CheckLicense)
    with services().metrics.counting_licence_check():
        checked = services().licence_checks.check(
            body.email, body.activation_code, caller_ip(), visitor_id(), device_cookie()
        )
    response = answer(LicenceResult(licence_answer(checked.licence, checked.code, checked.archive_token)))
    return personal(remember_device(response, body.email))


@route(
    api,
    Call(
        "/api/renew",
        "Renew a licence for another term, keeping its code",
        LicenceResult,
        RenewLicence,
        (403, 404, 409, 410),
    ),
)
def renew() -> Response:
    body = json_body(RenewLicence)
    renewed = services().renewals.renew(
        body.token, body.email, body.activation_code, caller_ip(), visitor_id(), device_cookie()
    )
    services().metrics.renewals.inc()
    response = answer(LicenceResult(licence_answer(renewed.licence, renewed.code, renewed.archive_token)))
    # Renewed by its code (not a reminder's link): the code was proven.
    return personal(remember_device(response, body.email) if body.email and renewed.code else response)


@route(api, Call("/api/support", "Open a support ticket", SupportResult, SupportRequest))
def support() -> Response:
    body = json_body(SupportRequest)
    ticket = services().support.open_ticket(
        body.email, body.activation_code, body.message, caller_ip(), g.language, visitor_id()
    )
    services().metrics.tickets.inc()
    return answer(SupportResult(ticket.number))


@route(api, Call("/healthz", "The process is alive", Health, method="get", answered="Alive"))
def healthz() -> Response:
    return answer(Health("ok"))


@route(api, Call("/readyz", "The database answers", Health, errors=(503,), method="get", answered="Ready"))
def readyz() -> Response:
    services().ready()
    return answer(Health("ready"))
