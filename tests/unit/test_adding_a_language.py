"""Adding a language is the list plus one catalogue per side (docs/architecture.md, "Recipe: add a
language"): a language the list names without its pieces is refused, naming each one."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from tests.language_pieces import missing_pieces
from vpnsite_adapters.texts.catalogue import CATALOGUES, Catalogue, load_catalogue
from vpnsite_adapters.texts.languages import LANGUAGES, LIST_FILE, read_languages

ITALIAN = {
    "code": "it",
    "name": "Italiano",
    "html": "it",
    "accept": "it-IT",
    "locale": "it-IT",
    "compact": "long",
}


def listed_with_italian(tmp_path: Path) -> Path:
    listed = json.loads(LIST_FILE.read_text(encoding="utf-8"))
    listed["languages"].append({**ITALIAN, "compact": "long"})
    list_file = tmp_path / "languages.json"
    list_file.write_text(json.dumps(listed), encoding="utf-8")
    return list_file


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_listed_language_has_every_piece(language: str) -> None:
    assert missing_pieces(language) == []


def test_a_sixth_language_in_the_list_names_every_piece_it_still_lacks(tmp_path: Path) -> None:
    list_file = listed_with_italian(tmp_path)
    assert read_languages(list_file).codes[-1] == "it"
    assert missing_pieces("it", list_file) == [
        "adapters/vpnsite_adapters/texts/catalogues/it.py: "
        "the server's texts (CATALOGUE = Catalogue(...), as catalogues/en.py)",
        "ui/src/i18n/it.ts: the first script's dictionary: the layout and the home page",
        "ui/src/i18n/screens/it.ts: the other screens' dictionary and the pages' titles",
        "ui/src/content/text/it.ts: the long texts: FAQ, terms, privacy policy, cookie policy, about",
        "ui/src/entries/it.tsx: the language's first script",
        "ui/src/i18n/all.ts: it in DICTIONARIES",
        "ui/src/content/all.ts: it in TEXTS",
        "ui/src/i18n/signup-check.ts: it in WORKING",
        "adapters/vpnsite_adapters/operator_files/example_testimonials.json: the demo's eight in 'it'",
        *(
            f"tests/locale_vectors.json: {kind} in 'it', as the browser's Intl writes them"
            for kind in ("numbers", "dates", "plurals", "days", "short", "moments", "users", "waits")
        ),
        "src/vpnsite_contract/website.py: VpnServer.popularity_it, filled in "
        "adapters/vpnsite_adapters/jobs/status_snapshot.py:server_entry",
        "tests/site_map.py: 'it' in LANGUAGES and HTML_LANG",
    ]


def test_a_language_not_in_the_list_is_named_as_missing_from_it_too() -> None:
    assert (
        missing_pieces("it")[0]
        == "adapters/vpnsite_adapters/texts/languages.json: an entry for 'it' (name, tags, locale)"
    )


def test_the_server_does_not_start_with_a_listed_language_it_has_no_catalogue_for() -> None:
    with pytest.raises(
        LookupError, match=r"languages.json lists 'it', but there is no catalogue .*catalogues/it.py"
    ):
        load_catalogue("it")


def test_a_catalogue_missing_a_text_cannot_be_built() -> None:
    english = attrs.asdict(CATALOGUES["en"], recurse=False)
    del english["colon"]
    with pytest.raises(TypeError, match="colon"):
        Catalogue(**english)
