"""What a language needs, piece by piece (docs/architecture.md, "Recipe: add a language"): the list,
the server's catalogue, the website's dictionaries, entry and long texts, the demo's testimonials,
the shipped operator's facts and the formatting vectors both sides are tested against. The tests,
the status answer and the contract read the list itself."""

from __future__ import annotations

import json
import re
from pathlib import Path

from vpnsite_adapters.texts.catalogue import CATALOGUES, load_catalogue
from vpnsite_adapters.texts.languages import DEFAULT_LANGUAGE, LIST_FILE, read_languages

ROOT = Path(__file__).resolve().parents[1]
# A language the site does not speak yet, for the tests of adding one: the first of these not
# listed, so that adding Italian for real leaves them a language to add.
NEW_LANGUAGE = next(code for code in ("it", "de", "nl", "pl") if code not in read_languages().codes)
UI = ROOT / "ui" / "src"
# The website's files of one language, and what each holds.
UI_FILES = {
    "ui/src/i18n/{code}.ts": "the first script's dictionary: the layout and the home page",
    "ui/src/i18n/screens/{code}.ts": "the other screens' dictionary and the pages' titles",
    "ui/src/content/text/{code}.ts": "the long texts: FAQ, terms, privacy policy, cookie policy, about",
    "ui/src/entries/{code}.tsx": "the language's first script",
}
# The catalogue's texts looked up by name (an error's code, a wait's unit, a server's rank).
KEYED = ("details", "field_errors", "type_names", "waits", "popularity")
# Where the website registers each language's files, by its code as an object key.
UI_REGISTERS = {
    "ui/src/i18n/all.ts": "DICTIONARIES",
    "ui/src/content/all.ts": "TEXTS",
    "ui/src/i18n/signup-check.ts": "WORKING",
}


def missing_pieces(code: str, list_file: Path = LIST_FILE) -> list[str]:
    """Every piece the language ``code`` lacks, each said with the file it goes in; none for a
    language the site speaks whole."""
    missing: list[str] = []
    if code not in read_languages(list_file).codes:
        missing.append(f"{_relative(list_file)}: an entry for {code!r} (name, tags, locale)")
    missing += _server_catalogue(code)
    for pattern, holds in UI_FILES.items():
        if not (ROOT / pattern.format(code=code)).is_file():
            missing.append(f"{pattern.format(code=code)}: {holds}")
    for path, name in UI_REGISTERS.items():
        source = (ROOT / path).read_text(encoding="utf-8")
        if not re.search(rf"^\s*{code}\b|[{{,]\s*{code}\s*[,}}:]", source, re.MULTILINE):
            missing.append(f"{path}: {code} in {name}")
    examples = "adapters/vpnsite_adapters/operator_files/example_testimonials.json"
    if code not in json.loads((ROOT / examples).read_text("utf-8")):
        missing.append(f"{examples}: the demo's eight in {code!r}")
    facts = "adapters/vpnsite_adapters/operator_files/operator_facts.json"
    if code not in json.loads((ROOT / facts).read_text("utf-8"))["languages"]:
        missing.append(f"{facts}: the shipped operator's texts in {code!r} (under languages)")
    vectors = json.loads((ROOT / "tests/locale_vectors.json").read_text("utf-8"))
    for kind, cases in vectors.items():
        if not any(case["language"] == code for case in cases):
            missing.append(
                f"tests/locale_vectors.json: {kind} in {code!r}, as the browser's Intl writes them "
                "(npm --prefix ui run locale-vectors)"
            )
    return missing


def _server_catalogue(code: str) -> list[str]:
    where = f"adapters/vpnsite_adapters/texts/catalogues/{code}.py"
    try:
        catalogue = CATALOGUES.get(code) or load_catalogue(code)
    except LookupError:
        return [f"{where}: the server's texts (CATALOGUE = Catalogue(...), as catalogues/en.py)"]
    except TypeError as error:
        return [f"{where}: {error}"]
    # The texts the server looks up by name: the default language's names are the ones it asks for.
    default = CATALOGUES[DEFAULT_LANGUAGE]
    missing = []
    for name in KEYED:
        lacking = sorted(map(str, set(getattr(default, name)) - set(getattr(catalogue, name))))
        if lacking:
            missing.append(f"{where}: {name} lacks {', '.join(lacking)}")
    return missing


def _relative(list_file: Path) -> str:
    # The installed list is named by where it is edited: under tox the package is installed, so its
    # path is inside .tox, not adapters/.
    if list_file == LIST_FILE:
        return "adapters/vpnsite_adapters/texts/languages.json"
    return str(list_file)
