"""``/.well-known/security.txt`` as RFC 9116 reads it: a contact, one expiry that is always ahead
and under a year, the languages reports may be written in, and a policy that opens."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tests.site_map import LANGUAGES
from vpnsite_adapters.http.app import create_app

ORIGIN = "https://vpn.example"
OPERATOR = {
    "operator_name": "Northwind Test Ltd",
    "operator_number": "12345678",
    "operator_address": "2 Test Lane, Leeds, LS1 1AA, United Kingdom",
    "operator_email": "security@northwind.example",
    "operator_founder": "Sam Tester",
}
OPERATOR = {
    "operator_name": "Northwind Test Ltd",
    "operator_number": "12345678",
    "operator_address": "2 Test Lane, Leeds, LS1 1AA, United Kingdom",
    "operator_email": "security@northwind.example",
    "operator_founder": "Sam Tester",
}


def parse(text: str) -> dict[str, list[str]]:
    """RFC 9116's fields: ``Name: value`` lines, comments (#) and blank lines aside; a line of
    anything else fails."""
    fields: dict[str, list[str]] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, separator, value = line.partition(": ")
        assert separator and name.replace("-", "").isalpha() and value.strip() == value, line
        fields.setdefault(name.lower(), []).append(value)
    return fields


def test_security_txt_names_a_contact_an_expiry_ahead_languages_and_a_policy(
    make_hub: Any, clock: Any
) -> None:
    hub = make_hub(public_url=ORIGIN, **OPERATOR)
    client = create_app(hub.services).test_client()
    for _ in range(2):
        answer = client.get("/.well-known/security.txt")
        assert answer.status_code == 200
        assert answer.headers["Content-Type"] == "text/plain; charset=utf-8"
        fields = parse(answer.get_data(as_text=True))
        assert "mailto:security@northwind.example" in fields["contact"]
        assert f"{ORIGIN}/support" in fields["contact"]
        [expires] = fields["expires"]
        ends = datetime.strptime(expires, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        now = clock.now()
        assert now + timedelta(days=30) < ends <= now + timedelta(days=365), "ahead, and under a year"
        [languages] = fields["preferred-languages"]
        assert sorted(language.strip() for language in languages.split(",")) == sorted(LANGUAGES)
        assert fields["canonical"] == [f"{ORIGIN}/.well-known/security.txt"]
        [policy] = fields["policy"]
        assert policy.startswith(ORIGIN + "/")
        opened = client.get(policy.removeprefix(ORIGIN))
        assert opened.status_code == 200 and "security@northwind.example" in opened.get_data(as_text=True)
        # A year on, the file still says it holds: its expiry is counted from the day it is asked.
        clock.advance(days=365)
