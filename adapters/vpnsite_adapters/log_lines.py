"""One record, one line: control characters in a message — a path or header a client chose —
are escaped, so nobody can write a line of their own into the log."""

from __future__ import annotations

import logging
import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def escape_controls(text: str) -> str:
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


class OneLineFormatter(logging.Formatter):
    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging's name)
        record.message = escape_controls(record.message)
        return super().formatMessage(record)


def configure_logging(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(OneLineFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])
    # waitress warns on every request that waits for a free thread: under a burst that is thousands
    # of lines a second, costing the CPU the requests need and burying what operators must see.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
