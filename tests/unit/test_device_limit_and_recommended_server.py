"""How many devices a licence connects at once (one per server, at most MAX_SESSIONS), the server
recommended to a new device, and the website's words for a mistyped code, which are the server's
(issue 30, items 8 and 10)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vpnsite.devices import devices_at_once
from vpnsite.fleet import SPEC_LOCATIONS, VpnServer, recommended, view_fleet
from vpnsite.vpn_access import MAX_SESSIONS
from vpnsite_adapters.texts.catalogue import CATALOGUES
from vpnsite_adapters.texts.languages import LANGUAGES

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
SCREENS = Path(__file__).parents[2] / "ui" / "src" / "i18n" / "screens"


@given(st.integers(min_value=0, max_value=100))
def test_a_licence_connects_one_device_per_server_and_at_most_the_limit(servers: int) -> None:
    at_once = devices_at_once(servers)
    assert 1 <= at_once <= MAX_SESSIONS
    if 0 < servers < MAX_SESSIONS:
        assert at_once == servers, "a fleet smaller than the limit is the limit"
    else:
        assert at_once == MAX_SESSIONS, "an unknown fleet (0) or a large one: the limit"


def test_the_limit_is_ten() -> None:
    assert (MAX_SESSIONS, devices_at_once(8), devices_at_once(0), devices_at_once(12)) == (10, 8, 10, 10)


def server(where: int, load: float | None, online: bool = True) -> VpnServer:
    return VpnServer(
        SPEC_LOCATIONS[where],
        last_seen=NOW - timedelta(seconds=5 if online else 300),
        service_up=True,
        load_percent=load,
    )


def test_the_recommended_server_is_the_least_loaded_online() -> None:
    views = view_fleet([server(0, 40), server(1, 5, online=False), server(2, 12), server(3, 12)], NOW)
    best = recommended(views)
    assert best is not None and best.server.location == SPEC_LOCATIONS[2], (
        "offline ones never; first of equals"
    )
    assert recommended(view_fleet([server(0, 3, online=False)], NOW)) is None
    assert recommended([]) is None


def test_an_unknown_load_counts_as_idle() -> None:
    views = view_fleet([server(0, 20), attrs.evolve(server(1, None), load_percent=None)], NOW)
    best = recommended(views)
    assert best is not None and best.server.location == SPEC_LOCATIONS[1]


def screen_text(language: str, key: str) -> str:
    source = (SCREENS / f"{language}.ts").read_text(encoding="utf-8")
    found = re.search(rf'^    {key}: ("(?:[^"\\]|\\.)*"),$', source, re.M)
    assert found, f"{key} is no longer one string in {language}.ts"
    return str(json.loads(found[1]))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_mistyped_code_reads_the_same_with_and_without_the_script(language: str) -> None:
    """The script checks the code before sending it (ui/src/lib/check-digit.ts); the page without
    it gets the server's field error. One message each, word for word."""
    assert screen_text(language, "codeTypo") == CATALOGUES[language].field_errors["code_mistyped"]
    assert screen_text(language, "codeFormat") == CATALOGUES[language].field_errors["code_format"]


def test_the_server_field_errors_are_sentences_so_the_support_form_joins_them_with_a_space() -> None:
    """The support form joins its field errors with a space (ui/src/lib/errors.ts): each ends with
    its own stop, so the joined text never reads "..", nor runs two sentences together."""
    for language, texts in CATALOGUES.items():
        for kind, text in texts.field_errors.items():
            assert re.search(r"[.!?…]$", text) and not text.endswith(".."), (kind, language, text)
