"""The privacy policy is the data inventory (``vpnsite.personal_data``), in every language: its list
of data names each kind the inventory declares, in the inventory's order (``data-kind``), and
each entry's retention period is the inventory's; every cookie the inventory names is in both
policies, and the cookie a no-script sign-up sets is the inventory's, for the inventory's period;
`vpnsite privacy export` holds exactly the kinds the inventory says it includes; the README's
"Privacy" table is `vpnsite privacy inventory`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.integration.processes import vpnsite
from tests.integration.test_site_forms import SAME_SITE, make_site
from tests.site_map import LANGUAGES, localised
from tests.support.api import sign_up
from vpnsite.personal_data import INVENTORY, Elsewhere
from vpnsite_adapters.cli.privacy import inventory_table
from vpnsite_adapters.http.app import create_app

ENTRY = re.compile(r'data-kind="([a-z_]+)".*?<dd class="kept">(.*?)</dd>', re.DOTALL)
NUMBER = re.compile(r"\d+")
README = Path(__file__).resolve().parents[2] / "README.md"


def policy_entries(client: Any, language: str) -> list[tuple[str, str]]:
    page = client.get(localised("/privacy", language)).get_data(as_text=True)
    return ENTRY.findall(page)


def test_the_policy_lists_the_inventory_in_every_language(make_hub: Any) -> None:
    client = create_app(make_hub().services).test_client()
    for language in LANGUAGES:
        listed = [kind for kind, _ in policy_entries(client, language)]
        assert listed == [data.id for data in INVENTORY], language


def test_every_retention_period_in_the_policy_is_the_inventorys(make_hub: Any) -> None:
    client = create_app(make_hub().services).test_client()
    periods = {data.id: data.kept.figure for data in INVENTORY}
    for language in LANGUAGES:
        for kind, kept in policy_entries(client, language):
            figure = periods[kind]
            assert set(NUMBER.findall(kept)) == ({figure} if figure else set()), (language, kind, kept)


def inventory_cookies() -> dict[str, str | None]:
    """Each cookie the inventory names, with its period as the policy writes it."""
    return {
        place.name.split(":")[0].removeprefix("cookie "): data.kept.figure
        for data in INVENTORY
        for place in data.held_in
        if isinstance(place, Elsewhere) and place.place == "browser" and place.name.startswith("cookie ")
    }


def test_every_cookie_of_the_inventory_is_in_both_policies_with_its_period(make_hub: Any) -> None:
    client = create_app(make_hub().services).test_client()
    cookies = inventory_cookies()
    assert set(cookies) == {"hz_id", "hz_device", "hz_signup"}
    for language in LANGUAGES:
        privacy = client.get(localised("/privacy", language)).get_data(as_text=True)
        cookie = client.get(localised("/cookie", language)).get_data(as_text=True)
        for name, figure in cookies.items():
            assert name in privacy, (language, name)
            # The cookie policy gives each cookie a paragraph of its own, which opens with its name.
            said = re.search(rf"<p>{name}\b[^<]*?(\d+)", cookie)
            assert said and said.group(1) == figure, (language, name)


def test_the_no_script_sign_up_sets_the_inventorys_cookie_for_the_inventorys_period(make_hub: Any) -> None:
    client, _ = make_site(make_hub)
    posted = client.post("/activation", data={"email": "jar@example.org"}, headers=SAME_SITE)
    name, _, attributes = posted.headers["Set-Cookie"].partition("=")
    assert name in inventory_cookies()
    max_age = int(re.search(r"Max-Age=(\d+)", attributes).group(1))  # type: ignore[union-attr]
    assert str(max_age // 60) == inventory_cookies()[name]


def test_privacy_export_holds_every_kind_the_inventory_says_it_includes(
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
    fields = {field for records in held.values() for record in records for field in record}
    exported = set(held) | (fields & {"email", "ip_address"})
    assert exported == {data.id for data in INVENTORY if data.exported}
    assert held["licences"] and held["tickets"] and held["mail_queue"]
    # What the licence and the ticket say about their holder beyond the address: each is exported.
    assert {"reminded_for_end", "language"} <= set(held["licences"][0])
    assert held["tickets"][0]["language"] == "en" and held["tickets"][0]["code_given"] is True


def test_the_readme_privacy_table_is_the_inventory() -> None:
    assert inventory_table() in README.read_text(), "paste `vpnsite privacy inventory` into README, Privacy"
