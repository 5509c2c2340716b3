"""The optional dependencies (pyproject.toml's extras), and what to say when one is missing.

The package itself holds what `codebreakers serve` needs on one node (SQLite, the in-process
bus, uvicorn). PostgreSQL, Redis, granian, the bench and campaign tools and the build scripts'
word frequencies come with extras, each imported only where it is used; `cli.main` turns the
`ModuleNotFoundError` of one of these into a line naming the extra, and exit status 2.
"""

from __future__ import annotations

import importlib.util
from urllib.parse import urlsplit

# Top-level module -> the extra that installs it.
EXTRAS = {
    "asyncpg": "postgres",
    "redis": "redis",
    "granian": "granian",
    "httpx": "bench",
    "psutil": "bench",
    "wordfreq": "dev",
}


def require(module: str) -> None:
    """Raise ModuleNotFoundError now if `module` is not installed (before a server starts, not
    inside its start-up)."""
    if importlib.util.find_spec(module) is None:
        raise ModuleNotFoundError(f"No module named {module!r}", name=module)


def check_serve(db: str | None, redis: str | None, server: str) -> None:
    """What `codebreakers serve` will import for these options, checked before it starts."""
    if db and urlsplit(db).scheme.partition("+")[0] in ("postgresql", "postgres"):
        require("asyncpg")
    if redis:
        require("redis")
    if server == "granian":
        require("granian")


def missing_extra(error: ModuleNotFoundError) -> str | None:
    """The line to print for an optional dependency that is missing; None for any other module."""
    module = (error.name or "").partition(".")[0]
    extra = EXTRAS.get(module)
    if extra is None:
        return None
    return f"{module} is not installed: install codebreakers[{extra}] (pip install -e '.[{extra}]')"
