"""What the website's handlers share, JSON API and pages alike: the services handle, who is
calling (address, visitor id, device cookie), the answers that carry a code, and the licence as
both answer it."""

from __future__ import annotations

from flask import Response, current_app, request

from vpnsite.licences import Licence
from vpnsite.renewals import standing
from vpnsite.signup_requests import FormData, SignedForm
from vpnsite_adapters.http.client_ip import client_ip
from vpnsite_adapters.http.profile_links import profile_list
from vpnsite_adapters.services import Services
from vpnsite_adapters.texts.links import archive_url
from vpnsite_contract.website import Cookies, CreateUser, ProfileServer
from vpnsite_contract.website import Licence as LicenceAnswer

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


def signed_form(body: CreateUser) -> SignedForm:
    form = FormData(
        user_email=body.email,
        user_days=body.user_days,
        subscription=body.subscription,
        user_comment=body.user_comment,
        request_id=body.request_id,
    )
    return SignedForm(form, body.sig)


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
