"""The privacy policy names every kind of personal data the service stores, in every language: each
entry carries its kind (``data-kind``), tied here to the tables of the migrated database and to what
`vpnsite privacy export` returns. A new table or a new kind in the export fails this test until it
is classified below and the policy names it in all five languages."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.integration.processes import vpnsite
from tests.site_map import LANGUAGES, localised
from tests.support.api import sign_up
from vpnsite_adapters.http.app import create_app

# Every table, and the kinds of personal data it holds (empty: none).
TABLE_KINDS: dict[str, set[str]] = {
    "licence": {"licences", "email", "ip_address"},
    "user_end": {"email"},  # a keyed hash of the address and when its last licence ends
    "user_tally": set(),
    "renewal_link": {"renewal_links"},
    "rate_event": {"rate_limits"},
    "ticket": {"tickets"},
    "vpn_server": set(),
    "vpn_session": {"vpn_sessions"},
    "wg_peer": {"wireguard_peers"},
    "mail_queue": {"mail_queue"},
    "schema_migrations": set(),
}
# Held in the visitor's browser, not in a table.
BROWSER_KINDS = {"hz_id_cookie"}
# Fields of the export's records that are kinds of their own.
FIELD_KINDS = {"email", "ip_address"}


def policy_kinds(client: Any, language: str) -> list[str]:
    page = client.get(localised("/privacy", language)).get_data(as_text=True)
    return re.findall(r'data-kind="([a-z_]+)"', page)


def test_the_policy_names_every_table_holding_personal_data_in_every_language(make_hub: Any) -> None:
    hub = make_hub()
    client = create_app(hub.services).test_client()
    tables = set(hub.store.db.get_tables())
    assert tables == set(TABLE_KINDS), "classify every table (and the policy names its kinds)"
    stored = set().union(*TABLE_KINDS.values()) | BROWSER_KINDS
    for language in LANGUAGES:
        kinds = policy_kinds(client, language)
        assert len(kinds) == len(set(kinds)), language
        assert set(kinds) == stored, (language, set(kinds) ^ stored)


def test_the_policy_names_everything_privacy_export_returns(
    make_hub: Any, environment: dict[str, str]
) -> None:
    hub = make_hub()
    client = create_app(hub.services).test_client()
    activation = client.post("/api/create-user", json=sign_up(client, "lee@example.org")).get_json()
    client.post(
        "/api/support",
        json={"email": "lee@example.org", "activation_code": activation["user_code"], "message": "Hello."},
    )
    result = vpnsite("privacy", "export", "lee@example.org", env=environment)
    assert result.returncode == 0, result.stderr
    held = json.loads(result.stdout)
    assert all(held.values()), "the export holds the licence and the ticket"
    exported = set(held) | {
        field for records in held.values() for record in records for field in record if field in FIELD_KINDS
    }
    assert exported >= {"licences", "tickets", "email", "ip_address"}
    for language in LANGUAGES:
        assert exported <= set(policy_kinds(client, language)), language
