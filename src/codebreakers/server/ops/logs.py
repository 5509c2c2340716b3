"""Logs as one JSON object per line, so a node's logs can be collected and searched by field.

`CODEBREAKERS_LOG_FORMAT` picks `json` or `text`; unset, a terminal gets text and anything else
(a service manager, a container, a file) gets JSON. uvicorn's own loggers are sent through the
same root handler, so access and error lines are JSON too.

Nothing here ever sees a seat token: the server never passes one to a logger (tokens are
given once in `joined` and stored as hashes), and the tests read the logs of real nodes for
the tokens they were given.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime
from typing import Any

# Attributes every LogRecord has; anything else was passed with `extra=` and is a field.
# uvicorn's `color_message` repeats `msg` with terminal colours: not a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "color_message",
}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


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
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
