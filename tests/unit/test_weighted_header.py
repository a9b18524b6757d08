"""Accept-Language and Accept-Encoding read by one parser: each choice with its weight, in order,
the first twenty only; the language and the encoding picked from them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vpnsite_adapters.http.api.polling import accepts_gzip
from vpnsite_adapters.http.languages import pick_language
from vpnsite_adapters.http.weighted_header import MOST_ITEMS, weighted
from vpnsite_adapters.texts.languages import LANGUAGES

names = st.from_regex(r"[A-Za-z][A-Za-z0-9-]{0,10}", fullmatch=True)
weights = st.one_of(st.none(), st.sampled_from(["0", "0.001", "0.5", "0.9", "1", "1.0"]))
choices = st.lists(st.tuples(names, weights, st.sampled_from(["q", "Q"])), max_size=30)


def header_of(items: list[tuple[str, str | None, str]]) -> str:
    return ", ".join(name if q is None else f"{name};{key}={q}" for name, q, key in items)


@given(choices)
def test_each_choice_is_read_with_its_weight_in_order_and_no_further_than_twenty(
    items: list[tuple[str, str | None, str]],
) -> None:
    read = list(weighted(header_of(items)))
    assert read == [(name.lower(), 1.0 if q is None else float(q)) for name, q, _ in items[:MOST_ITEMS]]


@given(choices)
def test_the_language_is_the_most_wanted_supported_one_first_listed_on_a_tie(
    items: list[tuple[str, str | None, str]],
) -> None:
    offered = [
        (name.lower().split("-")[0], 1.0 if q is None else float(q)) for name, q, _ in items[:MOST_ITEMS]
    ]
    supported = [(language, q) for language, q in offered if language in LANGUAGES and q > 0]
    best = max((q for _, q in supported), default=None)
    expected = next(language for language, q in supported if q == best) if supported else "en"
    assert pick_language(header_of(items)) == expected


def test_a_weight_that_cannot_be_read_refuses_the_choice() -> None:
    assert list(weighted("gzip;q=lots, br")) == [("gzip", 0.0), ("br", 1.0)]
    assert not accepts_gzip("gzip;q=lots") and accepts_gzip("GZIP;Q=0.5") and not accepts_gzip("*;q=0")
    assert pick_language("fr;Q=0.4, ru;q=0.8") == "ru" and pick_language(None) == "en"
