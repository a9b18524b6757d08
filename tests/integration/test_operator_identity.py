"""The operator's identity (VPNSITE_OPERATOR_*): required by `serve` outside the demo, validated,
and written, escaped (``slots.escape``, as the build's renderer escapes), into the footer, About,
terms and privacy pages of every language by a real `vpnsite serve`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.integration.processes import free_port, vpnsite
from tests.site_map import LANGUAGES, localised
from tests.support.serve import OPERATOR_ENV, serve, stop
from vpnsite_adapters.http.pages.site import SITE_DIR
from vpnsite_adapters.http.pages.slots import escape
from vpnsite_adapters.settings import SettingsError, load_settings

if not (SITE_DIR / "pages" / "index.html").is_file() and os.environ.get("CI") != "true":
    pytest.skip("the website is not built (python build_ui.py)", allow_module_level=True)

HOSTILE = {
    "VPNSITE_OPERATOR_NAME": 'Smith & <Sons> "VPN" Ltd',
    "VPNSITE_OPERATOR_NUMBER": "SC123456",
    "VPNSITE_OPERATOR_ADDRESS": "2 <b>Bold</b> Lane & Co, Edinburgh EH1 1AA",
    "VPNSITE_OPERATOR_EMAIL": "legal@smith-sons.example",
    "VPNSITE_OPERATOR_FOUNDER": "Ann O'Neill",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("operator")
    env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp / "data"), "VPNSITE_ACCESS_LOG": "false", **HOSTILE}
    env.pop("VPNSITE_DATABASE_URL", None)
    process = serve(env, tmp / "serve.log")
    try:
        yield process.base
    finally:
        stop(process.process)


def page(base: str, route: str, language: str) -> str:
    response = requests.get(base + localised(route, language), timeout=10)
    assert response.status_code == 200
    return response.text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_name_the_operator_escaped_in_every_language(served: str, language: str) -> None:
    name, number, address, email, founder = (escape(value) for value in HOSTILE.values())
    assert name == "Smith &amp; &lt;Sons> &quot;VPN&quot; Ltd"
    expected = {
        "/": [name, number, address, email],  # the footer
        "/about": [name, number, address, email, founder],
        "/terms": [name, number, address, email],
        "/privacy": [name, number, address, email],
    }
    for route, values in expected.items():
        html = page(served, route, language)
        body = html.split("<body>", 1)[1]
        for value in values:
            assert value in body, (route, value)
        assert f'<meta name="operator:name" content="{name}">' in html, "the script reads the same values"
        assert "__OPERATOR_" not in html, route
        assert "<Sons>" not in html and "<b>Bold</b>" not in html, "nothing the operator wrote is markup"


def test_serve_refuses_to_start_without_the_operator(environment: dict[str, str]) -> None:
    without = {key: value for key, value in environment.items() if not key.startswith("VPNSITE_OPERATOR_")}
    result = vpnsite(
        "serve", "--port", str(free_port()), env={**without, "VPNSITE_PUBLIC_URL": "https://vpn.example"}
    )
    assert result.returncode == 2
    assert "VPNSITE_OPERATOR_NAME" in result.stderr and "VPNSITE_OPERATOR_FOUNDER" in result.stderr
    assert "--demo" in result.stderr and "Traceback" not in result.stderr


def test_half_an_operator_or_a_bad_number_is_a_clear_settings_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="incomplete: set VPNSITE_OPERATOR_ADDRESS"):
        load_settings(
            {k: v for k, v in OPERATOR_ENV.items() if k != "VPNSITE_OPERATOR_ADDRESS"},
            env_file=None,
            data_dir=tmp_path,
        )
    with pytest.raises(SettingsError, match="VPNSITE_OPERATOR_NUMBER must be a UK company number"):
        load_settings({**OPERATOR_ENV, "VPNSITE_OPERATOR_NUMBER": "12-34"}, env_file=None, data_dir=tmp_path)
    with pytest.raises(SettingsError, match="VPNSITE_OPERATOR_EMAIL"):
        load_settings({**OPERATOR_ENV, "VPNSITE_OPERATOR_EMAIL": "nobody"}, env_file=None, data_dir=tmp_path)
    with pytest.raises(SettingsError, match="VPNSITE_OPERATOR_NAME must be one line"):
        load_settings({**OPERATOR_ENV, "VPNSITE_OPERATOR_NAME": "A\nB"}, env_file=None, data_dir=tmp_path)
    settings = load_settings(OPERATOR_ENV, env_file=None, data_dir=tmp_path)
    assert settings.operator is not None and settings.operator.name == "Test Operator Ltd"
