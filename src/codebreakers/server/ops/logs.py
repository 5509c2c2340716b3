"""Logs as one JSON object per line, so a node's logs can be collected and searched by field.

The server logs through `structlog` (`get_logger`): a line is an event (`msg`, a fixed text)
with its context as fields (`room`, `game`, `seat`, `player`...), bound where they are known,
never pasted into the text, so "every line about room K7Q2XM" is a query on a field. Other
libraries' lines (uvicorn's access and error lines, the bus and the store, which log through
`logging`) go through the same handler and formatter; their `extra=` fields become fields too.

`CODEBREAKERS_LOG_FORMAT` picks `json` or `text`; unset, a terminal gets text and anything else
(a service manager, a container, a file) gets JSON. A JSON line holds `ts` (UTC, ISO 8601),
`level`, `logger`, `msg`, the fields, and `exc` with the traceback for errors.

Context is bound on loggers the code holds or makes when it logs (`log.bind(room=...)`), not in
context variables: a bot's or timer's task started while a player's message was handled would
inherit that player's seat, and the lines would name the wrong one.

Nothing here should ever see a seat token or an identity secret: the server never passes one to
a logger (tokens are given once in `joined` and stored as hashes), the tests read the logs of
real nodes for the tokens they were given, and a field whose name says token or secret is
written as `[redacted]` in case one ever is.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime
from typing import Any

import structlog
from structlog.stdlib import BoundLogger, ProcessorFormatter
from structlog.typing import EventDict, Processor, WrappedLogger

REDACTED = "[redacted]"
_SECRET_WORDS = ("token", "secret", "password")
# Attributes every LogRecord has; anything else was passed with `extra=` and is a field.
# uvicorn's `color_message` repeats `msg` with terminal colours: not a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "color_message",
}


def get_logger(name: str) -> BoundLogger:
    """The logger for module `name`; bind context with `.bind(room=..., seat=...)`."""
    logger: BoundLogger = structlog.stdlib.get_logger(name)
    return logger


def _extra_fields(_: WrappedLogger, __: str, event: EventDict) -> EventDict:
    """A `logging` record's `extra=` fields, as fields (structlog's own are there already)."""
    record: logging.LogRecord = event["_record"]
    for key, value in vars(record).items():
        if key not in _STANDARD and not key.startswith("_"):
            event.setdefault(key, value)
    return event


def _redact(_: WrappedLogger, __: str, event: EventDict) -> EventDict:
    for key in event:
        if any(word in key.lower() for word in _SECRET_WORDS):
            event[key] = REDACTED
    return event


def _fields(event: EventDict) -> tuple[logging.LogRecord, str, dict[str, Any], str | None]:
    """(record, message, fields, traceback) of one formatted event."""
    record: logging.LogRecord = event.pop("_record")
    event.pop("_from_structlog", None)
    message = str(event.pop("event", ""))
    exc = event.pop("exception", None)
    fields = {k: v for k, v in event.items() if not k.startswith("_")}
    return record, message, fields, exc


def _json_line(_: WrappedLogger, __: str, event: EventDict) -> str:
    record, message, fields, exc = _fields(event)
    entry: dict[str, Any] = {
        "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
        "level": record.levelname.lower(),
        "logger": record.name,
        "msg": message,
        **fields,
    }
    if exc:
        entry["exc"] = exc
    return json.dumps(entry, default=str, ensure_ascii=False)


def _text_line(_: WrappedLogger, __: str, event: EventDict) -> str:
    record, message, fields, exc = _fields(event)
    when = datetime.fromtimestamp(record.created).isoformat(sep=" ", timespec="milliseconds")
    line = f"{when} {record.levelname} {record.name}: {message}"
    if fields:
        line += " " + " ".join(f"{k}={v}" for k, v in fields.items())
    return f"{line}\n{exc}" if exc else line


class JsonFormatter(ProcessorFormatter):
    """Any record (structlog's or `logging`'s) as one JSON object."""

    def __init__(self) -> None:
        super().__init__(processors=_chain(_json_line), foreign_pre_chain=[_extra_fields])


class TextFormatter(ProcessorFormatter):
    """Any record as `time LEVEL logger: msg key=value ...`, for a terminal."""

    def __init__(self) -> None:
        super().__init__(processors=_chain(_text_line), foreign_pre_chain=[_extra_fields])


def _chain(render: Processor) -> list[Processor]:
    return [structlog.processors.format_exc_info, _redact, render]


# structlog hands its events to `logging` (levels, handlers, pytest's capture) and leaves the
# rendering to the handler's formatter above. Set once, when this module is first imported.
structlog.configure(
    processors=[
        structlog.stdlib.filter_by_level,
        structlog.processors.StackInfoRenderer(),
        structlog.processors.format_exc_info,  # now, while the exception is being handled
        ProcessorFormatter.wrap_for_formatter,
    ],
    logger_factory=structlog.stdlib.LoggerFactory(),
    wrapper_class=BoundLogger,
    cache_logger_on_first_use=True,
)


def configure(level: str, fmt: str | None = None) -> None:
    """Send every log line (ours and uvicorn's) to stderr in the chosen format."""
    fmt = (
        fmt
        or os.environ.get("CODEBREAKERS_LOG_FORMAT")
        or ("text" if sys.stderr.isatty() else "json")
    )
    if fmt not in ("json", "text"):
        raise ValueError(f"CODEBREAKERS_LOG_FORMAT is json or text, not {fmt!r}")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


__all__ = ["REDACTED", "BoundLogger", "JsonFormatter", "TextFormatter", "configure", "get_logger"]
