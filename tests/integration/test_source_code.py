"""The site serves its own source (the shipped operator facts' ``source_code``): build_ui.py packs
the project's source into the built site, and every footer and the About page link to that
tarball, which a real `vpnsite serve` answers as a download holding the code and nothing built,
installed or cached."""

from __future__ import annotations

import io
import os
import re
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.site_map import LANGUAGES, localised
from tests.support.serve import OPERATOR_ENV, serve, stop
from vpnsite_adapters.http.pages.site import SITE_DIR
from vpnsite_adapters.operator_files.facts import default_operator_facts

if not (SITE_DIR / "pages" / "index.html").is_file() and os.environ.get("CI") != "true":
    pytest.skip("the website is not built (python build_ui.py)", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
SOURCE = default_operator_facts().source_code


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("source")
    env = {**os.environ, **OPERATOR_ENV, "VPNSITE_DATA_DIR": str(tmp / "data"), "VPNSITE_ACCESS_LOG": "false"}
    env.pop("VPNSITE_DATABASE_URL", None)
    env.pop("VPNSITE_OPERATOR_FACTS", None)
    process = serve(env, tmp / "serve.log")
    try:
        yield process.base
    finally:
        stop(process.process)


def test_every_footer_and_about_link_to_the_source_the_site_serves(served: str) -> None:
    for language in LANGUAGES:
        for route in ("/", "/about", "/server-status"):
            page = requests.get(served + localised(route, language), timeout=10).text
            assert f'href="{SOURCE}"' in page, (language, route)
    answer = requests.get(served + SOURCE, headers={"Accept-Encoding": "gzip"}, timeout=30)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "application/gzip"
    assert "Content-Encoding" not in answer.headers, "the tarball is sent as it is, not gzipped twice"
    disposition = answer.headers["Content-Disposition"]
    assert re.fullmatch(r'attachment; filename="?vpnsite-source\.tar\.gz"?', disposition)
    assert answer.headers["Cache-Control"] == "no-cache" and answer.headers["ETag"]

    with tarfile.open(fileobj=io.BytesIO(answer.content), mode="r:gz") as tar:
        names = set(tar.getnames())
        held = tar.extractfile("vpnsite/src/vpnsite/__init__.py")
        assert held is not None and held.read() == (ROOT / "src" / "vpnsite" / "__init__.py").read_bytes()
    for name in ("LICENSE", "README.md", "pyproject.toml", "ui/src/app.tsx", "tests/conftest.py"):
        assert f"vpnsite/{name}" in names, name
    assert any(name.startswith("vpnsite/ui/src/") for name in names)
    assert any(name.startswith("vpnsite/adapters/vpnsite_adapters/") for name in names)
    for left_out in ("node_modules", "__pycache__", ".git", "vpnsite_adapters/http/site/", "dist-ssr"):
        assert not [name for name in names if left_out in name], left_out
    assert all(not name.endswith((".pyc", ".db", "secret.key")) for name in names)


def test_nothing_else_is_served_from_the_source_folder(served: str) -> None:
    for path in ("/source/other.tar.gz", "/source/..%2Fpages%2Findex.html", "/source/vpnsite-source.tar"):
        assert requests.get(served + path, timeout=10).status_code == 404, path
