"""Request headers that list choices with weights (``Accept-Language``, ``Accept-Encoding``)."""

from __future__ import annotations

from collections.abc import Iterator

# A header is read this far and no further: a long one costs no more than a short one.
MOST_ITEMS = 20


def weighted(header: str | None) -> Iterator[tuple[str, float]]:
    """Each choice named, lower-cased, with its weight (RFC 9110, 12.4.2): 1 when none is given, 0
    when the weight cannot be read; the parameter's name in any case."""
    for item in (header or "").split(",")[:MOST_ITEMS]:
        name, _, parameters = item.partition(";")
        if not name.strip():
            continue
        weight = 1.0
        for parameter in parameters.split(";"):
            key, _, value = parameter.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        yield name.strip().lower(), weight
