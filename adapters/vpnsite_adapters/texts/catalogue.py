"""Every text the server writes, one catalogue per language (``catalogues/en.py``, …): the API's
error details, the e-mails, the archive's README, the status page's popularity words, and how the
language writes numbers, dates and waits. The website's own texts are the UI's dictionaries
(``ui/src/i18n``).

A catalogue is built whole or not at all: a text it lacks is a TypeError, and a language the list
(``languages.json``) names without a catalogue an error, when the hub starts (``load_all``). Each is
loaded when first asked for, so that the tool listing what a new language still lacks
(``tests/language_pieces.py``) runs while the list already names it."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Literal, get_args

import attrs
from attrs import field, frozen

from vpnsite.fleet import Rank
from vpnsite_adapters.texts.languages import DEFAULT_LANGUAGE, LANGUAGES


# The licence e-mail (mail/templates.py: licence_email).
@frozen
class LicenceTexts:
    subject: str
    intro: str
    code: str
    until: str
    archive: str
    steps_title: str
    steps: tuple[str, str, str]
    # Setting up a phone from the licence page: its one-tap links, or a server's QR code.
    phone_title: str
    phone_open: str
    phone_tap: str
    phone_qr: str
    check: str
    # Beside the link to the support page.
    help: str
    # Who runs the service, as the site's footer says it (ui/src/i18n/*.ts: footer.company).
    operator: str
    # The way out for an address someone else typed: "Didn't sign up? Erase this address", its
    # link, and that the link only opens a confirmation (vpnsite/erasures.py).
    not_you: str
    erase: str
    erase_note: str


@frozen
class TicketTexts:
    subject: str
    body: str
    add: str
    again: str
    not_you: str


@frozen
class ReminderTexts:
    subject: str
    body: str
    button: str
    same: str


# How the language picks a plural category for a number (formatting.py: plural_category): "one"
# for 1 alone (English); "one-few-many" as Russian counts; "one-millions", as Spanish, with whole
# millions "many"; "zero-one-millions", as French and Portuguese, with 0 and 1 "one" too.
PluralRule = Literal["one", "one-few-many", "one-millions", "zero-one-millions"]


@frozen(kw_only=True)
class Catalogue:
    # The personal archive's README.txt (vpn/profiles.py): its title, and its steps in order; {rule}
    # is how many devices connect at once, in the website's words for the fleet (http/pages/device_rows.py).
    archive_title: str
    archive_steps: tuple[str, ...]
    # The API's error details by code, what a field failed by kind, and the JSON types a field
    # expects as its error names them (http/messages.py).
    details: Mapping[str, str]
    field_errors: Mapping[str, str]
    type_names: Mapping[str, str]
    # A colon after a label, as the language writes it: French puts a no-break space before it.
    colon: str
    # The e-mails (mail/templates.py), and how they count days ("90 days"), as the website's
    # `activation.days` does (tests/unit/test_locale_formatting.py).
    licence: LicenceTexts
    reminder: ReminderTexts
    ticket: TicketTexts
    days: Mapping[str, str]
    # Numbers (formatting.py): the group separator and the smallest number that is grouped
    # (Spanish groups from five digits on), and the decimal separator.
    group_separator: str
    grouped_from: int
    decimal: str
    # Dates: the months as a day's date names them, the date's pattern, and how the first of a
    # month is written (French: "1er").
    months: tuple[str, ...] = field(validator=[attrs.validators.min_len(12), attrs.validators.max_len(12)])
    date: str
    first_day: str
    # How a count from a million is shortened, largest unit first: the power of ten the number
    # counts in, and the unit by the number's plural category. What Intl's compact notation writes
    # (ui/src/lib/format.ts: shortCount).
    short_units: tuple[tuple[int, Mapping[str, str]], ...]
    plural_rule: PluralRule = field(validator=attrs.validators.in_(get_args(PluralRule)))
    # A wait ahead of time in each unit (second, minute, hour, day) by plural category, {n} the
    # count, as Intl.RelativeTimeFormat says it (waits.py).
    waits: Mapping[str, Mapping[str, str]]
    # A server's popularity on the status page, by its rank (jobs/status_snapshot.py).
    popularity: Mapping[Rank, str]


class MissingCatalogue(LookupError):
    """A listed language has no catalogue (or one without its ``CATALOGUE``)."""


def load_catalogue(language: str) -> Catalogue:
    """The catalogue in ``catalogues/<language>.py`` (its ``CATALOGUE``)."""
    try:
        module = importlib.import_module(f"vpnsite_adapters.texts.catalogues.{language}")
    except ModuleNotFoundError:
        raise MissingCatalogue(
            f"languages.json lists {language!r}, but there is no catalogue "
            f"vpnsite_adapters/texts/catalogues/{language}.py"
        ) from None
    found = getattr(module, "CATALOGUE", None)
    if not isinstance(found, Catalogue):
        raise MissingCatalogue(
            f"vpnsite_adapters/texts/catalogues/{language}.py has no CATALOGUE = Catalogue(...)"
        )
    return found


class Catalogues(Mapping[str, Catalogue]):
    """The listed languages' catalogues, each loaded as it is first asked for."""

    def __init__(self, languages: tuple[str, ...]) -> None:
        self._languages = languages
        self._loaded: dict[str, Catalogue] = {}

    def __getitem__(self, language: str) -> Catalogue:
        if language not in self._languages:
            raise KeyError(language)
        found = self._loaded.get(language)
        if found is None:
            # Two threads asking at once load the same module twice at worst: the import is cached.
            found = self._loaded[language] = load_catalogue(language)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._languages)

    def __len__(self) -> int:
        return len(self._languages)

    def load_all(self) -> None:
        """Every listed language's catalogue, or the error naming the first one missing or
        incomplete: the hub refuses to start on a list it cannot speak whole."""
        for language in self._languages:
            self[language]


CATALOGUES = Catalogues(LANGUAGES)


def catalogue(language: str) -> Catalogue:
    """The language's catalogue; the default language's for one the site does not speak."""
    return CATALOGUES.get(language, CATALOGUES[DEFAULT_LANGUAGE])
