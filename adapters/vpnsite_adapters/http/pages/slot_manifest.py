"""The slots the build left in the website, as its manifest lists them (``site/slots.json``, written
by ``ui/build.mjs``), held against the slots the server fills, once, when it starts. A site built for
another version of the server then stops the start with every difference named, instead of
answering a visitor with a 500 (a slot without a value) or a blank (a value without a slot) on the
one page that has it.

A slot is named as in its marker: ``NAME`` for ``__SLOT_NAME__`` (text), ``RAW_NAME`` for
``__SLOT_RAW_NAME__`` (markup).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

MANIFEST = "slots.json"

# What each piece of a piece file (``site/forms/*.json``) is filled with, by its path in a
# language's parts; a ``*`` stands for any text (the flags, by country; a block's variants). A path
# is matched exactly first, then by the longest pattern that matches it.
Declared = Mapping[str, frozenset[str]]

# Markers a page is filled with only in pairs: the block the visitor reads and the data the script
# starts from. A page with one half would go out with the other's marker in it.
PAIRED = (frozenset({"RAW_STATUS", "RAW_STATUS_JSON"}), frozenset({"RAW_CHECK", "RAW_CHECK_JSON"}))


class SlotMismatch(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__(
            "the website's slots do not match the ones this server fills (rebuild it with "
            "`python build_ui.py`):\n  " + "\n  ".join(problems)
        )
        self.problems = problems


def read(root: Path) -> dict[str, Any]:
    path = root / MANIFEST
    if not path.is_file():
        raise SlotMismatch([f"{path} is missing: the website was built without its manifest"])
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


def piece_problems(
    file: str, by_language: Mapping[str, Mapping[str, list[str]]], declared: Declared
) -> Iterator[str]:
    for language, pieces in by_language.items():
        where = f"forms/{file} [{language}]"
        for path, names in pieces.items():
            wanted = _declared(path, declared)
            if wanted is None:
                yield f"{where} {path}: the server fills no such piece (it has {_names(names)})"
            elif set(names) != wanted:
                yield f"{where} {path}: the build has {_names(names)}, the server fills {_names(wanted)}"
        for path in declared:
            if "*" not in path and path not in pieces:
                yield f"{where} {path}: missing from the build"


def page_problems(
    pages: Mapping[str, list[str]], page_slots: frozenset[str], screens: Declared
) -> Iterator[str]:
    """Every page's slots are ones every page is filled with; a form's answer screen has, on top of
    those, exactly the visitor's values its form fills it with (``screens``, by screen)."""
    answered: set[str] = set()
    for name, names in pages.items():
        found = set(names)
        for pair in PAIRED:
            if found & pair and not pair <= found:
                yield f"{name}: has {_names(found & pair)} without {_names(pair - found)}"
        if name.startswith("/forms/"):
            screen = Path(name).stem
            answered.add(screen)
            wanted = screens.get(screen)
            own = found - page_slots
            if wanted is None:
                yield f"{name}: no form answers with this screen"
            elif own != wanted:
                yield f"{name}: the build has {_names(own)}, the form fills {_names(wanted)}"
        elif extra := found - page_slots:
            yield f"{name}: the server fills no {_names(extra)} in a page"
    for screen in sorted(set(screens) - answered):
        yield f"forms/*/{screen}.html: missing from the build"


def _declared(path: str, declared: Declared) -> frozenset[str] | None:
    if path in declared:
        return declared[path]
    matching = [key for key in declared if "*" in key and fnmatchcase(path, key)]
    return declared[max(matching, key=len)] if matching else None


def _names(names: Any) -> str:
    return "{" + ", ".join(sorted(names)) + "}"
