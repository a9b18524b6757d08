"""A visitor's text shaped like the build's markers (``__SLOT_NAME__``) is shown as typed on the
pages the server fills, never read as a marker: no 500, no text of another slot put in its place."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest

from tests.integration.test_site_forms import SAME_SITE, html, make_site, sign_up
from vpnsite_adapters.http.pages.device_rows import DeviceRows
from vpnsite_adapters.http.pages.site import SITE_DIR

MARKER_SHAPED = ["__SLOT_FOO__", "__SLOT_USERS__", "__SLOT_RAW_FOO__", "__SLOT_RAW_ROWS__"]


@pytest.fixture
def site(make_hub: Any) -> tuple[Any, Any]:
    return make_site(make_hub)


@pytest.mark.parametrize("marker", MARKER_SHAPED)
def test_a_marker_shaped_address_opens_its_dashboard_as_typed(site: tuple[Any, Any], marker: str) -> None:
    client, _ = site
    email = f"{marker}@example.org"
    _, code = sign_up(client, email)
    answer = client.post("/license", data={"email": email, "activation_code": code}, headers=SAME_SITE)
    assert answer.status_code == 200
    page = html(answer)
    assert "__SLOT_" not in page, "no marker is left, nor made of the address"
    assert email in unescape(page), "the address is shown as typed"


@pytest.mark.parametrize("marker", MARKER_SHAPED)
def test_a_marker_shaped_ticket_is_answered_as_typed(site: tuple[Any, Any], marker: str) -> None:
    client, _ = site
    email = f"{marker}@example.org"
    answer = client.post(
        "/support",
        data={"email": email, "message": f"Hello {marker} there, my tunnel drops."},
        headers=SAME_SITE,
    )
    assert answer.status_code in (200, 303), answer.status_code


@pytest.mark.parametrize("marker", MARKER_SHAPED)
def test_a_marker_shaped_session_id_from_a_vpn_server_is_shown_as_sent(marker: str) -> None:
    """A VPN server names its sessions; a name shaped like a marker must not break anyone's
    dashboard or put another slot's markup in its row."""
    rows = DeviceRows.load(SITE_DIR / "forms" / "devices.json")
    server = {"id": "nl-1", "name": "Netherlands", "flag": "nl", "location": "Amsterdam"}
    listing = {
        "success": True,
        "in_use": 1,
        "limit": 10,
        "devices": [{"session": marker, "server": server, "protocol": "udp", "since": 1_790_000_000}],
    }
    section = rows.section("en", listing, "me@example.org", "1" * 20, "").decode()
    assert f'name="disconnect" value="{marker}"' in unescape(section)
    assert section.count('class="device-row"') == 1 and "__SLOT_" not in section
