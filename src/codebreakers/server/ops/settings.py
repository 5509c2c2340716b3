"""Every setting of `codebreakers serve`, declared once: its name, type, default, help and the
values it takes.

A setting `per_ip_sockets` is the option `--per-ip-sockets` and the environment variable
`CODEBREAKERS_PER_IP_SOCKETS`; the command line wins over the environment, which wins over the
default, and an empty variable counts as unset. `add_arguments` makes the options of
`codebreakers serve` from these declarations, `Settings.from_args` reads them back, and
`markdown_table` writes the table in docs/deployment.md (a test holds the two equal).

A value a setting does not take is a `SettingError` whose text is the one line
`codebreakers serve` prints before it exits with status 2, naming where the value came from:
`CODEBREAKERS_PORT=80O0: expected an integer from 0 to 65535`.

Run `python -m codebreakers.server.ops.settings` for the table.
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Generic, TypeVar
from urllib.parse import urlsplit

from codebreakers.server.ops.ipguard import IpLimits, ip_limits
from codebreakers.server.ops.proxies import NONE, TrustedProxies

PREFIX = "CODEBREAKERS_"
T = TypeVar("T")


class SettingError(Exception):
    """A setting given a value it does not take; the text names the source and what it takes.

    Not a ValueError on purpose: argparse turns a ValueError from an option's type into its own
    usage message, and lets anything else through to `cli.main`, which prints this one line."""


@dataclass(frozen=True, slots=True)
class Kind(Generic[T]):
    """How a setting is read from text (an option, a variable) and written back as text."""

    read: Callable[[str], T]  # ValueError when the text is not one
    expected: str  # what the setting takes, for the error line and the docs
    write: Callable[[T], str]
    metavar: str


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def integer(low: int, high: int | None = None) -> Kind[int]:
    def read(text: str) -> int:
        value = int(text)
        if value < low or (high is not None and value > high):
            raise ValueError(text)
        return value

    expected = f"an integer ≥ {low}" if high is None else f"an integer from {low} to {high}"
    return Kind(read, expected, str, "N")


def number(low: float) -> Kind[float]:
    def read(text: str) -> float:
        value = float(text)
        if not math.isfinite(value) or value < low:
            raise ValueError(text)
        return value

    return Kind(read, f"a number ≥ {_number_text(low)}", _number_text, "X")


def choice(*names: str) -> Kind[str]:
    def read(text: str) -> str:
        name = text.strip().lower()
        if name not in names:
            raise ValueError(text)
        return name

    return Kind(read, "one of " + ", ".join(names), str, "{" + ",".join(names) + "}")


def _text(text: str) -> str:
    if not text.strip():
        raise ValueError(text)
    return text.strip()


def _db_url(text: str) -> str:
    """A URL the store opens (store/dialects.py): a SQLite file or a PostgreSQL database."""
    scheme, _, rest = text.strip().partition("://")
    backend = scheme.partition("+")[0].lower()
    if backend == "sqlite":
        database = rest.partition("?")[0].partition("/")[2]
        if database in ("", ":memory:"):
            raise ValueError(text)  # the store's connections can't share one in memory
    elif backend not in ("postgresql", "postgres") or not rest:
        raise ValueError(text)
    return text.strip()


def _redis_url(text: str) -> str:
    """A URL the bus opens (bus/__init__.py)."""
    if not text.strip().startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(text)
    return text.strip()


def _site_url(text: str) -> str:
    """An http(s) URL with a host: what the WebSocket `Origin` check compares with."""
    parts = urlsplit(text.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(text)
    _ = parts.port  # ValueError for a port that is not a number in range
    return text.strip()


def _proxies_text(proxies: TrustedProxies) -> str:
    return "*" if proxies.everyone else ",".join(str(net) for net in proxies.networks)


def optional(kind: Kind[T]) -> Kind[T | None]:
    """The same values, or none: an empty text."""

    def read(text: str) -> T | None:
        return kind.read(text) if text.strip() else None

    def write(value: T | None) -> str:
        return "" if value is None else kind.write(value)

    return Kind(read, kind.expected, write, kind.metavar)


HOST = Kind(_text, "a host name or an IP address", str, "HOST")
PORT = integer(0, 65535)
SECONDS = number(0.0)
DB_URL = Kind(_db_url, "a sqlite:///path/to/file.db or postgresql://user@host/db URL", str, "URL")
REDIS_URL = Kind(_redis_url, "a redis://, rediss:// or unix:// URL", str, "URL")
SITE_URL = Kind(_site_url, "an http:// or https:// URL with a host", str, "URL")
PROXIES = Kind(
    TrustedProxies.parse,
    "addresses and networks (10.0.0.0/8), comma-separated, or *",
    _proxies_text,
    "IPS",
)

_SPEC = "codebreakers.setting"


@dataclass(frozen=True, slots=True)
class Spec(Generic[T]):
    kind: Kind[T]
    help: str  # Markdown: the docs' table shows it as it is, --help without the backticks
    shown: str | None  # the default as the docs say it (None: its text, in backticks)


def setting(default: T, kind: Kind[T], help: str, *, shown: str | None = None) -> T:
    """A field of `Settings` with what the command line, the environment and the docs need."""
    return field(default=default, metadata={_SPEC: Spec(kind, help, shown)})


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """What `codebreakers serve` is told; `Settings()` is every default."""

    host: str = setting("127.0.0.1", HOST, "address to listen on (`0.0.0.0` to serve a LAN)")
    port: int = setting(8000, PORT, "TCP port (0: any free port)")
    db: str | None = setting(
        None,
        optional(DB_URL),
        "the store: `sqlite:///path.db` or `postgresql://user@host/db`",
        shown="SQLite in the user's data directory (`~/.local/share/codebreakers/codebreakers.db`"
        " on Linux), created and migrated on first start",
    )
    redis: str | None = setting(
        None,
        optional(REDIS_URL),
        "`redis://host:6379/0`: the bus between several nodes",
        shown="in-process bus",
    )
    public_url: str | None = setting(
        None,
        optional(SITE_URL),
        "the site's own URL as players reach it: share links and QR codes use it, and a browser "
        "WebSocket whose `Origin` differs is refused",
        shown="the URL each request came in on",
    )
    log_level: str = setting(
        "info", choice("debug", "info", "warning", "error", "critical"), "how much the logs say"
    )
    log_format: str | None = setting(
        None,
        optional(choice("json", "text")),
        "`json` (one object per line) or `text`",
        shown="`json` when stderr is not a terminal, else `text`",
    )
    server: str = setting(
        "uvicorn",
        choice("uvicorn", "granian"),
        "the ASGI server (`granian`: in one worker process of its own)",
    )
    bot_delay: float = setting(
        1.2, SECONDS, "seconds a bot pauses before each move (a human-like rhythm; 0 for tests)"
    )
    offer_bots_after: float = setting(
        20.0,
        SECONDS,
        "seconds before a quick-join lobby offers its host bots (`docs/quickplay.md`)",
    )
    per_ip_sockets: int = setting(
        64,
        integer(0),
        "WebSockets one client address may hold open; it may also open that many at once, then "
        "4 a second (0: no cap)",
    )
    per_ip_frames_per_s: float = setting(
        60.0,
        number(0.0),
        "frames per second from all of one address's sockets, after a burst of 5 seconds' worth "
        "(0: no limit)",
    )
    per_ip_rooms_per_min: float = setting(
        12.0,
        number(0.0),
        "rooms one address may make a minute over HTTP, after a burst of 20 (0: no limit)",
    )
    metrics_port: int = setting(
        0,
        PORT,
        "serve `GET /metrics` on this port of its own, never on the game's port "
        '(`docs/deployment.md`, "Metrics")',
        shown="`0` (off)",
    )
    metrics_host: str = setting("127.0.0.1", HOST, "the address the metrics port listens on")
    trusted_proxies: TrustedProxies = setting(  # noqa: RUF009 (setting() is a field())
        NONE,
        PROXIES,
        "reverse proxies (`*`: any peer) whose `Forwarded` or `X-Forwarded-For` names the "
        "client's address and whose `proto`/`X-Forwarded-Proto` its scheme "
        "(`server/ops/proxies.py`)",
        shown="none",
    )

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Settings:
        """The settings parsed by the options `add_arguments` made."""
        return cls(**{entry.name: getattr(args, entry.name) for entry in ENTRIES})

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> Settings:
        """The settings the environment sets (the defaults for the rest)."""
        given = {}
        for entry in ENTRIES:
            text = environ.get(entry.env, "")
            if text:
                given[entry.name] = entry.read(entry.env, text)
        return cls(**given)

    def environ(self) -> dict[str, str]:
        """Every setting as its environment variable: `from_environ` reads them back equal."""
        return {entry.env: entry.write(getattr(self, entry.name)) for entry in ENTRIES}

    def ip_limits(self) -> IpLimits:
        return ip_limits(self.per_ip_sockets, self.per_ip_frames_per_s, self.per_ip_rooms_per_min)


@dataclass(frozen=True, slots=True)
class Entry:
    """One setting: its field's name, declaration and default."""

    name: str
    spec: Spec[Any]
    default: Any

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def env(self) -> str:
        return PREFIX + self.name.upper()

    def read(self, source: str, text: str) -> Any:
        """The value of `text`, given by `source` (an option or a variable)."""
        try:
            return self.spec.kind.read(text)
        except ValueError:
            expected = self.spec.kind.expected
            raise SettingError(f"{source}={shlex.quote(text)}: expected {expected}") from None

    def write(self, value: Any) -> str:
        return self.spec.kind.write(value)

    def shown_default(self) -> str:
        """The default, in Markdown."""
        return self.spec.shown or f"`{self.write(self.default)}`"


ENTRIES = tuple(Entry(f.name, f.metadata[_SPEC], f.default) for f in fields(Settings))
DEFAULTS = Settings()


class _Variable(str):
    """An environment variable's text as an option's default. argparse reads a text default
    with the option's type only when the option is not given, so a bad variable that the
    command line overrides is never read; the error line names the variable."""

    variable: str

    def __new__(cls, text: str, variable: str) -> _Variable:
        self = super().__new__(cls, text)
        self.variable = variable
        return self


def _reader(entry: Entry) -> Callable[[str], Any]:
    def read(text: str) -> Any:
        source = text.variable if isinstance(text, _Variable) else entry.option
        return entry.read(source, text)

    return read


def _plain(markdown: str) -> str:
    return markdown.replace("`", "").replace("%", "%%")  # argparse formats help with %


def add_arguments(
    parser: argparse.ArgumentParser, environ: Mapping[str, str] | None = None
) -> None:
    """An option per setting, its default from `environ` (the process's) when set there."""
    environ = os.environ if environ is None else environ
    for entry in ENTRIES:
        text = environ.get(entry.env, "")
        parser.add_argument(
            entry.option,
            type=_reader(entry),
            default=_Variable(text, entry.env) if text else entry.default,
            metavar=entry.spec.kind.metavar,
            help=f"{_plain(entry.spec.help)} [{entry.env}; default: "
            f"{_plain(entry.shown_default())}]",
        )


def markdown_table() -> str:
    """The table of docs/deployment.md, "Settings"."""
    rows = [
        "| option | environment variable | default | takes | meaning |",
        "|---|---|---|---|---|",
    ]
    for entry in ENTRIES:
        cells = [f"`{entry.option}`", f"`{entry.env}`", entry.shown_default()]
        cells += [entry.spec.kind.expected, entry.spec.help]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
