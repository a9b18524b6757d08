"""The website's API types (ui/src/lib/api-types.ts) are generated from the OpenAPI document by
openapi-typescript; this fails when the document changed and they were not regenerated. Without
ui/node_modules (or Node.js) it skips with the reason, except under CI=true, where it must run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vpnsite_adapters.http.api.openapi import openapi_document

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"
GENERATOR = UI / "node_modules" / ".bin" / "openapi-typescript"
CHECKED_IN = UI / "src" / "lib" / "api-types.ts"
REGENERATE = (
    "python -m vpnsite_adapters.http.api.openapi > /tmp/openapi.json"
    " && npm --prefix ui run api-types -- /tmp/openapi.json"
)


def _missing() -> str | None:
    if shutil.which("node") is None:
        return "Node.js is not on PATH"
    if not GENERATOR.is_file():
        return f"openapi-typescript is not installed in {UI / 'node_modules'} (run `npm ci` in ui/)"
    return None


def test_the_ui_api_types_are_generated_from_the_openapi_document(tmp_path: Path) -> None:
    problem = _missing()
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(problem + " — under CI=true the website's API types must be checked")
        pytest.skip(problem)
    document = tmp_path / "openapi.json"
    document.write_text(json.dumps(openapi_document(), indent=2), encoding="utf-8")
    generated = tmp_path / "api-types.ts"
    subprocess.run(
        [str(GENERATOR), str(document), "--output", str(generated)],
        cwd=UI,
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert generated.read_text(encoding="utf-8") == CHECKED_IN.read_text(encoding="utf-8"), (
        f"{CHECKED_IN.relative_to(ROOT)} does not match the OpenAPI document; "
        f"regenerate it from the repository root with:\n    {REGENERATE}"
    )


def test_the_document_is_the_same_whatever_a_process_read_first() -> None:
    """The handlers describe their calls as their modules are read, and what a process reads first
    depends on what it did before (a test's server, the CLI): the document, and so the types
    generated from it, must not."""
    write = (
        "import json; from vpnsite_adapters.http.api.openapi import openapi_document; "
        "print(json.dumps(openapi_document()))"
    )
    first = "import vpnsite_adapters.http.pages.about_facts, vpnsite_adapters.http.node.calls; "
    runs = [[sys.executable, "-c", before + write] for before in ("", first)]
    documents = {subprocess.run(run, capture_output=True, text=True, check=True).stdout for run in runs}
    assert len(documents) == 1
