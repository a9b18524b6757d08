"""``/.well-known/security.txt`` (RFC 9116): where to report a security problem, in which
languages, under which policy, and until when the file holds. Written from the settings when asked:
its contact is the operator's e-mail (``VPNSITE_OPERATOR_EMAIL``) and the support page, its links
are under the public URL, and its expiry is always ahead (``VALID_FOR`` from today), so a
deployment never serves a stale one."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from flask import Blueprint, Response

from vpnsite_adapters.http.context import services
from vpnsite_adapters.operator_files.facts import default_operator_facts
from vpnsite_adapters.operator_files.identity import DEMO_OPERATOR
from vpnsite_adapters.texts.languages import DEFAULT_LANGUAGE, PREFIXED

# RFC 9116, 2.5.5: less than a year is recommended.
VALID_FOR = timedelta(days=180)
_TEXT = "text/plain; charset=utf-8"


def security_txt(origin: str, email: str, now: datetime) -> str:
    expires = datetime.combine(now.date() + VALID_FOR, time(), tzinfo=now.tzinfo)
    languages = ", ".join((DEFAULT_LANGUAGE, *PREFIXED))
    return "".join(
        f"{field}: {value}\n"
        for field, value in (
            ("Contact", f"mailto:{email}"),
            ("Contact", f"{origin}/support"),
            ("Expires", expires.strftime("%Y-%m-%dT%H:%M:%SZ")),
            ("Preferred-Languages", languages),
            ("Policy", f"{origin}/.well-known/security-policy.txt"),
            ("Canonical", f"{origin}/.well-known/security.txt"),
        )
    )


def security_policy(origin: str, email: str, source_url: str | None) -> str:
    """The disclosure policy security.txt names: how to report, what not to do, what happens."""
    lines = [
        "How to report a security problem",
        "",
        f"Write to {email}, or use the support form at {origin}/support, in English, Russian,",
        "Spanish, French or Portuguese. Say what you found, where, and the steps that show it.",
        "",
        "While you look: do not open, change or erase anyone else's data or licence, do not slow",
        "the service down for others, and give us a reasonable time to fix a problem before you",
        "publish it.",
        "",
        f"We acknowledge each report from {email} and tell you what we are doing about it.",
    ]
    if source_url:
        lines += ["", f"The site's source code: {source_url}"]
    return "\n".join(lines) + "\n"


def security_blueprint() -> Blueprint:
    blueprint = Blueprint("security_txt", __name__)

    def plain(body: str) -> Response:
        response = Response(body, content_type=_TEXT)
        # Its expiry moves a day at a time: a day's caching never serves a stale one.
        response.headers["Cache-Control"] = "public, max-age=86400"
        return response

    def email() -> str:
        return (services().settings.operator or DEMO_OPERATOR).email

    @blueprint.get("/.well-known/security.txt")
    def contact() -> Response:
        settings = services().settings
        return plain(security_txt(settings.origin, email(), services().clock.now()))

    @blueprint.get("/.well-known/security-policy.txt")
    def policy() -> Response:
        settings = services().settings
        facts = settings.operator_facts or default_operator_facts()
        # A path on this site (the shipped default: the served tarball) is written in full.
        source = facts.source_code
        if source.startswith("/"):
            source = settings.origin + source
        return plain(security_policy(settings.origin, email(), source))

    return blueprint
