"""The website's languages, as ``languages.json`` lists them: the one list the server and the UI's
build both read (``ui/src/lib/language.ts``, ``ui/build.mjs``). Outside ``http/`` so that the
settings, the mail and the VPN archives may read it too. Adding a language: docs/architecture.md,
"Recipe: add a language"."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from attrs import frozen

from vpnsite.signup_requests import LANGUAGE_CODE

LIST_FILE = Path(__file__).with_name("languages.json")


@frozen
class Language:
    code: str  # the path's prefix (/ru) and the API's ``language``
    name: str  # in the language itself, as the language menu shows it
    html: str  # HTML's lang and hreflang, and the e-mails' lang: the Portuguese is Brazilian
    accept: str  # the Accept-Language the website's script sends
    locale: str  # the browser's Intl formatting locale: British English
    compact: str  # a count of millions abbreviated ("short": 1.2m) or written out ("long")


@frozen
class LanguageList:
    default: str  # the one without a path prefix, and what an unknown language falls back to
    languages: tuple[Language, ...]  # in the language menu's order

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(language.code for language in self.languages)


def read_languages(path: Path = LIST_FILE) -> LanguageList:
    data: Any = json.loads(path.read_text(encoding="utf-8"))
    listed = LanguageList(data["default"], tuple(Language(**entry) for entry in data["languages"]))
    if listed.default not in listed.codes:
        raise ValueError(f"{path}: the default language {listed.default!r} is not in the list")
    for code in listed.codes:
        if not re.fullmatch(LANGUAGE_CODE, code):
            raise ValueError(
                f"{path}: {code!r} is not a language's code (two or three small letters, as ISO 639 "
                "writes it): the path's prefix, the API's language and a sign-up's id carry it"
            )
    return listed


LISTED = read_languages()
LANGUAGES: tuple[str, ...] = LISTED.codes
DEFAULT_LANGUAGE = LISTED.default
# The languages a path names in its first segment (/ru/support); the default one has no prefix.
PREFIXED: tuple[str, ...] = tuple(code for code in LANGUAGES if code != DEFAULT_LANGUAGE)
HTML_LANG: Mapping[str, str] = {language.code: language.html for language in LISTED.languages}
