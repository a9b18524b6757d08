"""What each JSON call says of itself for the OpenAPI document (``http/api/openapi.py``): its
body and answer classes and its refusals, declared beside its handler, so a route and its
description cannot drift apart."""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen
from flask import Blueprint
from flask.sansio.scaffold import T_route


@frozen
class Call:
    """One operation: its path, body and answer classes, and the refusals (``Error``) it may give."""

    path: str
    summary: str
    answer: type | None
    body: type | None = None
    errors: tuple[int, ...] = ()
    method: str = "post"
    answered: str = "Success"
    # The node calls: a server's own token, and a refused login's reason (403).
    node: bool = False
    # Served from the status snapshot (at most 2 s old) with an ETag: an unchanged answer is a 304.
    polled: bool = False
    # The GET's optional query parameters (strings).
    query: tuple[str, ...] = ()
    # Under pressure the call asks for a proof of work first: 428 with the challenge to solve.
    challenged: bool = False


# Every call described, in the order their modules declared them: what the document lists.
DESCRIBED: dict[str, Call] = {}


def described(call: Call) -> Call:
    """The call, recorded for the document: declared where its module is read, also when its
    handler is made later (by a factory) or answered before Flask (the polled calls)."""
    if DESCRIBED.setdefault(call.path, call) != call:
        raise ValueError(f"{call.path} is described twice, differently")
    return call


def route(blueprint: Blueprint, call: Call) -> Callable[[T_route], T_route]:
    """``blueprint``'s route for the call, the call described."""
    described(call)
    return blueprint.route(call.path, methods=[call.method.upper()])
