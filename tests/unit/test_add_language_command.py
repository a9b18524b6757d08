"""`python add_language.py` (docs/architecture.md, "Recipe: add a language"), run on a copy of the
files it writes: a sixth language listed, English copied into each of its files, registered where
the site lists its languages, the same again on a second run, and every copy named as English until
it is translated."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import add_language
import pytest

from tests.language_pieces import NEW_LANGUAGE

REAL = add_language.ROOT
TOUCHED = [
    "adapters/vpnsite_adapters/texts/languages.json",
    "adapters/vpnsite_adapters/operator_files/example_testimonials.json",
    "adapters/vpnsite_adapters/operator_files/operator_facts.json",
    "adapters/vpnsite_adapters/texts/catalogues/en.py",
    "ui/src/i18n/en.ts",
    "ui/src/i18n/screens/en.ts",
    "ui/src/content/text/en.ts",
    "ui/src/entries/en.tsx",
    "ui/src/lib/language.ts",
    "ui/src/i18n/all.ts",
    "ui/src/content/all.ts",
    "ui/src/i18n/signup-check.ts",
]
NEW = NEW_LANGUAGE


@pytest.fixture
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in TOUCHED:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REAL / name, tmp_path / name)
    operator_files = tmp_path / "adapters/vpnsite_adapters/operator_files"
    for name, value in {
        "ROOT": tmp_path,
        "UI": tmp_path / "ui/src",
        "LIST": tmp_path / "adapters/vpnsite_adapters/texts/languages.json",
        "BY_LANGUAGE": tuple(operator_files / path.name for path in add_language.BY_LANGUAGE),
    }.items():
        monkeypatch.setattr(add_language, name, value)
    return tmp_path


def _add() -> list[str]:
    entry = {
        "code": NEW,
        "name": "Italiano",
        "html": NEW,
        "accept": "it-IT",
        "locale": "it-IT",
        "compact": "long",
    }
    listed = add_language.add_to_list(NEW, entry)
    return [*(["listed"] if listed else []), *add_language.copy_english(NEW), *add_language.register(NEW)]


def _text(root: Path, name: str) -> str:
    return (root / name).read_text(encoding="utf-8")


def test_a_language_is_listed_copied_and_registered_once(copy: Path) -> None:
    done = _add()
    assert len(done) == 1 + 5 + 6
    listed: Any = json.loads(_text(copy, "adapters/vpnsite_adapters/texts/languages.json"))
    assert listed["languages"][-1]["code"] == NEW and listed["default"] == "en"
    for pattern in add_language.COPIES:
        assert (copy / pattern.format(code=NEW)).is_file(), pattern
    entry = _text(copy, f"ui/src/entries/{NEW}.tsx")
    assert f'start("{NEW}", dictionary' in entry and f'import("../i18n/screens/{NEW}")' in entry
    assert f"const {NEW}: PageText" in _text(copy, f"ui/src/content/text/{NEW}.ts")
    assert f'| "{NEW}";' in _text(copy, "ui/src/lib/language.ts")
    assert f"  {NEW}: {{ ...{NEW}, ...{NEW}Screens }}," in _text(copy, "ui/src/i18n/all.ts")
    assert f'import {NEW}Screens from "./screens/{NEW}";' in _text(copy, "ui/src/i18n/all.ts")
    assert f", {NEW} }};" in _text(copy, "ui/src/content/all.ts")
    assert f"\n  {NEW}: " in _text(copy, "ui/src/i18n/signup-check.ts")
    facts: Any = json.loads(_text(copy, "adapters/vpnsite_adapters/operator_files/operator_facts.json"))
    assert facts["languages"][NEW] == facts["languages"]["en"]
    # Run again (after a step failed, or after translating): nothing is written twice.
    before = {name: _text(copy, name) for name in TOUCHED}
    assert _add() == []
    assert {name: _text(copy, name) for name in TOUCHED} == before


def test_every_copy_is_named_as_english_until_it_is_translated(copy: Path) -> None:
    _add()
    english = add_language.still_english(NEW)
    assert len(english) == 4 + 2
    screens = copy / f"ui/src/i18n/screens/{NEW}.ts"
    screens.write_text(
        _text(copy, f"ui/src/i18n/screens/{NEW}.ts").replace('"Page not found', '"Pagina non trovata')
    )
    assert f"ui/src/i18n/screens/{NEW}.ts" not in add_language.still_english(NEW)
    assert len(add_language.still_english(NEW)) == 5


def test_a_code_that_is_no_language_code_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        add_language.main(["Italian", "Italiano", "--locale", "it-IT"])
    assert stopped.value.code == 2
    assert "two or three small letters" in capsys.readouterr().err
