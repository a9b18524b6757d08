"""The build's manifest of slots (``site/slots.json``) against the slots the server fills: a site
built for another version of the server stops `vpnsite serve` at start, naming every difference,
instead of answering one visitor's request with a 500 or a page with a blank in it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.integration.processes import free_port
from tests.site_map import LANGUAGES
from vpnsite_adapters.http.pages.site import SITE_DIR, Site
from vpnsite_adapters.http.pages.slot_manifest import SlotMismatch

if not (SITE_DIR / "slots.json").is_file():
    reason = f"the website is not built in {SITE_DIR} (run `python build_ui.py`)"
    if os.environ.get("CI") == "true":
        raise RuntimeError(reason + "; under CI=true the website tests must run")
    pytest.skip(reason, allow_module_level=True)


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A copy of the built website, to change as a build for another server would be."""
    copy = tmp_path / "site"
    shutil.copytree(SITE_DIR, copy)
    return copy


def _edit(path: Path, change: Callable[[str], str]) -> None:
    text = path.read_text(encoding="utf-8")
    changed = change(text)
    assert changed != text, f"{path}: the edit found nothing to change"
    path.write_text(changed, encoding="utf-8")


def _edit_manifest(root: Path, change: Callable[[dict[str, Any]], None]) -> None:
    manifest = json.loads((root / "slots.json").read_text(encoding="utf-8"))
    change(manifest)
    (root / "slots.json").write_text(json.dumps(manifest), encoding="utf-8")


def _mismatch(root: Path, make_hub: Any) -> list[str]:
    with pytest.raises(SlotMismatch) as raised:
        Site(root, "https://vpn.example", make_hub().services.snapshot)
    return raised.value.problems


def test_the_site_as_built_fills_exactly_its_slots(make_hub: Any) -> None:
    Site(SITE_DIR, "https://vpn.example", make_hub().services.snapshot)


def test_the_manifest_names_every_page_and_every_piece_of_every_language() -> None:
    manifest = json.loads((SITE_DIR / "slots.json").read_text(encoding="utf-8"))
    pages = set(manifest["pages"])
    assert {name for name in pages if name.startswith("/pages/")} == {
        "/" + str(path.relative_to(SITE_DIR)) for path in (SITE_DIR / "pages").rglob("*.html")
    }
    assert manifest["pages"]["/forms/ru/support-sent.html"].count("TICKET") == 1
    assert manifest["pieces"]["status.json"]["pt"]["markup/vpn_row"]
    assert set(manifest["pieces"]) == {path.name for path in (SITE_DIR / "forms").glob("*.json")}


def test_a_slot_the_server_does_not_fill_in_a_page_is_named(built: Path, make_hub: Any) -> None:
    page = "/pages/ru/about/index.html"
    _edit_manifest(built, lambda manifest: manifest["pages"][page].append("WEATHER"))
    assert _mismatch(built, make_hub) == [f"{page}: the server fills no {{WEATHER}} in a page"]


def test_a_screen_that_lost_the_visitors_value_is_named(built: Path, make_hub: Any) -> None:
    """The ticket's number would be missing from the answer to a support form."""
    screen = "/forms/es/support-sent.html"
    _edit_manifest(built, lambda manifest: manifest["pages"][screen].remove("TICKET"))
    (problem,) = _mismatch(built, make_hub)
    assert problem == f"{screen}: the build has {{}}, the form fills {{TICKET}}"


def test_a_piece_with_a_slot_more_or_less_is_named_in_each_language(built: Path, make_hub: Any) -> None:
    def change(manifest: dict[str, Any]) -> None:
        manifest["pieces"]["status.json"]["fr"]["markup/vpn_row"].remove("CITY")
        manifest["pieces"]["testimonials.json"]["en"]["card"].append("PHOTO")

    _edit_manifest(built, change)
    assert sorted(_mismatch(built, make_hub)) == [
        "forms/status.json [fr] markup/vpn_row: the build has {NAME, PING, RANK, RANK_TEXT, RAW_FLAG, "
        "RAW_LOAD, STATUS, STATUS_TEXT}, the server fills {CITY, NAME, PING, RANK, RANK_TEXT, RAW_FLAG, "
        "RAW_LOAD, STATUS, STATUS_TEXT}",
        "forms/testimonials.json [en] card: the build has {ABOUT, INITIALS, NAME, PHOTO, RAW_STARS, "
        "STARS_LABEL, TEXT}, the server fills {ABOUT, INITIALS, NAME, RAW_STARS, STARS_LABEL, TEXT}",
    ]


def test_a_piece_or_a_screen_missing_from_the_build_is_named(built: Path, make_hub: Any) -> None:
    def change(manifest: dict[str, Any]) -> None:
        del manifest["pieces"]["check.json"]["ru"]["markup/protected_via"]
        for language in LANGUAGES:
            del manifest["pages"][f"/forms/{language}/licence-error.html"]

    _edit_manifest(built, change)
    assert sorted(_mismatch(built, make_hub)) == [
        "forms/*/licence-error.html: missing from the build",
        "forms/check.json [ru] markup/protected_via: missing from the build",
    ]


def test_half_of_a_block_and_its_data_is_named(built: Path, make_hub: Any) -> None:
    page = "/pages/server-status/index.html"
    _edit_manifest(built, lambda manifest: manifest["pages"][page].remove("RAW_CHECK_JSON"))
    assert _mismatch(built, make_hub) == [f"{page}: has {{RAW_CHECK}} without {{RAW_CHECK_JSON}}"]


def test_serve_refuses_to_start_on_a_site_built_for_another_server(
    built: Path, environment: dict[str, str]
) -> None:
    """The operator's `vpnsite serve`, with the website it serves changed: it stops before it
    listens, with the differences and what to do, and no traceback."""
    _edit(built / "slots.json", lambda text: text.replace('"TICKET"', '"TICKET_NUMBER"', 1))
    port = free_port()
    start = (
        "import sys, vpnsite_adapters.http.pages.site as site; from pathlib import Path; "
        f"site.SITE_DIR = Path({str(built)!r}); "
        "from vpnsite_adapters.cli.main import main; "
        f"sys.exit(main(['serve', '--host', '127.0.0.1', '--port', '{port}']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", start],
        env={**environment, "VPNSITE_PUBLIC_URL": f"http://127.0.0.1:{port}"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "the website's slots do not match" in result.stderr and "python build_ui.py" in result.stderr
    assert "TICKET_NUMBER" in result.stderr and "Traceback" not in result.stderr
