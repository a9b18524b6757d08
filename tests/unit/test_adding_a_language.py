"""Adding a language is the list plus one catalogue per side (docs/architecture.md, "Recipe: add a
language"): a language the list names without its pieces is refused, naming each one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from tests.language_pieces import NEW_LANGUAGE, missing_pieces
from vpnsite_adapters.texts.catalogue import CATALOGUES, Catalogue, Catalogues, MissingCatalogue
from vpnsite_adapters.texts.languages import LANGUAGES, LIST_FILE, read_languages

NEW = NEW_LANGUAGE
ENTRY = {"code": NEW, "name": NEW, "html": NEW, "accept": NEW, "locale": NEW, "compact": "long"}


def listed_with_a_new_language(tmp_path: Path) -> Path:
    listed = json.loads(LIST_FILE.read_text(encoding="utf-8"))
    listed["languages"].append(ENTRY)
    list_file = tmp_path / "languages.json"
    list_file.write_text(json.dumps(listed), encoding="utf-8")
    return list_file


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_listed_language_has_every_piece(language: str) -> None:
    assert missing_pieces(language) == []


def test_a_sixth_language_in_the_list_names_every_piece_it_still_lacks(tmp_path: Path) -> None:
    list_file = listed_with_a_new_language(tmp_path)
    assert read_languages(list_file).codes[-1] == NEW
    assert missing_pieces(NEW, list_file) == [
        f"adapters/vpnsite_adapters/texts/catalogues/{NEW}.py: "
        "the server's texts (CATALOGUE = Catalogue(...), as catalogues/en.py)",
        f"ui/src/i18n/{NEW}.ts: the first script's dictionary: the layout and the home page",
        f"ui/src/i18n/screens/{NEW}.ts: the other screens' dictionary and the pages' titles",
        f"ui/src/content/text/{NEW}.ts: the long texts: FAQ, terms, privacy policy, cookie policy, about",
        f"ui/src/entries/{NEW}.tsx: the language's first script",
        f"ui/src/i18n/all.ts: {NEW} in DICTIONARIES",
        f"ui/src/content/all.ts: {NEW} in TEXTS",
        f"ui/src/i18n/signup-check.ts: {NEW} in WORKING",
        f"adapters/vpnsite_adapters/operator_files/example_testimonials.json: the demo's eight in {NEW!r}",
        "adapters/vpnsite_adapters/operator_files/operator_facts.json: "
        f"the shipped operator's texts in {NEW!r} (under languages)",
        *(
            f"tests/locale_vectors.json: {kind} in {NEW!r}, as the browser's Intl writes them "
            "(npm --prefix ui run locale-vectors)"
            for kind in ("numbers", "dates", "plurals", "days", "short", "moments", "users", "waits")
        ),
    ]


def test_a_language_not_in_the_list_is_named_as_missing_from_it_too() -> None:
    assert (
        missing_pieces(NEW)[0]
        == f"adapters/vpnsite_adapters/texts/languages.json: an entry for {NEW!r} (name, tags, locale)"
    )


def test_a_catalogue_is_loaded_when_asked_for_and_the_list_is_checked_whole_at_start() -> None:
    listed = Catalogues((*LANGUAGES, NEW))
    assert listed["ru"] is CATALOGUES["ru"]
    with pytest.raises(MissingCatalogue, match=f"languages.json lists {NEW!r}, but there is no catalogue"):
        listed.load_all()
    with pytest.raises(KeyError):
        listed["xx"]


def test_the_hub_does_not_start_with_a_listed_language_it_has_no_catalogue_for(tmp_path: Path) -> None:
    """`vpnsite serve` on a list naming a language before its catalogue exists: it stops before it
    listens, naming the file, with no traceback."""
    start = (
        "import sys; import vpnsite_adapters.texts.catalogue as texts; "
        f"texts.CATALOGUES = texts.Catalogues((*texts.LANGUAGES, {NEW!r})); "
        "from vpnsite_adapters.cli.main import main; "
        f"sys.exit(main(['--data-dir', {str(tmp_path)!r}, 'serve', '--demo', '--port', '1']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", start], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2, result.stderr
    assert f"languages.json lists {NEW!r}, but there is no catalogue" in result.stderr
    assert f"catalogues/{NEW}.py" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_catalogue_missing_a_text_cannot_be_built() -> None:
    english = attrs.asdict(CATALOGUES["en"], recurse=False)
    del english["colon"]
    with pytest.raises(TypeError, match="colon"):
        Catalogue(**english)
