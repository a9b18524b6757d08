"""The JSON files an operator hands the site (its facts, its testimonials): read with a size bound
and every way they can be unreadable said in one sentence that names the setting and the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_operator_json(path: Path, where: str, error: type[Exception], max_bytes: int) -> Any:
    """The decoded JSON in ``path``; ``error`` raised with ``where`` (the setting and the file)
    when it cannot be read, is larger than ``max_bytes``, is not UTF-8 or is not JSON."""
    try:
        raw = path.read_bytes()
    except OSError as failure:
        raise error(f"{where}: cannot read the file: {failure.strerror or failure}") from None
    if len(raw) > max_bytes:
        raise error(f"{where}: the file is larger than {max_bytes} bytes")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise error(f"{where}: the file is not UTF-8 text") from None
    except json.JSONDecodeError as failure:
        raise error(f"{where}: not JSON: {failure.msg} (line {failure.lineno})") from None
