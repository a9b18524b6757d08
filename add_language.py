"""A new language in one command: its entry in the list, a copy of English in every file a language
needs, each registered where the site lists its languages, the formatting vectors written from the
browser's Intl, and what is left to translate (docs/architecture.md, "Recipe: add a language").

Usage: ``python add_language.py CODE NAME --locale LOCALE [--html TAG] [--accept TAG]
[--compact short|long]``, e.g. ``python add_language.py it Italiano --locale it-IT``. Run it again
after a step failed: what is already there is kept."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
TEXTS = ROOT / "adapters" / "vpnsite_adapters" / "texts"
UI = ROOT / "ui" / "src"
LIST = TEXTS / "languages.json"
OPERATOR_FILES = ROOT / "adapters" / "vpnsite_adapters" / "operator_files"
# The shipped operator's files that hold a text per language.
BY_LANGUAGE = (OPERATOR_FILES / "example_testimonials.json", OPERATOR_FILES / "operator_facts.json")
ENGLISH = "en"

# Each file a language has, copied from English with the English code's names renamed.
Rename = Callable[[str, str], str]


def _catalogue(text: str, code: str) -> str:
    return text.replace('"""The server\'s texts in English', f'"""The server\'s texts in {code!r}', 1)


def _long_texts(text: str, code: str) -> str:
    return text.replace("const en: PageText", f"const {code}: PageText").replace(
        "export default en;", f"export default {code};"
    )


def _entry(text: str, code: str) -> str:
    return re.sub(r'(["/])en(["])', rf"\g<1>{code}\g<2>", text)


COPIES: dict[str, Rename] = {
    "adapters/vpnsite_adapters/texts/catalogues/{code}.py": _catalogue,
    "ui/src/i18n/{code}.ts": lambda text, _code: text,
    "ui/src/i18n/screens/{code}.ts": lambda text, _code: text,
    "ui/src/content/text/{code}.ts": _long_texts,
    "ui/src/entries/{code}.tsx": _entry,
}


def add_to_list(code: str, entry: dict[str, str]) -> bool:
    listed = json.loads(LIST.read_text(encoding="utf-8"))
    if any(language["code"] == code for language in listed["languages"]):
        return False
    listed["languages"].append(entry)
    # One language a line, as the file is written by hand.
    lines = ",\n".join(f"    {json.dumps(language, ensure_ascii=False)}" for language in listed["languages"])
    LIST.write_text(
        f'{{\n  "default": {json.dumps(listed["default"])},\n  "languages": [\n{lines}\n  ]\n}}\n',
        encoding="utf-8",
    )
    return True


def copy_english(code: str) -> list[str]:
    written = []
    for pattern, rename in COPIES.items():
        target = ROOT / pattern.format(code=code)
        if not target.exists():
            english = (ROOT / pattern.format(code=ENGLISH)).read_text(encoding="utf-8")
            target.write_text(rename(english, code), encoding="utf-8")
            written.append(pattern.format(code=code))
    return written


def _edit(path: Path, change: Callable[[str], str]) -> None:
    text = path.read_text(encoding="utf-8")
    changed = change(text)
    if changed == text:
        raise SystemExit(f"add_language: {path.relative_to(ROOT)} is not as this script knows it")
    path.write_text(changed, encoding="utf-8")


def _after_last_import(text: str, lines: str) -> str:
    last = list(re.finditer(r"^import .*;\n", text, re.MULTILINE))[-1]
    return text[: last.end()] + lines + text[last.end() :]


def register(code: str) -> list[str]:
    """The code where the UI lists its languages' files, and the demo's testimonials."""
    registered = []
    language = UI / "lib" / "language.ts"
    if f'"{code}"' not in language.read_text(encoding="utf-8"):
        _edit(language, lambda text: re.sub(r"(export type Language = [^;]*);", rf'\1 | "{code}";', text))
        registered.append("ui/src/lib/language.ts")
    dictionaries = UI / "i18n" / "all.ts"
    if not re.search(rf"^  {code}: ", dictionaries.read_text(encoding="utf-8"), re.MULTILINE):

        def add_dictionary(text: str) -> str:
            imports = f'import {code} from "./{code}";\nimport {code}Screens from "./screens/{code}";\n'
            text = _after_last_import(text, imports)
            return text.replace(
                "} satisfies Record<Language, Dictionary>;",
                f"  {code}: {{ ...{code}, ...{code}Screens }},\n}} satisfies Record<Language, Dictionary>;",
            )

        _edit(dictionaries, add_dictionary)
        registered.append("ui/src/i18n/all.ts")
    texts = UI / "content" / "all.ts"
    if not re.search(rf"[{{,] {code}[,}} ]", texts.read_text(encoding="utf-8")):

        def add_texts(text: str) -> str:
            text = _after_last_import(text, f'import {code} from "./text/{code}";\n')
            return re.sub(r"(TEXTS: Record<Language, PageText> = \{[^}]*?) \};", rf"\1, {code} }};", text)

        _edit(texts, add_texts)
        registered.append("ui/src/content/all.ts")
    working = UI / "i18n" / "signup-check.ts"
    source = working.read_text(encoding="utf-8")
    if not re.search(rf"^  {code}: ", source, re.MULTILINE):
        english = re.search(rf"^  {ENGLISH}: (.*),$", source, re.MULTILINE)
        assert english is not None, "signup-check.ts has no English text"
        _edit(working, lambda text: text.replace("\n};\n", f"\n  {code}: {english[1]},\n}};\n", 1))
        registered.append("ui/src/i18n/signup-check.ts")
    for path in BY_LANGUAGE:
        if copy_english_key(path, code):
            registered.append(str(path.relative_to(ROOT)))
    return registered


def _by_language(data: dict[str, Any]) -> dict[str, Any]:
    """Where a file keyed by language keeps its languages: the testimonials at the top, the
    operator's facts under ``languages``."""
    languages: dict[str, Any] = data.get("languages", data)
    return languages


def copy_english_key(path: Path, code: str) -> bool:
    """The English entry of a file keyed by language, under ``code`` too."""
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    languages = _by_language(data)
    if code in languages:
        return False
    languages[code] = languages[ENGLISH]
    second = text.splitlines()[1]
    indent = len(second) - len(second.lstrip(" "))  # as the file is indented
    path.write_text(json.dumps(data, ensure_ascii=False, indent=indent) + "\n", encoding="utf-8")
    return True


def still_english(code: str) -> list[str]:
    """The language's files and entries that are still the English copy this command made."""
    english = []
    for pattern, rename in COPIES.items():
        if pattern.endswith(".tsx"):
            continue  # the first script holds no text
        copy = rename((ROOT / pattern.format(code=ENGLISH)).read_text(encoding="utf-8"), code)
        if (ROOT / pattern.format(code=code)).read_text(encoding="utf-8") == copy:
            english.append(pattern.format(code=code))
    for path in BY_LANGUAGE:
        languages = _by_language(json.loads(path.read_text(encoding="utf-8")))
        if languages[code] == languages[ENGLISH]:
            english.append(f"{path.relative_to(ROOT)} (its {code!r} entry)")
    return english


def write_api_types() -> None:
    """The website's API types, generated as tests/integration/test_ui_api_types.py generates them:
    the document says which languages a caller may ask for."""
    document = subprocess.run(
        [sys.executable, "-m", "vpnsite_adapters.http.api.openapi"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as written:
        written.write(document)
        written.flush()
        subprocess.run(
            ["npm", "--prefix", str(ROOT / "ui"), "run", "--silent", "api-types", "--", written.name],
            check=True,
            capture_output=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("code", help="two or three small letters: the path's prefix (/it)")
    parser.add_argument("name", help="the language's name in itself, as the language menu shows it")
    parser.add_argument("--locale", required=True, help="the browser's Intl locale (it-IT)")
    parser.add_argument("--html", help="HTML's lang and the e-mails' (default: the code)")
    parser.add_argument(
        "--accept", help="the Accept-Language the website's script sends (default: the locale)"
    )
    parser.add_argument(
        "--compact",
        choices=("short", "long"),
        default="long",
        help="a count of millions abbreviated (1.2m) or written out (1,2 milioni)",
    )
    args = parser.parse_args(argv)
    from vpnsite.signup_requests import LANGUAGE_CODE

    if not re.fullmatch(LANGUAGE_CODE, args.code):
        parser.error("the code is two or three small letters, as ISO 639 writes it")
    entry = {
        "code": args.code,
        "name": args.name,
        "html": args.html or args.code,
        "accept": args.accept or args.locale,
        "locale": args.locale,
        "compact": args.compact,
    }
    if add_to_list(args.code, entry):
        print(f"listed: {LIST.relative_to(ROOT)}")
    copied = copy_english(args.code)
    for path in copied:
        print(f"copied from English: {path}")
    for path in register(args.code):
        print(f"registered: {path}")
    # The vectors take the dictionaries' words for days and users: written again on every run, so
    # a run after the translation brings them up to date.
    subprocess.run(["npm", "--prefix", str(ROOT / "ui"), "run", "--silent", "locale-vectors"], check=True)
    print("written from Intl: tests/locale_vectors.json")
    write_api_types()
    print("written from the OpenAPI document: ui/src/lib/api-types.ts (it names the languages)")
    from tests.language_pieces import missing_pieces

    missing = missing_pieces(args.code, LIST)
    if missing:
        print("\nstill missing:", *missing, sep="\n")
        return 1
    english = still_english(args.code)
    if english:
        print("\nStill in English:", *english, sep="\n  ")
    print(
        "\nIn the server's catalogue, also how the language writes numbers, dates and short counts,\n"
        "its plural rule and its waits: the tests compare them with the vectors Intl wrote and name\n"
        "each difference. A mistyped code reads the same in the catalogue (field_errors) and in\n"
        f"screens/{args.code}.ts (codeTypo, codeFormat). Texts that count the languages\n"
        '("five languages") count one more. Tests that hold a table of what each language says\n'
        "fail with the new code's KeyError: add its row. After translating, run this command again\n"
        "(the vectors take the dictionaries' words), then: python build_ui.py && tox"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
