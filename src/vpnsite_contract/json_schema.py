"""The JSON Schema (2020-12, as OpenAPI 3.1 uses it) of the contract's classes, read off the classes
themselves: their fields' types, their limits (``structuring.constraints``) and their docstrings.

A request's field with a default may be left out; an answer sends every field but those marked
``omit_if_none`` (which it leaves out rather than send null), so an answer's schema requires all
the others. A class nested in another is a ``$ref`` to its own component.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Iterable
from enum import Enum
from typing import Any, Literal, Union, get_args, get_origin

import attrs

from vpnsite_contract.structuring import keywords_of

_SIMPLE = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


class _Components:
    def __init__(self) -> None:
        self.schemas: dict[str, dict[str, Any]] = {}
        # Whether each class was reached as a request (True) or an answer (False).
        self.requests: dict[type, bool] = {}

    def add(self, cls: type, request: bool) -> dict[str, str]:
        name = cls.__name__
        if cls in self.requests:
            if self.requests[cls] != request:
                raise ValueError(f"{name} is both a request and an answer: declare one class for each")
            return ref(name)
        if name in self.schemas:
            raise ValueError(f"two classes are named {name}")
        self.requests[cls] = request
        # Named before its fields are walked, so a class reached again while they are is a reference.
        self.schemas[name] = {}
        self.schemas[name] = self._object(cls, request)
        return ref(name)

    def _object(self, cls: type, request: bool) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        required: list[str] = []
        for attribute in attrs.fields(attrs.resolve_types(cls)):
            omitted = bool(attribute.metadata.get("omit_if_none"))
            if attribute.type is None:
                raise TypeError(f"{cls.__name__}.{attribute.name} has no type")
            kind = _without_none(attribute.type) if omitted else attribute.type
            typed = self.of(kind, request)
            keywords = dict(keywords_of(attribute))
            items = keywords.pop("items", None)
            if items:
                typed = {**typed, "items": {**typed["items"], **items}}
            properties[attribute.name] = {**typed, **keywords}
            optional = attribute.default is not attrs.NOTHING if request else omitted
            if not optional:
                required.append(attribute.name)
        schema: dict[str, Any] = {"type": "object"}
        if cls.__doc__:
            schema["description"] = inspect.cleandoc(cls.__doc__)
        if required:
            schema["required"] = required
        schema["properties"] = properties
        return schema

    def of(self, kind: Any, request: bool) -> dict[str, Any]:
        origin = get_origin(kind)
        if kind in _SIMPLE:
            return {"type": _SIMPLE[kind]}
        if attrs.has(kind):
            return self.add(kind, request)
        if isinstance(kind, type) and issubclass(kind, Enum):
            return {"enum": [member.value for member in kind]}
        if origin is Literal:
            values = list(get_args(kind))
            return {"const": values[0]} if len(values) == 1 else {"enum": values}
        if origin is list:
            (item,) = get_args(kind)
            return {"type": "array", "items": self.of(item, request)}
        if origin is dict:
            key, value = get_args(kind)
            if key is not str:
                raise TypeError(f"a JSON object's keys are strings, not {key!r}")
            return {"type": "object", "additionalProperties": self.of(value, request)}
        if origin in (Union, types.UnionType):
            return self._union([self.of(member, request) for member in get_args(kind)])
        raise TypeError(f"no JSON Schema for {kind!r}")

    @staticmethod
    def _union(members: list[dict[str, Any]]) -> dict[str, Any]:
        """``X | None`` as JSON Schema writes it: a nullable type, a value list with null, or
        one of a reference and null."""
        if all(set(member) == {"type"} for member in members):
            return {"type": [member["type"] for member in members]}
        null = {"type": "null"}
        others = [member for member in members if member != null]
        if len(others) == 1 and len(others) < len(members):
            (other,) = others
            if isinstance(other.get("type"), str):
                return {**other, "type": [other["type"], "null"]}
            if "enum" in other or "const" in other:
                return {"enum": [*other.get("enum", [other.get("const")]), None]}
        return {"oneOf": members}


def _without_none(kind: Any) -> Any:
    members = [member for member in get_args(kind) if member is not type(None)]
    if get_origin(kind) not in (Union, types.UnionType) or len(members) != 1:
        raise TypeError(f"omit_if_none needs an optional type, not {kind!r}")
    return members[0]


def component_schemas(requests: Iterable[type], answers: Iterable[type]) -> dict[str, dict[str, Any]]:
    """The schema of each class named, and of each class they hold, by class name."""
    components = _Components()
    for cls in requests:
        components.add(cls, request=True)
    for cls in answers:
        components.add(cls, request=False)
    return components.schemas


def schema_of(cls: type, request: bool) -> dict[str, Any]:
    """One class's schema, standalone: a reference to it beside the components it needs, as a
    JSON Schema validator resolves ``#/components/schemas/...`` in one document."""
    schemas = component_schemas([cls] if request else [], [] if request else [cls])
    return {**ref(cls.__name__), "components": {"schemas": schemas}}
