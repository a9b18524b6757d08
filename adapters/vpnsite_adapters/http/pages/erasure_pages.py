"""The licence e-mail's way out, "Didn't sign up? Erase this address" (``vpnsite/erasures.py``).

``GET /erase/<token>`` (and under each language's prefix) answers a confirmation page naming the
address and what erasing it does; it changes nothing, so a mail scanner that follows every link
erases nobody. The page's button is a plain form post to the same address, from the site itself
(``forms.same_origin``), which erases at once, as `vpnsite privacy erase` does (the same use case),
and answers with what it did. A link whose address is already gone, or that is not ours, leads
to a page that says so (410 and 404).

The pages are the build's prerendered screens filled with the visitor's values (``Site.answer``),
like the forms' answers: no script, the site's look, the page's language. The token is a personal
link's: the access log leaves it out (``app.redact``), and no page is stored or indexed.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping

from flask import Blueprint, Response, request

from vpnsite.erasures import LinkLeadsNowhere, erasure_document, erasure_summary
from vpnsite.errors import DomainError
from vpnsite_adapters.http.context import services
from vpnsite_adapters.http.errors import STATUS_OF, refusal_headers
from vpnsite_adapters.http.messages import detail_text
from vpnsite_adapters.http.pages.forms import same_origin
from vpnsite_adapters.http.pages.site import Site, html_response, language_of
from vpnsite_adapters.texts.languages import PREFIXED

log = logging.getLogger("vpnsite.privacy")

# What a token may look like (URL-safe base64, with room to spare); anything else is no link of
# ours and is not written back into the page.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,128}")


def erasure_blueprint(site: Site) -> Blueprint:
    pages = Blueprint("erasure_pages", __name__)

    def page(
        screen: str, status: int, values: Mapping[str, str], headers: Mapping[str, str] | None = None
    ) -> Response:
        language = language_of(request.path)
        response = html_response(site.answer(language, screen, values), status)
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Robots-Tag"] = "noindex"
        # A page with the button must be able to post to itself, which a browser refuses to vouch
        # for (Origin: null) under "no-referrer": "same-origin" names the page, token and all, to
        # the site only (forms.py). The others name it to nobody.
        with_button = screen in ("erasure-confirm", "erasure-failed")
        response.headers["Referrer-Policy"] = "same-origin" if with_button else "no-referrer"
        response.headers.update(headers or {})
        return response

    def gone(token: str, nowhere: LinkLeadsNowhere) -> Response:
        return page("erasure-gone", 410 if nowhere.genuine else 404, {"TOKEN": token})

    def refused(token: str, error: DomainError) -> Response:
        """The database away, say (the use case runs in a scope of its own, which turns a lost
        connection into StoreUnavailable here rather than at the request's end): nothing was
        erased, and the button may be pressed again."""
        text = detail_text(error.code, language_of(request.path), **error.params)
        return page(
            "erasure-failed", STATUS_OF[type(error)], {"TOKEN": token, "ERROR": text}, refusal_headers(error)
        )

    def confirm(token: str) -> Response:
        if not _TOKEN.fullmatch(token):
            return gone("", LinkLeadsNowhere(genuine=False))
        try:
            with services().unit_of_work.scope():
                email = services().erasures.address_named(token)
        except LinkLeadsNowhere as nowhere:
            return gone(token, nowhere)
        except DomainError as error:
            return refused(token, error)
        return page("erasure-confirm", 200, {"TOKEN": token, "EMAIL": email})

    def erase(token: str) -> Response:
        if not _TOKEN.fullmatch(token):
            return gone("", LinkLeadsNowhere(genuine=False))
        language = language_of(request.path)
        if not same_origin(services().settings.origin):
            refusal = detail_text("bad_request", language)
            return page("erasure-failed", 403, {"TOKEN": token, "ERROR": refusal})
        try:
            with services().unit_of_work.scope():
                erasure = services().erasures.erase_named(token)
        except LinkLeadsNowhere as nowhere:
            return gone(token, nowhere)
        except DomainError as error:
            return refused(token, error)
        erased, settings = erasure.erased, services().settings
        log.info("privacy erase by the licence e-mail's link: %s", erasure_summary(erasure_document(erasure)))
        if erasure.journal_problem is not None:
            log.error(
                "erased, but %s could not be written (%s): copy `vpnsite privacy journal` beside the backups",
                settings.erasure_journal,
                erasure.journal_problem,
            )
        if erased.tickets:
            # As `privacy erase` tells the operator: the service cannot reach into that mailbox.
            log.warning(
                "delete the copies of ticket(s) %s from the support inbox (%s)",
                ", ".join(erased.tickets),
                settings.support_email,
            )
        count = site.formats[language].count
        return page(
            "erasure-done",
            200,
            {
                "TOKEN": token,
                # The address as its licence held it: the one the e-mail went to.
                "EMAIL": erasure.email,
                "LICENCES": count(erased.licences_erased),
                "ENDED": count(erased.licences_ended),
                "TICKETS": count(len(erased.tickets)),
                "MAILS": count(erased.mail_deleted),
            },
        )

    for prefix in ("", *(f"/{language}" for language in PREFIXED)):
        path = f"{prefix}/erase/<token>"
        pages.add_url_rule(path, f"confirm{path}", confirm, methods=["GET"])
        pages.add_url_rule(path, f"erase{path}", erase, methods=["POST"])
    return pages
