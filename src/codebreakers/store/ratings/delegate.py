"""The `Ratings` port as one query each, written once for both databases.

Each ratings query module (`sqlite.py`, `postgres.py`) holds the same four query functions for
its own driver; the store they belong to runs them in its transactions (`read`, `write`: the
SQLite store in a reader thread or its group committer, the PostgreSQL one on a pooled
connection), so a game's end and its ratings commit together.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any, Protocol

from codebreakers.games.results import GameResults
from codebreakers.store.base import JSON
from codebreakers.store.ratings.base import BoardRow, ProfileRecord


class Runs(Protocol):
    """What the ratings need of a store: its transactions."""

    @property
    def read(self) -> Callable[..., Awaitable[Any]]: ...

    @property
    def write(self) -> Callable[..., Awaitable[Any]]: ...


class QueryRatings:
    """`Ratings` as `store.read`/`store.write` of the database's ratings queries."""

    def __init__(self, store: Runs, queries: ModuleType) -> None:
        self._store = store
        self._queries = queries

    async def finish_game(
        self, game_id: str, outcome: JSON, results: GameResults | None, rated: bool, now: float
    ) -> bool:
        settled: bool = await self._store.write(
            self._queries.finish_game, game_id, outcome, results, rated, now
        )
        return settled

    async def leaderboard(self, game: str, offset: int, limit: int) -> list[BoardRow]:
        rows: list[BoardRow] = await self._store.read(
            self._queries.leaderboard, game, offset, limit
        )
        return rows

    async def ratings_of(self, profile_ids: list[str], game: str) -> dict[str, float]:
        found: dict[str, float] = await self._store.read(
            self._queries.ratings_of, profile_ids, game
        )
        return found

    async def profile_record(self, profile_id: str) -> ProfileRecord | None:
        record: ProfileRecord | None = await self._store.read(
            self._queries.profile_record, profile_id
        )
        return record
