"""Tables an operator can read in a terminal, or JSON for scripts. Visitors' text is in them (a
ticket's message): each control character is escaped (``log_lines``), as in the logs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from vpnsite_adapters.runtime.log_lines import escape_controls, escape_controls_in_json


def print_table(rows: Sequence[dict[str, Any]], columns: Sequence[str], as_json: bool) -> None:
    if as_json:
        print(json_document(list(rows)))
        return
    if not rows:
        print("(none)")
        return
    cells = [[_cell(row.get(column)) for column in columns] for row in rows]
    widths = [max(len(column), *(len(line[i]) for line in cells)) for i, column in enumerate(columns)]
    print("  ".join(column.upper().ljust(width) for column, width in zip(columns, widths, strict=True)))
    for line in cells:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip())


def json_document(value: Any) -> str:
    """``value`` as indented JSON, its text as written (not ``\\u`` escapes) but for the control
    characters."""
    return escape_controls_in_json(json.dumps(value, ensure_ascii=False, indent=2, default=str))


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    text = escape_controls(str(value).replace("\n", " "))
    return text if len(text) <= 60 else text[:57] + "..."
