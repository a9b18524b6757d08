"""The markers the build leaves in the website's pages (``__SLOT_NAME__``) and their filling.

A marker's value is text, HTML-escaped as it goes in; a ``__SLOT_RAW_NAME__`` marker takes markup
the server has put together from the build's own pieces (``fill_raw``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", '"': "&quot;"})
# A name is words joined by single underscores, so two markers side by side stay two.
_NAME = rb"([A-Z0-9]+(?:_[A-Z0-9]+)*)__"
_SLOT = re.compile(rb"__SLOT_(?!RAW_)" + _NAME)
_RAW = re.compile(rb"__SLOT_RAW_" + _NAME)


def escape(text: str) -> str:
    """Text made safe for an element's content or a double-quoted attribute, escaped as the build's
    renderer escapes it (so a filled page reads as the script would draw it)."""
    return text.translate(_ESCAPES)


def fill(body: bytes, values: Mapping[str, str]) -> bytes:
    """``body`` with each text marker replaced by its value, escaped; a marker without a value is
    a bug (a visitor would see it), so it raises ``KeyError``."""

    def value(match: re.Match[bytes]) -> bytes:
        return escape(values[match.group(1).decode()]).encode()

    return _SLOT.sub(value, body)


def fill_raw(body: bytes, values: Mapping[str, bytes]) -> bytes:
    return _RAW.sub(lambda match: values[match.group(1).decode()], body)
