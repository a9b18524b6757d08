"""One record, one line: control characters in a message — a path or header a client chose —
are escaped, so nobody can write a line of their own into the log. Operators who feed a log
pipeline choose JSON (``VPNSITE_LOG_FORMAT=json``): one object a line, with the request id of
the request the record was written for."""

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


def escape_controls(text: str) -> str:
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


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
