"""The six calls of the website, plus health checks: thin handlers around the use cases."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, g, request

from vpnsite.licences import Licence
from vpnsite.renewals import standing
from vpnsite.signup_requests import FormData, SignedForm
from vpnsite_adapters.http.client_ip import client_ip
from vpnsite_adapters.http.profile_links import profile_list
from vpnsite_adapters.http.wire import answer, json_body
from vpnsite_adapters.services import Services
from vpnsite_adapters.texts.links import archive_url
from vpnsite_contract.website import (
    ActivationResult,
    CheckLicense,
    Cookies,
    CreateUser,
    Health,
    LicenceResult,
    ProfileServer,
    RenewLicence,
    SubmitEmail,
    SubmitEmailResult,
    SupportRequest,
    SupportResult,
)
from vpnsite_contract.website import FormData as FormAnswer
from vpnsite_contract.website import Licence as LicenceAnswer

api = Blueprint("api", __name__)

VISITOR_ID_MAX = 64
# The device cookie of a browser that has opened a licence (vpnsite.device_cookies): read only by
# the server (HttpOnly), sent only with the site's own requests (SameSite=Strict), for a year.
DEVICE_COOKIE = "hz_device"
DEVICE_COOKIE_DAYS = 365


def services() -> Services:
    return current_app.extensions["vpnsite"]  # type: ignore[no-any-return]


def caller_ip() -> str | None:
    return client_ip(request.environ, services().settings.trusted_proxies)


def visitor_id(sent: Cookies | None = None) -> str | None:
    """The visitor's random id (the ``hz_id`` cookie): as the body gives it, else as the browser
    sent the cookie; one longer than any the site sets is nobody's."""
    found = (sent.hz_id if sent else None) or request.cookies.get("hz_id")
    return found if found and len(found) <= VISITOR_ID_MAX else None


def device_cookie() -> str | None:
    return request.cookies.get(DEVICE_COOKIE)


def remember_device(response: Response, email: str) -> Response:
    """The answer to a call that proved a licence's code: it carries the browser's device cookie
    for the licence's address, so strangers' guesses never lock this browser out."""
    value = services().licence_checks.devices.opened(device_cookie(), email)
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=DEVICE_COOKIE_DAYS * 86_400,
        path="/",
        secure=services().settings.origin.startswith("https://"),
        httponly=True,
        samesite="Strict",
    )
    return response


def personal(response: Response) -> Response:
    """A response that carries a code or a personal link: never cached, never sent as a referrer."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def personal_archive_url(token: str) -> str:
    return archive_url(services().settings.origin, token)


def personal_profiles(token: str | None) -> list[ProfileServer]:
    """The per-server profile links under the archive link; none without one (an ended licence)."""
    if token is None:
        return []
    return profile_list(services().settings.origin, token, services().snapshot.views)


@api.post("/api/submit-email")
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


def signed_form(body: CreateUser) -> SignedForm:
    form = FormData(
        user_email=body.email,
        user_days=body.user_days,
        subscription=body.subscription,
        user_comment=body.user_comment,
        request_id=body.request_id,
    )
    return SignedForm(form, body.sig)


@api.post("/api/create-user")
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


def licence_answer(licence: Licence, code: str | None, archive_token: str | None) -> LicenceAnswer:
    held = standing(licence, services().clock.now())
    return LicenceAnswer(
        email=licence.email,
        code=code,
        start=licence.starts_at.date().isoformat(),
        end=licence.ends_at.date().isoformat(),
        end_timestamp=int(licence.ends_at.timestamp()),
        days=held.days,
        active=held.active,
        renewable=held.renewable,
        renewable_from=held.renewable_from.isoformat(),
        configUrl=None if archive_token is None else personal_archive_url(archive_token),
        profiles=personal_profiles(archive_token),
        term_days=services().settings.licence_days,
    )


@api.post("/api/check-license")
def check_license() -> Response:
    body = json_body(CheckLicense)
    with services().metrics.counting_licence_check():
        checked = services().licence_checks.check(
            body.email, body.activation_code, caller_ip(), visitor_id(), device_cookie()
        )
    response = answer(LicenceResult(licence_answer(checked.licence, checked.code, checked.archive_token)))
    return personal(remember_device(response, body.email))


@api.post("/api/renew")
def renew() -> Response:
    body = json_body(RenewLicence)
    renewed = services().renewals.renew(
        body.token, body.email, body.activation_code, caller_ip(), visitor_id(), device_cookie()
    )
    services().metrics.renewals.inc()
    response = answer(LicenceResult(licence_answer(renewed.licence, renewed.code, renewed.archive_token)))
    # Renewed by its code (not a reminder's link): the code was proven.
    return personal(remember_device(response, body.email) if body.email and renewed.code else response)


@api.post("/api/support")
def support() -> Response:
    body = json_body(SupportRequest)
    ticket = services().support.open_ticket(
        body.email, body.activation_code, body.message, caller_ip(), g.language, visitor_id()
    )
    services().metrics.tickets.inc()
    return answer(SupportResult(ticket.number))


@api.get("/healthz")
def healthz() -> Response:
    return answer(Health("ok"))


@api.get("/readyz")
def readyz() -> Response:
    services().ready()
    return answer(Health("ready"))
