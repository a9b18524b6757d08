"""Every text the server writes, one catalogue per language (``catalogues/en.py``, …): the API's
error details and the archive's README. The website's own texts are the UI's dictionaries (``ui/src/i18n``).

A catalogue is built whole or not at all: a text it lacks is a TypeError, and a language the list
(``languages.json``) names without a catalogue an error, when the server starts."""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from attrs import frozen

from vpnsite_adapters.languages import DEFAULT_LANGUAGE, LANGUAGES


@frozen(kw_only=True)
class Catalogue:
    # The personal archive's README.txt (vpn/profiles.py): its title, and its steps in order.
    archive_title: str
    archive_steps: tuple[str, ...]
    # The API's error details by code, what a field failed by kind, and the JSON types a field
    # expects as its error names them (http/messages.py).
    details: Mapping[str, str]
    field_errors: Mapping[str, str]
    type_names: Mapping[str, str]


def load_catalogue(language: str) -> Catalogue:
    """The catalogue in ``catalogues/<language>.py`` (its ``CATALOGUE``)."""
    try:
        module = importlib.import_module(f"vpnsite_adapters.catalogues.{language}")
    except ModuleNotFoundError:
        raise LookupError(
            f"languages.json lists {language!r}, but there is no catalogue "
            f"vpnsite_adapters/catalogues/{language}.py"
        ) from None
    found = getattr(module, "CATALOGUE", None)
    if not isinstance(found, Catalogue):
        raise LookupError(f"vpnsite_adapters/catalogues/{language}.py has no CATALOGUE = Catalogue(...)")
    return found


CATALOGUES: Mapping[str, Catalogue] = {language: load_catalogue(language) for language in LANGUAGES}


def catalogue(language: str) -> Catalogue:
    """The language's catalogue; the default language's for one the site does not speak."""
    return CATALOGUES.get(language, CATALOGUES[DEFAULT_LANGUAGE])
