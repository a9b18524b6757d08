"""The wire contract says one thing in two forms: what ``structure`` accepts of a request is what
the JSON Schema generated from the same class accepts (so the OpenAPI document neither promises
more nor less than the hub takes), and a string one character over its cap is refused by both."""

from __future__ import annotations

from typing import Any, get_args, get_origin

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from vpnsite_contract import node_calls, website
from vpnsite_contract.json_schema import schema_of
from vpnsite_contract.structuring import InvalidBody, keywords_of, structure, unstructure

REQUESTS = [
    website.SubmitEmail,
    website.CreateUser,
    website.CheckLicense,
    website.DisconnectDevices,
    website.RenewLicence,
    website.SupportRequest,
    node_calls.HeartbeatBody,
    node_calls.NodeLogin,
    node_calls.NodeSession,
]
CAPPED = [cls for cls in REQUESTS if any("maxLength" in keywords_of(a) for a in attrs.fields(cls))]
# What no visitor types (NUL, lone surrogates) is refused by ``structure`` alone: a schema has no
# word for it, so the bodies drawn here hold text without it.
TEXT = st.characters(exclude_categories=["Cs"], exclude_characters="\x00")
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**7), 10**7),
    st.floats(-1e7, 1e7, allow_nan=False).filter(lambda number: not number.is_integer()),
    st.text(TEXT, max_size=5),
    st.just({}),
    st.just([]),
)


def value_of(kind: Any, keywords: dict[str, Any], junk: bool) -> st.SearchStrategy[Any]:
    """A value of ``kind``: within its limits, or (``junk``) on both sides of them and now and then
    anything at all."""
    args = [arg for arg in get_args(kind) if arg is not type(None)]
    if get_origin(kind) is not None and type(None) in get_args(kind):
        return st.one_of(st.none(), value_of(args[0], keywords, junk))
    chosen: st.SearchStrategy[Any]
    if kind is str:
        cap = keywords.get("maxLength", 8)
        sizes = st.integers(max(0, cap - 1), cap + 1) if junk else st.integers(0, min(cap, 8))
        chosen = sizes.flatmap(lambda size: st.text(TEXT, min_size=size, max_size=size))
    elif kind is bool:
        chosen = st.booleans()
    elif kind in (int, float):
        slack = 2 if junk else 0
        low, high = keywords.get("minimum", -5) - slack, keywords.get("maximum", 5) + slack
        whole = st.integers(int(low), int(high))
        chosen = whole if kind is int else st.one_of(st.floats(low, high, allow_nan=False), whole)
    elif get_origin(kind) is list:
        (item,) = get_args(kind)
        most = keywords.get("maxItems", 3) + (1 if junk else 0)
        chosen = st.lists(value_of(item, keywords.get("items", {}), junk), max_size=min(most, 4))
    elif attrs.has(kind):
        chosen = body_of(kind, junk)
    else:
        raise TypeError(kind)
    return st.one_of(chosen, JUNK) if junk else chosen


def body_of(cls: type, junk: bool) -> st.SearchStrategy[dict[str, Any]]:
    fields = attrs.fields(attrs.resolve_types(cls))
    drawn = {a.name: value_of(a.type, keywords_of(a), junk) for a in fields}
    required = {name: drawn[name] for name in drawn if attrs.fields_dict(cls)[name].default is attrs.NOTHING}
    optional = {name: value for name, value in drawn.items() if name not in required}
    return st.fixed_dictionaries(required, optional=optional)


@st.composite
def nearly_valid(draw: st.DrawFn, cls: type) -> Any:
    """A body within every limit but (most often) one field, drawn on both sides of its limits,
    of another type, or left out; now and then not an object at all."""
    body = draw(body_of(cls, junk=False))
    attribute = draw(st.sampled_from(attrs.fields(attrs.resolve_types(cls))))
    change = draw(st.sampled_from(["none", "value", "value", "value", "drop", "junk"]))
    if change == "value":
        body[attribute.name] = draw(value_of(attribute.type, keywords_of(attribute), junk=True))
    elif change == "drop":
        body.pop(attribute.name, None)
    elif change == "junk":
        return draw(JUNK)
    return body


def accepts(cls: type, body: Any) -> bool:
    try:
        structure(body, cls)
    except InvalidBody:
        return False
    return True


@pytest.mark.parametrize("cls", REQUESTS, ids=lambda cls: cls.__name__)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_schema_accepts_exactly_what_structure_accepts(cls: type, data: st.DataObject) -> None:
    body = data.draw(nearly_valid(cls))
    schema_says = Draft202012Validator(schema_of(cls, request=True)).is_valid(body)
    assert accepts(cls, body) == schema_says, body


@pytest.mark.parametrize("cls", CAPPED, ids=lambda cls: cls.__name__)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_a_string_over_its_cap_is_refused_by_both(cls: type, data: st.DataObject) -> None:
    body = data.draw(body_of(cls, junk=False))
    assert accepts(cls, body), body
    capped = [a for a in attrs.fields(cls) if "maxLength" in keywords_of(a)]
    attribute = data.draw(st.sampled_from(capped))
    limit = keywords_of(attribute)["maxLength"]
    over = {**body, attribute.name: data.draw(st.text(TEXT, min_size=limit + 1, max_size=limit + 1))}
    with pytest.raises(InvalidBody) as refused:
        structure(over, cls)
    assert [(e.loc, e.kind, e.params) for e in refused.value.errors] == [
        (("body", attribute.name), "too_long", {"limit": limit})
    ]
    assert not Draft202012Validator(schema_of(cls, request=True)).is_valid(over)


@given(
    admitted=st.booleans(),
    reason=st.sampled_from([None, "bad_credentials", "ended", "too_many_devices", "rate_limited"]),
    session=st.none() | st.text(TEXT, max_size=8),
    retry_after=st.none() | st.integers(min_value=1, max_value=60),
)
def test_an_answer_leaves_out_what_it_does_not_have_and_reads_back_as_sent(
    admitted: bool, reason: Any, session: str | None, retry_after: int | None
) -> None:
    sent = node_calls.NodeLoginResult(
        admitted=admitted, reason=reason, session=session, retry_after=retry_after
    )
    wire = unstructure(sent)
    assert None not in wire.values()
    assert Draft202012Validator(schema_of(node_calls.NodeLoginResult, request=False)).is_valid(wire)
    assert structure(wire, node_calls.NodeLoginResult) == sent
