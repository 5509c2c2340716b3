"""The ratings' port: what the server asks of the store about results, ratings and boards.

Implemented once by `delegate.QueryRatings` over each database's ratings queries (`sqlite.py`,
`postgres.py`), run on the store's own connections (`open.ratings_of(store)` picks them).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Protocol

from codebreakers.games.results import GameResults

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class BoardRow:
    profile_id: str
    name: str
    rating: float
    games: int


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat a profile played in a finished game (`game_results`)."""

    game_id: str
    seat: str
    profile_id: str
    game: str
    variant: str
    side: str
    result: str
    figures: dict[str, int]
    rated: bool
    rating: float | None
    finished_at: float


# `game_results`' columns in ResultRow's field order, so a selected row builds a ResultRow.
RESULT_COLUMNS = ", ".join(f.name for f in fields(ResultRow))


@dataclass(frozen=True, slots=True)
class RatingRow:
    game: str
    mu: float
    sigma: float
    rating: float
    games: int


@dataclass(frozen=True, slots=True)
class StatsRow:
    """A profile's totals in one game and variant (`profile_stats`): what its games add up to."""

    game: str
    variant: str
    games: int
    wins: int
    draws: int
    losses: int
    figures: dict[str, int]  # each figure summed over the games


# `profile_stats`' columns after profile_id, in StatsRow's field order.
STATS_COLUMNS = ", ".join(f.name for f in fields(StatsRow))

# What a profile page lists: its last games, and in each rating's chart its last rated games.
LAST_GAMES = 20
HISTORY = 50


@dataclass(frozen=True, slots=True)
class ProfileRecord:
    """All a profile page shows, bounded whatever the games played."""

    profile_id: str
    name: str
    created_at: float
    hidden: bool
    results: list[ResultRow]  # the last LAST_GAMES games, newest first
    ratings: list[RatingRow]
    stats: list[StatsRow]  # by game, then variant
    history: list[ResultRow]  # rated games, newest first: the last HISTORY of each game


class Ratings(Protocol):
    async def finish_game(
        self, game_id: str, outcome: JSON, results: GameResults | None, rated: bool, now: float
    ) -> bool:
        """The game's end, in one transaction: the game marked over with its outcome, and, the
        first time only, its results recorded for every seat a profile played and, when
        `rated` and both sides have a rated player, the ratings updated. True when this call
        settled the game; False when it was settled already (or has no results): nothing more
        written. LookupError for an unknown game."""
        ...

    async def leaderboard(self, game: str, offset: int, limit: int) -> list[BoardRow]:
        """Players of `game` with enough rated games, visible profiles only, best first."""
        ...

    async def ratings_of(self, profile_ids: list[str], game: str) -> dict[str, float]:
        """The shown rating of each of these profiles that has one in `game`."""
        ...

    async def profile_record(self, profile_id: str) -> ProfileRecord | None: ...
