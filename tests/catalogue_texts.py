"""Every text in a language's catalogue, for the tests that read them all (the e-mails, the API's
details, the archive's README, …)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from vpnsite_adapters.texts.catalogue import CATALOGUES


def catalogue_texts(language: str) -> list[str]:
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.append(value)
        elif attrs.has(type(value)):
            for field in attrs.fields(type(value)):
                walk(getattr(value, field.name))
        elif isinstance(value, Mapping):
            for item in value.values():
                walk(item)
        elif isinstance(value, tuple | list):
            for item in value:
                walk(item)

    walk(CATALOGUES[language])
    return found
