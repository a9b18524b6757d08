"""The pages the server sends say what the operator set, filled when they are sent (not as the
build knew it): the free tier's cap on the status page, the licence term on the licence page."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.http.site import SITE_DIR
from vpnsite_adapters.jobs.status_snapshot import Encoded

if not (SITE_DIR / "forms" / "status.json").is_file():
    reason = f"the website is not built in {SITE_DIR} (run `python build_ui.py`)"
    if os.environ.get("CI") == "true":
        raise RuntimeError(reason + "; under CI=true the website tests must run")
    pytest.skip(reason, allow_module_level=True)


def test_the_status_page_without_script_measures_the_free_tier_against_the_operators_cap(
    make_hub: Any,
) -> None:
    hub = make_hub(free_tier_cap=5000)
    snapshot = hub.services.snapshot
    # Enough users that the page shows a share of the tier (below 100 it says the service is new).
    status = json.loads(snapshot.server_status.body)
    assert status["summary"]["free_tier_cap"] == 5000
    status["summary"]["user_count"] = snapshot.users = 1285
    snapshot.server_status = Encoded.of(status)
    client = create_app(hub.services).test_client()
    page = client.get("/server-status").get_data(as_text=True)
    assert "25.700% of the free tier (5,000 users)" in page
    assert "1,000,000" not in page
    french = client.get("/fr/server-status").get_data(as_text=True)
    assert "5\u202f000" in french


def test_the_licence_page_carries_the_operators_term_for_the_script(make_hub: Any) -> None:
    hub = make_hub(licence_days=30)
    client = create_app(hub.services).test_client()
    for path in ("/license", "/ru/license"):
        page = client.get(path).get_data(as_text=True)
        assert '<meta name="vpnsite-licence_days" content="30">' in page, path
