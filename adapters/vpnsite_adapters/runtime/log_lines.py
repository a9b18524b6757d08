"""One record, one line: control characters in a message — a path or header a client chose —
are escaped, so nobody can write a line of their own into the log. Operators who feed a log
pipeline choose JSON (``VPNSITE_LOG_FORMAT=json``): one object a line, with the request id of
the request the record was written for. The operator's commands print visitors' text (a ticket)
escaped the same way, so none of it moves, retitles or clears the terminal."""

from __future__ import annotations

import json
import logging
import re
from contextvars import ContextVar
from datetime import UTC, datetime

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
LOG_FORMATS = ("text", "json")

# Set by the HTTP layer for the length of one request, in the thread that handles it.
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)

# What an access-log line adds to a record (``extra=``), in the order a JSON line shows them.
REQUEST_FIELDS = ("method", "route", "status", "duration_ms")


def escape_controls(text: str, keep: str = "") -> str:
    """``text`` with each control character written as ``\\xNN``, but those in ``keep`` (the line
    breaks of a message shown whole)."""
    return _written(text, "\\x{:02x}", keep)


def escape_controls_in_json(text: str) -> str:
    """JSON text with the control characters ``json.dumps`` leaves as they are (DEL, C1 and
    U+2028/9, without ``ensure_ascii``) written as ``\\uXXXX``: they stand only inside its strings,
    so the document holds the same values and nothing a terminal acts on. Its line breaks are its
    indentation's (it writes those of a string as ``\\n``)."""
    return _written(text, "\\u{:04x}", "\n")


def _written(text: str, form: str, keep: str) -> str:
    def escaped(match: re.Match[str]) -> str:
        char = match.group()
        return char if char in keep else form.format(ord(char))

    return _CONTROL.sub(escaped, text)


class OneLineFormatter(logging.Formatter):
    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging's name)
        record.message = escape_controls(record.message)
        return super().formatMessage(record)


class JsonFormatter(logging.Formatter):
    """One JSON object a line. ASCII only: json.dumps then escapes every character a reader could
    take for a line break (U+2028 too), and a traceback is one field of the record's own object."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        identifier = getattr(record, "request_id", None)
        if identifier is not None:
            line["request_id"] = identifier
        for name in REQUEST_FIELDS:
            if hasattr(record, name):
                line[name] = getattr(record, name)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str)


class RequestIdFilter(logging.Filter):
    """Gives every record the id of the request being handled in its thread, if any."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        return True


_handler = logging.StreamHandler()
_handler.addFilter(RequestIdFilter())


def configure_logging(level: int = logging.INFO) -> None:
    """Text until the settings are read (they may say JSON): see :func:`use_log_format`."""
    _handler.setFormatter(OneLineFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[_handler])
    # waitress warns on every request that waits for a free thread: under a burst that is thousands
    # of lines a second, costing the CPU the requests need and burying what operators must see.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)


def use_log_format(name: str) -> None:
    if name == "json":
        _handler.setFormatter(JsonFormatter())
