"""peewee's raw SQL calls, typed: its stubs leave ``Database.execute_sql`` and ``Database.cursor``
unannotated, so a test calls them through here (what they return is the driver's cursor)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import peewee


def execute_sql(db: peewee.Database, sql: str, params: Sequence[Any] | None = None) -> Any:
    return db.execute_sql(sql, params)  # type: ignore[no-untyped-call]


def cursor(db: peewee.Database) -> Any:
    return db.cursor()  # type: ignore[no-untyped-call]
