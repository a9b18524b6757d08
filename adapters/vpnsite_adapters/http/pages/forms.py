"""The website's three forms without JavaScript: sign-up, licence check and support ticket, posted
as plain HTML forms to the page's own path and answered with the screen the script would show, in
the page's language.

The same use cases and rules as the JSON API run (``http/api/website.py``): its body schemas, rate limits,
the one-time signed request and its metrics. The answers are the build's prerendered screens with
the visitor's values filled in (``Site.answer``). A post must come from the site itself: its
``Origin`` (or, when a browser sends none, its ``Referer``) must be the public URL's origin.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from contextlib import suppress
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, request
from werkzeug.exceptions import RequestEntityTooLarge

from vpnsite.codes import clean_typed_code, code_groups
from vpnsite.errors import DomainError, InvalidField, RateLimited, RequestAlreadyUsed, SessionNotFound
from vpnsite.signup_requests import SignedForm
from vpnsite.signups import NotRedeemed
from vpnsite_adapters.http.api.devices import device_list
from vpnsite_adapters.http.context import (
    caller_ip,
    device_cookie,
    licence_answer,
    personal_archive_url,
    personal_profiles,
    remember_device,
    services,
    signed_form,
    visitor_id,
)
from vpnsite_adapters.http.errors import MAX_BODY_BYTES, STATUS_OF, field_message, refusal_headers
from vpnsite_adapters.http.messages import detail_text
from vpnsite_adapters.http.pages.shown_activation import COOKIE as SHOWN_COOKIE
from vpnsite_adapters.http.pages.shown_activation import LIFETIME as SHOWN_LIFETIME
from vpnsite_adapters.http.pages.shown_activation import ShownActivation, seal, unseal
from vpnsite_adapters.http.pages.site import Site, html_response, language_of, page_response
from vpnsite_adapters.texts.languages import PREFIXED
from vpnsite_adapters.texts.links import local_path
from vpnsite_contract.structuring import FieldError, InvalidBody, structure, unstructure
from vpnsite_contract.website import (
    CheckLicense,
    ConnectAgain,
    CreateUser,
    DisconnectDevices,
    SubmitEmail,
    SupportRequest,
)

# The fields of the signed request the activation screen's "Try again" posts back.
SIGNED_FIELDS = ("email", "user_days", "subscription", "user_comment", "request_id", "sig")


def phone_of(user_agent: str) -> str:
    """Which phone a browser says it runs on ("ios", "android", or ""), as the script reads it
    (ui/src/components/downloads.tsx: phoneOf): its own app is listed first there."""
    if re.search(r"iPhone|iPad|iPod", user_agent):
        return "ios"
    return "android" if "Android" in user_agent else ""


class Refused(Exception):
    """A post the use case (or the body's schema) turned down: its status and what the visitor reads."""

    def __init__(self, status: int, text: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(text)
        self.status = status
        self.text = text
        self.headers = dict(headers or {})


def code_slots(code: str) -> dict[str, str]:
    """The code as the served pages show it, in groups of four (``vpnsite.codes.code_groups``;
    ui/src/components/grouped-code.tsx: SERVED_CODE_GROUPS), each its own element so that copying
    gives the digits alone."""
    return {f"CODE_{number}": group for number, group in enumerate(code_groups(code), 1)}


def same_origin(public_url: str) -> bool:
    """Whether the post comes from a page of the site (the CSRF check)."""
    expected = urlsplit(public_url)
    sent = request.headers.get("Origin") or request.headers.get("Referer")
    if not sent:
        return False
    found = urlsplit(sent)
    return (found.scheme, found.netloc) == (expected.scheme, expected.netloc)


def refusal(error: Exception, language: str, join: str) -> Refused:
    """What a failure is for the visitor: the texts of the JSON API's errors, joined as the screen
    joins a list of field errors (each a sentence with its own stop: the support form joins them
    with a space, ui/src/lib/errors.ts)."""
    if isinstance(error, InvalidBody):
        return Refused(422, join.join(field_message(item, language) for item in error.errors))
    if isinstance(error, RequestEntityTooLarge):
        return Refused(413, detail_text("payload_too_large", language, limit=MAX_BODY_BYTES // 1024))
    assert isinstance(error, DomainError)
    if isinstance(error, InvalidField):
        return Refused(422, field_message(FieldError(("body", error.field), error.kind, {}), language))
    text = detail_text(error.code, language, **error.params)
    return Refused(STATUS_OF[type(error)], text, refusal_headers(error))


def _form() -> dict[str, str]:
    """The posted fields (the first of each name); a body over the API's limit is refused."""
    request.max_content_length = MAX_BODY_BYTES
    return {name: request.form.get(name, "") for name in request.form}


def see_other(path: str) -> Response:
    """303 See Other to a path of the site: the browser GETs it."""
    return Response(status=303, headers={"Location": path})


def _local(route: str) -> list[str]:
    return [route] + [f"/{prefix}{route}" for prefix in PREFIXED]


def forms_blueprint(site: Site) -> Blueprint:
    forms = Blueprint("forms", __name__)

    def answer(
        screen: str,
        status: int,
        values: Mapping[str, str],
        headers: Mapping[str, str] | None = None,
        pieces: Mapping[str, bytes] | None = None,
    ) -> Response:
        language = language_of(request.path)
        values = {"PHONE": phone_of(request.user_agent.string), **values}
        response = html_response(site.answer(language, screen, values, pieces), status)
        # Personal, so never stored; and the answer's own forms must be able to post again, which
        # a browser refuses to vouch for (Origin: null) under "no-referrer": "same-origin" names
        # the page to the site only, and its address holds nothing personal.
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers.update(headers or {})
        return response

    def posted(
        run: Callable[[str, dict[str, str]], Response],
        on_refusal: Callable[[Refused, dict[str, str]], Response],
        join: str,
    ) -> Response:
        language = language_of(request.path)
        fields: dict[str, str] = {}
        try:
            if not same_origin(services().settings.origin):
                raise Refused(403, detail_text("bad_request", language))
            fields = _form()
            return run(language, fields)
        except Refused as refused:
            return on_refusal(refused, fields)
        except (DomainError, InvalidBody, RequestEntityTooLarge) as error:
            return on_refusal(refusal(error, language, join), fields)

    def signup_refused(refused: Refused, fields: dict[str, str]) -> Response:
        return answer(
            "signup-error",
            refused.status,
            {"ERROR": refused.text, "EMAIL": fields.get("email", "")},
            refused.headers,
        )

    def sign_up(language: str, fields: dict[str, str]) -> Response:
        """An e-mail (the home page's form) is submitted and its signed request redeemed in one
        post; the signed request alone (the error screen's "Try again") is redeemed."""
        asked: str | SignedForm
        if "sig" in fields:
            asked = signed_form(structure(_signed_body(fields), CreateUser))
        else:
            asked = structure(_present(fields, "email"), SubmitEmail).email
        try:
            activation = services().signups.sign_up(asked, caller_ip(), visitor_id(), language)
        except NotRedeemed as failed:
            signed, error = failed.signed, failed.refusal
            if isinstance(error, RequestAlreadyUsed):
                return answer("activation-already_used", STATUS_OF[type(error)], {})
            refused = refusal(error, language, "\n")
            if isinstance(error, RateLimited):
                return answer("activation-rate_limited", refused.status, {}, refused.headers)
            form = signed.form
            retry = {
                "SIGNED_EMAIL": form.user_email,
                "SIGNED_USER_DAYS": str(form.user_days),
                "SIGNED_SUBSCRIPTION": form.subscription,
                "SIGNED_USER_COMMENT": form.user_comment,
                "SIGNED_REQUEST_ID": form.request_id,
                "SIGNED_SIG": signed.sig,
            }
            return answer(
                "activation-generic", refused.status, {"ERROR": refused.text, **retry}, refused.headers
            )
        services().metrics.signups.inc()
        licence = activation.licence
        shown = ShownActivation(
            email=licence.email,
            code=activation.code,
            term_days=licence.term_days,
            ends_at=int(licence.ends_at.timestamp()),
            archive_token=activation.archive_token,
            emailed=activation.emailed,
            made_at=int(services().clock.now().timestamp()),
        )
        # Post/Redirect/Get: the licence is shown by the GET this redirects to, so a reload shows
        # it again instead of posting the sign-up a second time (http/pages/shown_activation.py).
        response = see_other(request.path)
        response.headers["Cache-Control"] = "no-store"
        response.set_cookie(
            SHOWN_COOKIE,
            seal(shown, services().licence_checks.keys),
            max_age=int(SHOWN_LIFETIME.total_seconds()),
            path="/",
            secure=services().settings.origin.startswith("https://"),
            httponly=True,
            samesite="Strict",
        )
        return response

    def activation_page() -> Response:
        """The sign-up's answer after its redirect, and again on each reload while the browser
        holds it; without it, home (303). A page the script showed an activation on says so
        (``?kept``): the script shows the tab's activation there, or goes home itself."""
        language = language_of(request.path)
        keys, now = services().licence_checks.keys, services().clock.now()
        shown = unseal(request.cookies.get(SHOWN_COOKIE), keys, now)
        if shown is None:
            if "kept" in request.args:
                return page_response(site, request.path.strip("/"))
            return see_other(local_path("/", language))
        formats = site.formats[language]
        return answer(
            "activation-success",
            200,
            {
                "EMAIL": shown.email,
                **code_slots(shown.code),
                "DAYS": formats.days_text(shown.term_days),
                "EXPIRES": formats.date(datetime.fromtimestamp(shown.ends_at, UTC).date()),
                "ARCHIVE_URL": personal_archive_url(shown.archive_token),
                "MAILED": "yes" if shown.emailed else "no",
            },
            pieces={
                "ONE_TAP": site.profile_rows.section(
                    language, unstructure(personal_profiles(shown.archive_token))
                )
            },
        )

    def check(language: str, fields: dict[str, str]) -> Response:
        """The dashboard; with ``disconnect`` (a session's id, or the word for all), after ending
        that device of the licence; with ``connect_again`` (a server's id), after letting the
        licence's WireGuard device back on that server."""
        checks, devices = services().licence_checks, services().devices
        listing = None
        if fields.get("disconnect"):
            everything = fields["disconnect"] == site.device_rows.disconnect_all()
            ending = {"all": True} if everything else {"session": fields["disconnect"]}
            ended = structure({**_present(fields, "email", "activation_code"), **ending}, DisconnectDevices)
            body: CheckLicense | DisconnectDevices | ConnectAgain = ended
            with suppress(SessionNotFound):  # gone already, which is what its owner wanted
                listing = devices.disconnect(
                    ended.email,
                    ended.activation_code,
                    caller_ip(),
                    None if ended.all else ended.session,
                    visitor_id(),
                    device_cookie(),
                )
        elif fields.get("connect_again"):
            again = structure(
                {**_present(fields, "email", "activation_code"), "server": fields["connect_again"]},
                ConnectAgain,
            )
            body = again
            listing = devices.connect_again(
                again.email, again.activation_code, caller_ip(), again.server, visitor_id(), device_cookie()
            )
        else:
            body = structure(_present(fields, "email", "activation_code"), CheckLicense)
        renewed = False
        if listing is None and fields.get("renew"):
            # The dashboard's "Renew" button: the same rules and refusals as the script's call.
            done = services().renewals.renew(
                None, body.email, body.activation_code, caller_ip(), visitor_id(), device_cookie()
            )
            services().metrics.renewals.inc()
            checked = checks.opened(done.licence, clean_typed_code(body.activation_code))
            listing, renewed = devices.of(checked.licence), True
        elif listing is None:
            with services().metrics.counting_licence_check():
                checked = checks.check(
                    body.email, body.activation_code, caller_ip(), visitor_id(), device_cookie()
                )
            listing = devices.of(checked.licence)
        else:
            checked = checks.opened(listing.licence, clean_typed_code(body.activation_code))
        view = licence_answer(checked.licence, checked.code, checked.archive_token)
        renewal = "renewed" if renewed else "renewable" if view.renewable else "waiting"
        code = view.code or clean_typed_code(body.activation_code)
        formats = site.formats[language]
        dashboard = answer(
            "licence-active" if view.active else "licence-ended",
            200,
            {
                "EMAIL": view.email,
                # Whole, for the dashboard's licence form: the language menu posts it to the
                # dashboard in another language (ui/src/lib/language.ts: LICENCE_FORM).
                "CODE": code,
                **code_slots(code),
                "STARTED": formats.date(date.fromisoformat(view.start)),
                "ENDS": formats.date(date.fromisoformat(view.end)),
                "REMAINING": str(view.days),
                "RENEW_FROM": formats.date(date.fromisoformat(view.renewable_from)),
                "RENEWAL": renewal,
                "ARCHIVE_URL": view.configUrl or "",
            },
            pieces={
                "ONE_TAP": site.profile_rows.section(language, unstructure(view.profiles)),
                "DEVICES": site.device_rows.section(
                    language,
                    unstructure(device_list(listing)),
                    view.email,
                    checked.code,
                    site.device_rows.limit_texts(language, services().snapshot.servers)["DEVICE_RULE"],
                ),
            },
        )
        return remember_device(dashboard, body.email)

    def setup_page(token: str) -> Response:
        """The licence e-mail's link for a phone: the licence with its servers' one-tap profiles,
        opened by the archive's signed token (nothing to type); a link that is not genuine, has
        expired or whose licence has ended is the licence page's refusal."""
        language = language_of(request.path)
        try:
            licence = services().archives.licence_of(token, caller_ip())
        except DomainError as error:
            return check_refused(refusal(error, language, "\n"), {})
        view = licence_answer(licence, None, token)
        formats = site.formats[language]
        response = answer(
            "licence-setup",
            200,
            {
                "EMAIL": view.email,
                "ENDS": formats.date(date.fromisoformat(view.end)),
                "REMAINING": str(view.days),
                "ARCHIVE_URL": view.configUrl or "",
            },
            pieces={"ONE_TAP": site.profile_rows.section(language, unstructure(view.profiles))},
        )
        # The page's address is the personal link: it is named to nobody.
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Robots-Tag"] = "noindex"
        return response

    def licence_page() -> Response:
        """The licence page; opened by a renewal reminder's link (``?renew=…``), its button."""
        if "renew" not in request.args:
            return page_response(site, request.path.strip("/"))
        return answer("renew-link", 200, {})

    def renew_by_link(language: str, fields: dict[str, str]) -> Response:
        """The reminder link's button, posted to the link itself: the same use case as the
        script's call with the link."""
        done = services().renewals.renew(request.args.get("renew", ""), None, None, caller_ip())
        services().metrics.renewals.inc()
        ends = done.licence.ends_at.astimezone(UTC).date()
        return answer("renew-link-done", 200, {"ENDS": site.formats[language].date(ends)})

    def renew_link_refused(refused: Refused, fields: dict[str, str]) -> Response:
        return answer("renew-link-failed", refused.status, {"ERROR": refused.text}, refused.headers)

    def licence_post() -> Response:
        if "renew" in request.args:
            return posted(renew_by_link, renew_link_refused, "\n")
        return posted(check, check_refused, "\n")

    def check_refused(refused: Refused, fields: dict[str, str]) -> Response:
        values = {
            "ERROR": refused.text,
            "EMAIL": fields.get("email", ""),
            "CODE": fields.get("activation_code", ""),
        }
        return answer("licence-error", refused.status, values, refused.headers)

    def ticket(language: str, fields: dict[str, str]) -> Response:
        body: SupportRequest = structure(
            _present(fields, "email", "message", "activation_code"), SupportRequest
        )
        opened = services().support.open_ticket(
            body.email, body.activation_code, body.message, caller_ip(), language, visitor_id()
        )
        services().metrics.tickets.inc()
        return answer("support-sent", 200, {"TICKET": opened.number})

    def ticket_refused(refused: Refused, fields: dict[str, str]) -> Response:
        values = {
            "ERROR": refused.text,
            "EMAIL": fields.get("email", ""),
            "CODE": fields.get("activation_code", ""),
            "MESSAGE": fields.get("message", ""),
        }
        return answer("support-error", refused.status, values, refused.headers)

    for path in _local("/activation"):
        forms.add_url_rule(
            path, f"sign_up{path}", lambda: posted(sign_up, signup_refused, "\n"), methods=["POST"]
        )
        forms.add_url_rule(path, f"activation{path}", activation_page, methods=["GET"])
    for path in _local("/license"):
        forms.add_url_rule(path, f"check{path}", licence_post, methods=["POST"])
        forms.add_url_rule(path, f"licence{path}", licence_page, methods=["GET"])
        forms.add_url_rule(f"{path}/setup/<token>", f"setup{path}", setup_page, methods=["GET"])
    for path in _local("/support"):
        forms.add_url_rule(
            path, f"ticket{path}", lambda: posted(ticket, ticket_refused, " "), methods=["POST"]
        )
    return forms


def _signed_body(fields: Mapping[str, str]) -> dict[str, Any]:
    """The signed request as create-user's body: the term is a number, as the API requires."""
    body: dict[str, Any] = _present(fields, *SIGNED_FIELDS)
    days = fields.get("user_days", "")
    if days.isdigit() and len(days) < 6:
        body["user_days"] = int(days)
    return body


def _present(fields: Mapping[str, str], *names: str) -> dict[str, Any]:
    """The body the API's schema reads: a field the form did not send is missing, as in JSON."""
    return {name: fields[name] for name in names if name in fields}
