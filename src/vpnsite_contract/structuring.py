"""Bodies structured strictly with cattrs, answers unstructured by the same converter.

Wrong types are errors (no "90" for 90, no 1 for "1"); unknown extra fields are ignored; a field's
limits (``constraints``: a string's length, a list's size, a number's range) are checked before a
use case sees the body, and are the ones the OpenAPI document states (``json_schema.py``).
An answer's field marked ``omit_if_none`` is left out of the JSON rather than sent as null.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import attrs
import cattrs
import cattrs.cols
import cattrs.errors
from attrs import define
from cattrs.errors import AttributeValidationNote, ClassValidationError
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn

T = TypeVar("T")

# The JSON Schema keywords ``structure`` enforces, with the kind of error each one reports.
_CHECKED = {
    "maxLength": "too_long",
    "maxItems": "too_many",
    "minimum": "out_of_range",
    "maximum": "out_of_range",
}


def constraints(
    *,
    max_length: int | None = None,
    max_items: int | None = None,
    min_items: int | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    pattern: str | None = None,
    enum: Sequence[object] | None = None,
    format: str | None = None,  # noqa: A002 - JSON Schema's own word
    description: str | None = None,
    items: dict[str, Any] | None = None,
    omit_if_none: bool = False,
) -> dict[str, Any]:
    """A field's metadata: its JSON Schema keywords (``items``: those of each element of a list)
    and, for an answer, whether None is left out. In a request, ``max_length``, ``max_items``,
    ``minimum`` and ``maximum`` are enforced (``min_items``, ``pattern``, ``enum`` and ``format``
    only describe what an answer holds)."""
    keywords = {
        "maxLength": max_length,
        "maxItems": max_items,
        "minItems": min_items,
        "minimum": minimum,
        "maximum": maximum,
        "pattern": pattern,
        "enum": None if enum is None else list(enum),
        "format": format,
        "description": description,
        "items": items,
    }
    return {
        "schema": {key: value for key, value in keywords.items() if value is not None},
        "omit_if_none": omit_if_none,
    }


def capped(limit: int) -> dict[str, Any]:
    """The metadata of a string field refused beyond ``limit`` characters."""
    return constraints(max_length=limit)


def keywords_of(attribute: attrs.Attribute[Any]) -> dict[str, Any]:
    schema: dict[str, Any] = attribute.metadata.get("schema", {})
    return schema


class WrongType(TypeError):
    def __init__(self, expected: str) -> None:
        super().__init__(expected)
        self.expected = expected


class NotText(WrongType):
    """A string holding what no visitor types: NUL, or a lone surrogate."""

    def __init__(self) -> None:
        super().__init__("text")


def _strict_str(value: Any, _type: Any) -> str:
    if not isinstance(value, str):
        raise WrongType("string")
    # JSON can carry a lone surrogate ("\ud800"), which no encoder can write, and NUL, which
    # PostgreSQL refuses in text: neither is text a visitor typed.
    if "\x00" in value or (not value.isprintable() and _has_surrogate(value)):
        raise NotText()
    return value


def _has_surrogate(value: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in value)


def _strict_bool(value: Any, _type: Any) -> bool:
    if not isinstance(value, bool):
        raise WrongType("boolean")
    return value


def _strict_float(value: Any, _type: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise WrongType("number")
    return float(value)


def _strict_int(value: Any, _type: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongType("integer")
    return value


def _strict_list(value: Any, _type: Any) -> Any:
    if not isinstance(value, list):
        raise WrongType("array")
    return value


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(detailed_validation=True)
    converter.register_structure_hook(str, _strict_str)
    converter.register_structure_hook(int, _strict_int)
    converter.register_structure_hook(float, _strict_float)
    converter.register_structure_hook(bool, _strict_bool)

    def objects_only(cls: type) -> Callable[[Any, Any], Any]:
        structure: Callable[[Any, Any], Any] = make_dict_structure_fn(cls, converter)

        def structure_object(value: Any, _type: Any) -> Any:
            if not isinstance(value, dict):
                raise WrongType("object")
            return structure(value, cls)

        return structure_object

    def lists_only(list_type: Any) -> Callable[[Any, Any], Any]:
        structure_list = cattrs.cols.list_structure_factory(list_type, converter)

        def structure_array(value: Any, _type: Any) -> Any:
            return structure_list(_strict_list(value, _type), _type)

        return structure_array

    def without_absent(cls: type) -> Callable[[Any], dict[str, Any]]:
        unstructure: Callable[[Any], dict[str, Any]] = make_dict_unstructure_fn(cls, converter)
        omitted = [a.name for a in attrs.fields(cls) if a.metadata.get("omit_if_none")]
        if not omitted:
            return unstructure

        def unstructure_present(value: Any) -> dict[str, Any]:
            answer = unstructure(value)
            for name in omitted:
                if answer[name] is None:
                    del answer[name]
            return answer

        return unstructure_present

    converter.register_structure_hook_factory(attrs.has, objects_only)
    converter.register_structure_hook_factory(cattrs.cols.is_mutable_sequence, lists_only)
    converter.register_unstructure_hook_factory(attrs.has, without_absent)
    return converter


CONVERTER = _make_converter()


@define
class FieldError:
    loc: tuple[str | int, ...]
    kind: str
    params: dict[str, Any]


class InvalidBody(Exception):
    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__(errors)
        self.errors = errors


def structure(body: Any, cls: type[T]) -> T:
    """The body as ``cls``; raises :class:`InvalidBody` listing every field that is wrong."""
    try:
        value = CONVERTER.structure(body, cls)
    except (ClassValidationError, WrongType) as error:
        raise InvalidBody(list(_field_errors(error, ("body",)))) from None
    beyond = list(_beyond_limits(value, ("body",)))
    if beyond:
        raise InvalidBody(beyond)
    return value


def unstructure(answer: Any) -> Any:
    """An answer (an instance of one of the contract's classes) as JSON-ready data."""
    return CONVERTER.unstructure(answer)


def _beyond_limits(value: Any, loc: tuple[str | int, ...]) -> Iterator[FieldError]:
    for attribute in attrs.fields(type(value)):
        item = getattr(value, attribute.name)
        where = (*loc, attribute.name)
        keywords = keywords_of(attribute)
        yield from _breaches(item, keywords, where)
        if isinstance(item, list):
            for index, element in enumerate(item):
                yield from _breaches(element, keywords.get("items", {}), (*where, index))
                if attrs.has(type(element)):
                    yield from _beyond_limits(element, (*where, index))
        elif attrs.has(type(item)):
            yield from _beyond_limits(item, where)


def _breaches(item: Any, keywords: dict[str, Any], loc: tuple[str | int, ...]) -> Iterator[FieldError]:
    for keyword, kind in _CHECKED.items():
        limit = keywords.get(keyword)
        if limit is not None and _beyond(keyword, item, limit):
            yield FieldError(loc, kind, {"limit": limit})
            return


def _beyond(keyword: str, item: Any, limit: float) -> bool:
    if keyword == "maxLength":
        return isinstance(item, str) and len(item) > limit
    if keyword == "maxItems":
        return isinstance(item, list) and len(item) > limit
    if isinstance(item, bool) or not isinstance(item, int | float):
        return False
    return item < limit if keyword == "minimum" else item > limit


def _field_errors(error: BaseException, loc: tuple[str | int, ...]) -> Iterator[FieldError]:
    if isinstance(error, ClassValidationError):
        for sub in error.exceptions:
            name = next(
                (
                    note.name
                    for note in getattr(sub, "__notes__", [])
                    if isinstance(note, AttributeValidationNote)
                ),
                None,
            )
            yield from _field_errors(sub, loc if name is None else (*loc, name))
    elif isinstance(error, cattrs.errors.IterableValidationError):
        for sub in error.exceptions:
            index = next(
                (
                    note.index
                    for note in getattr(sub, "__notes__", [])
                    if isinstance(note, cattrs.errors.IterableValidationNote)
                ),
                None,
            )
            yield from _field_errors(sub, loc if index is None else (*loc, index))
    elif isinstance(error, KeyError):
        yield FieldError(loc, "missing", {})
    elif isinstance(error, NotText):
        yield FieldError(loc, "invalid_characters", {})
    elif isinstance(error, WrongType):
        yield FieldError(loc, "wrong_type", {"expected": error.expected})
    else:
        yield FieldError(loc, "wrong_type", {"expected": "object"})
