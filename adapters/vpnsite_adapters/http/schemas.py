"""The bodies of the API calls, structured strictly with cattrs before a use case sees them.

Wrong types are errors (no "90" for 90, no 1 for "1"); unknown extra fields are ignored; every
string has a length cap so no field can carry a megabyte into the domain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import cattrs
from attrs import define, field
from cattrs.errors import AttributeValidationNote, ClassValidationError
from cattrs.gen import make_dict_structure_fn


class WrongType(TypeError):
    def __init__(self, expected: str) -> None:
        super().__init__(expected)
        self.expected = expected


class NotText(WrongType):
    """A string holding what no visitor types: NUL, or a lone surrogate."""

    def __init__(self) -> None:
        super().__init__("text")


def _capped(limit: int) -> dict[str, int]:
    """The metadata of a string field refused beyond ``limit`` characters."""
    return {"max_length": limit}


@define
class Cookies:
    hz_id: str | None = field(default=None, metadata={"max_length": 64})


@define
class SubmitEmail:
    email: str = field(metadata=_capped(320))
    cookies: Cookies | None = None


@define
class CreateUser:
    email: str = field(metadata=_capped(320))
    user_days: int
    subscription: str = field(metadata=_capped(32))
    user_comment: str = field(metadata=_capped(500))
    request_id: str = field(metadata=_capped(64))
    sig: str = field(metadata=_capped(128))
    cookies: Cookies | None = None


@define
class CheckLicense:
    email: str = field(metadata=_capped(320))
    activation_code: str = field(metadata=_capped(64))


@define
class DisconnectDevices:
    """The licence's e-mail and code, and one session to end, or ``all``."""

    email: str = field(metadata=_capped(320))
    activation_code: str = field(metadata=_capped(64))
    session: str | None = field(default=None, metadata={"max_length": 64})
    all: bool = False


@define
class RenewLicence:
    """Either the one-time link of a reminder e-mail, or the e-mail and activation code."""

    token: str | None = field(default=None, metadata={"max_length": 64})
    email: str | None = field(default=None, metadata={"max_length": 320})
    activation_code: str | None = field(default=None, metadata={"max_length": 64})


@define
class HeldConnection:
    session: str = field(metadata=_capped(64))
    licence: str = field(metadata=_capped(64))
    protocol: str | None = field(default=None, metadata={"max_length": 16})


@define
class HeartbeatBody:
    cpu_load: float
    bandwidth_mbps: float
    sessions: int
    service_up: bool
    # The connections a node holds; a simulated server without them reports only a count.
    connections: list[HeldConnection] | None = None
    # Where its clients' traffic leaves from; absent: the hub keeps what it was told before.
    exit_addresses: list[str] | None = None


@define
class NodeLogin:
    username: str = field(metadata=_capped(320))
    password: str | None = field(default=None, metadata={"max_length": 128})
    # The OpenVPN instance the client came to: "udp" or "tcp".
    protocol: str | None = field(default=None, metadata={"max_length": 16})


@define
class NodeSession:
    session: str = field(metadata=_capped(64))


@define
class SupportRequest:
    email: str = field(metadata=_capped(320))
    message: str = field(metadata=_capped(10_000))
    activation_code: str | None = field(default=None, metadata={"max_length": 64})


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

    converter.register_structure_hook_factory(attrs.has, objects_only)
    return converter


CONVERTER = _make_converter()


@define
class FieldError:
    loc: tuple[str | int, ...]
    kind: str
    params: dict[str, Any]


def structure(body: Any, cls: type[Any]) -> Any:
    """The body as ``cls``; raises :class:`InvalidBody` listing every field that is wrong."""
    try:
        value = CONVERTER.structure(body, cls)
    except (ClassValidationError, WrongType) as error:
        raise InvalidBody(list(_field_errors(error, ("body",)))) from None
    too_long = list(_overlong_fields(value, ("body",)))
    if too_long:
        raise InvalidBody(too_long)
    return value


def _overlong_fields(value: Any, loc: tuple[str | int, ...]) -> Any:
    for attribute in attrs.fields(type(value)):
        item = getattr(value, attribute.name)
        limit = attribute.metadata.get("max_length")
        if limit is not None and isinstance(item, str) and len(item) > limit:
            yield FieldError((*loc, attribute.name), "too_long", {"limit": limit})
        elif attrs.has(type(item)):
            yield from _overlong_fields(item, (*loc, attribute.name))


class InvalidBody(Exception):
    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__(errors)
        self.errors = errors


def _field_errors(error: BaseException, loc: tuple[str | int, ...]) -> Any:
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
    elif isinstance(error, KeyError):
        yield FieldError(loc, "missing", {})
    elif isinstance(error, NotText):
        yield FieldError(loc, "invalid_characters", {})
    elif isinstance(error, WrongType):
        yield FieldError(loc, "wrong_type", {"expected": error.expected})
    else:
        yield FieldError(loc, "wrong_type", {"expected": "object"})
