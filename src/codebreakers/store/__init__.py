"""The game log: `open_store(url)` picks SQLite (the default, in the user's data directory) or
PostgreSQL, each behind the ports of `base.py` (`GameLog`, `Rooms`, `Chat`; `Store` is all three
with `open`/`close`)."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir

from codebreakers.store import dialects
from codebreakers.store.base import Chat, GameLog, Rooms, Store, StoreBusy
from codebreakers.store.ratings import schema as ratings_schema  # its tables join schema.metadata

DB_FILENAME = "codebreakers.db"


def default_url() -> str:
    """sqlite:/// in the per-user data directory (created by the store on first start)."""
    return f"sqlite:///{Path(user_data_dir('codebreakers')) / DB_FILENAME}"


def open_store(url: str | None) -> Store:
    """A store for `url` (None: the default SQLite file); call `await store.open()` next."""
    return dialects.adapter(url or default_url())


del ratings_schema

__all__ = ["Chat", "GameLog", "Rooms", "Store", "StoreBusy", "default_url", "open_store"]
