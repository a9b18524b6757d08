"""Tables an operator can read in a terminal, or JSON for scripts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


def print_table(rows: Sequence[dict[str, Any]], columns: Sequence[str], as_json: bool) -> None:
    if as_json:
        print(json.dumps(list(rows), ensure_ascii=False, indent=2, default=str))
        return
    if not rows:
        print("(none)")
        return
    cells = [[_cell(row.get(column)) for column in columns] for row in rows]
    widths = [max(len(column), *(len(line[i]) for line in cells)) for i, column in enumerate(columns)]
    print("  ".join(column.upper().ljust(width) for column, width in zip(columns, widths, strict=True)))
    for line in cells:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip())


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    text = str(value).replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."
