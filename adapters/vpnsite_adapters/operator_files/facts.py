"""What the operator says of itself and stands behind: its founder's experience, who has access to
the servers, what is ready, the roadmap, the investment it asks for and where its source code is.
Read from one file (``VPNSITE_OPERATOR_FACTS``; without it the shipped ``operator_facts.json``,
today's content), checked when the settings are read: a wrong file stops the start with what is
wrong and where.

The file is JSON::

    {"source_code": "https://…" or "/source/…",       the source code the About page links to
     "founder": {"experience_years": 15, "director_since": 2015},
     "amounts": {"micro": {"amount": 10000, "currency": "USD"},
                 "minimum": {"sum": ["apps", "servers"]}, …},
     "platform_costs": [{"label": "Windows", "amount": 10000, "currency": "USD"}, …],
     "languages": {"en": {"founder": "{founder} … {years} … {since}.",
                          "server_access": "…",
                          "ready": ["…", …],
                          "investment": {"notice": "…", "paragraphs": ["… {micro} …"],
                                         "mixed": "{amounts} (… not converted)"},
                          "roadmap": [{"title": "…", "items": ["…"], "cost": "{micro}", "duration": "…"}]},
                   …every language of the website}}

An amount keeps its currency; a ``sum`` adds only amounts of one currency, and a sum of several
currencies is written as each currency's total, joined, in the language's ``mixed`` words (which
say that they are not converted). ``{name}`` in a text is the amount of that name; ``{founder}``,
``{years}`` and ``{since}`` in the founder's sentence are the operator's founder and the figures
above."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from attrs import frozen

from vpnsite_adapters.operator_files.json_files import read_operator_json
from vpnsite_adapters.texts.languages import LANGUAGES

DEFAULT_FILE = Path(__file__).with_name("operator_facts.json")
MAX_FILE_BYTES = 200_000
CURRENCIES = ("USD", "EUR", "GBP")
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_REFERENCE = re.compile(r"\{([a-z][a-z0-9_]*)\}")
_MAX_TEXT = 600
# A path on this site: one slash, then path characters only (never "//host", never a query).
_SITE_PATH = re.compile(r"^/[A-Za-z0-9._~-][A-Za-z0-9._~/-]*$")
_MAX_ITEMS = 20
_FOUNDER_FIELDS = frozenset({"founder", "years", "since"})


class OperatorFactsError(ValueError):
    pass


@frozen
class Money:
    amount: int
    currency: str


@frozen
class Phase:
    title: str
    items: tuple[str, ...]
    cost: str
    duration: str


@frozen
class LanguageFacts:
    founder: str
    server_access: str
    ready: tuple[str, ...]
    notice: str
    paragraphs: tuple[str, ...]
    mixed: str
    roadmap: tuple[Phase, ...]


@frozen
class OperatorFacts:
    source_code: str
    experience_years: int
    director_since: int
    # Each named amount as the amounts it is, one per currency (a sum of two currencies is two).
    amounts: Mapping[str, tuple[Money, ...]]
    platform_costs: tuple[tuple[str, Money], ...]
    by_language: Mapping[str, LanguageFacts]

    def of(self, language: str) -> LanguageFacts:
        return self.by_language[language]

    @property
    def platform_total(self) -> tuple[Money, ...]:
        return _sum([money for _, money in self.platform_costs])

    def text(self, template: str, money: Callable[[Money], str], mixed: str) -> str:
        """A text with each ``{name}`` the amount of that name, in the language's ``money``; a sum
        of several currencies in its ``mixed`` words."""
        return _REFERENCE.sub(lambda found: self.amount(self.amounts[found.group(1)], money, mixed), template)

    @staticmethod
    def amount(amounts: tuple[Money, ...], money: Callable[[Money], str], mixed: str) -> str:
        written = [money(each) for each in amounts]
        return written[0] if len(written) == 1 else mixed.replace("{amounts}", " + ".join(written))


def read_operator_facts(path: Path) -> OperatorFacts:
    """The facts in the file at ``path``; an error that says what is wrong and where."""
    where = f"VPNSITE_OPERATOR_FACTS ({path})"
    data = read_operator_json(path, where, OperatorFactsError, MAX_FILE_BYTES)
    return _facts(data, where)


def default_operator_facts() -> OperatorFacts:
    return read_operator_facts(DEFAULT_FILE)


def _facts(data: Any, where: str) -> OperatorFacts:
    top = _object(data, where, {"source_code", "founder", "amounts", "platform_costs", "languages"})
    founder = _object(top["founder"], f"{where}: founder", {"experience_years", "director_since"})
    years = _whole(founder["experience_years"], f"{where}: founder.experience_years", 0, 80)
    since = _whole(founder["director_since"], f"{where}: founder.director_since", 1900, 2100)
    amounts = _amounts(top["amounts"], f"{where}: amounts")
    costs_given = _list(top["platform_costs"], f"{where}: platform_costs")
    costs = tuple(_cost(item, f"{where}: platform_costs[{n}]") for n, item in enumerate(costs_given))
    languages = _object(top["languages"], f"{where}: languages", set(LANGUAGES))
    by_language = {
        language: _language(languages[language], f"{where}: languages.{language}", set(amounts))
        for language in LANGUAGES
    }
    return OperatorFacts(
        _source_code(top["source_code"], f"{where}: source_code"), years, since, amounts, costs, by_language
    )


def _amounts(data: Any, where: str) -> dict[str, tuple[Money, ...]]:
    if not isinstance(data, dict) or not data:
        raise OperatorFactsError(f"{where}: an object of named amounts")
    found: dict[str, tuple[Money, ...]] = {}
    sums: dict[str, list[str]] = {}
    for name, value in data.items():
        if not _NAME.match(name):
            raise OperatorFactsError(f"{where}: {name!r} is not a name (a-z, 0-9, _)")
        if isinstance(value, dict) and set(value) == {"sum"}:
            parts = _list(value["sum"], f"{where}.{name}.sum")
            if not all(isinstance(part, str) for part in parts):
                raise OperatorFactsError(f"{where}.{name}.sum: a list of the names of amounts")
            sums[name] = parts
        else:
            found[name] = (_money(value, f"{where}.{name}"),)
    for name, parts in sums.items():
        unknown = [part for part in parts if part not in found]
        if unknown:
            raise OperatorFactsError(
                f"{where}.{name}.sum: {', '.join(map(repr, unknown))} is not an amount (a sum adds amounts)"
            )
        found[name] = _sum([money for part in parts for money in found[part]])
    return found


def _sum(moneys: list[Money]) -> tuple[Money, ...]:
    """Each currency's total, in the order the currencies come: never one currency added to another."""
    totals: dict[str, int] = {}
    for money in moneys:
        totals[money.currency] = totals.get(money.currency, 0) + money.amount
    return tuple(Money(amount, currency) for currency, amount in totals.items())


def _money(value: Any, where: str) -> Money:
    item = _object(value, where, {"amount", "currency"})
    amount = item["amount"]
    if isinstance(amount, bool) or not isinstance(amount, int | float) or not 0 <= amount <= 10**12:
        raise OperatorFactsError(f"{where}: amount must be a number from 0, not {amount!r}")
    if Decimal(str(amount)) != Decimal(int(amount)):
        raise OperatorFactsError(f"{where}: amount must be whole, not {amount!r}")
    if item["currency"] not in CURRENCIES:
        raise OperatorFactsError(
            f"{where}: currency must be one of {', '.join(CURRENCIES)}, not {item['currency']!r}"
        )
    return Money(int(amount), item["currency"])


def _cost(value: Any, where: str) -> tuple[str, Money]:
    item = _object(value, where, {"label", "amount", "currency"})
    return _text(item["label"], f"{where}.label"), _money({k: item[k] for k in ("amount", "currency")}, where)


def _language(value: Any, where: str, amounts: set[str]) -> LanguageFacts:
    item = _object(value, where, {"founder", "server_access", "ready", "investment", "roadmap"})
    founder = _text(item["founder"], f"{where}.founder", _FOUNDER_FIELDS)
    ready = tuple(
        _text(text, f"{where}.ready[{n}]") for n, text in enumerate(_list(item["ready"], f"{where}.ready"))
    )
    investment = _object(item["investment"], f"{where}.investment", {"notice", "paragraphs", "mixed"})
    paragraphs = tuple(
        _text(text, f"{where}.investment.paragraphs[{n}]", amounts)
        for n, text in enumerate(_list(investment["paragraphs"], f"{where}.investment.paragraphs"))
    )
    mixed = _text(investment["mixed"], f"{where}.investment.mixed", {"amounts"})
    if "{amounts}" not in mixed:
        raise OperatorFactsError(f"{where}.investment.mixed: must hold {{amounts}}")
    phases = tuple(
        _phase(phase, f"{where}.roadmap[{n}]", amounts)
        for n, phase in enumerate(_list(item["roadmap"], f"{where}.roadmap"))
    )
    return LanguageFacts(
        founder,
        _text(item["server_access"], f"{where}.server_access"),
        ready,
        _text(investment["notice"], f"{where}.investment.notice"),
        paragraphs,
        mixed,
        phases,
    )


def _phase(value: Any, where: str, amounts: set[str]) -> Phase:
    item = _object(value, where, {"title", "items", "cost", "duration"}, optional={"cost"})
    items = tuple(
        _text(text, f"{where}.items[{n}]") for n, text in enumerate(_list(item["items"], f"{where}.items"))
    )
    cost = _text(item.get("cost", ""), f"{where}.cost", amounts, empty=True)
    return Phase(
        _text(item["title"], f"{where}.title"), items, cost, _text(item["duration"], f"{where}.duration")
    )


def _object(value: Any, where: str, fields: set[str], optional: set[str] | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise OperatorFactsError(f"{where}: must be an object with {', '.join(sorted(fields))}")
    unknown = sorted(set(value) - fields)
    if unknown:
        raise OperatorFactsError(f"{where}: unknown field {', '.join(map(repr, unknown))}")
    missing = sorted(fields - set(value) - (optional or set()))
    if missing:
        raise OperatorFactsError(f"{where}: missing {', '.join(missing)}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list) or not value:
        raise OperatorFactsError(f"{where}: must be a list that is not empty")
    if len(value) > _MAX_ITEMS:
        raise OperatorFactsError(f"{where}: at most {_MAX_ITEMS} entries")
    return value


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OperatorFactsError(f"{where}: a whole number from {low} to {high}, not {value!r}")
    return value


def _text(value: Any, where: str, names: set[str] | frozenset[str] = frozenset(), empty: bool = False) -> str:
    if not isinstance(value, str):
        raise OperatorFactsError(f"{where}: must be text")
    text = " ".join(value.split())
    if not text and not empty:
        raise OperatorFactsError(f"{where}: must not be empty")
    if len(text) > _MAX_TEXT:
        raise OperatorFactsError(f"{where}: longer than {_MAX_TEXT} characters")
    if any(unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs", "Cn") for char in text):
        raise OperatorFactsError(f"{where}: holds a control or invisible formatting character")
    unknown = sorted({name for name in _REFERENCE.findall(text) if name not in names})
    if unknown:
        raise OperatorFactsError(f"{where}: {', '.join('{' + name + '}' for name in unknown)} names nothing")
    return text


def _source_code(value: Any, where: str) -> str:
    """An https:// address, or a path on this site (the shipped default: the tarball of the
    source the site was built from, which build_ui.py packs and the site serves)."""
    url = _text(value, where)
    if _SITE_PATH.match(url):
        return url
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.netloc or any(char in url for char in "\"'<>` \\"):
        raise OperatorFactsError(
            f"{where}: must be an https:// address or a path on this site (/…), not {url!r}"
        )
    return url
