"""The ratings port for an open store: the adapter of its database."""

from __future__ import annotations

from codebreakers.store.base import Store
from codebreakers.store.ratings.base import Ratings
from codebreakers.store.sqlite import SqliteStore


def ratings_of(store: Store) -> Ratings:
    """The ratings over `store`'s own connections (the same database, the same transactions)."""
    if isinstance(store, SqliteStore):
        from codebreakers.store.ratings.sqlite import SqliteRatings

        return SqliteRatings(store)
    from codebreakers.store.postgres.store import PostgresStore
    from codebreakers.store.ratings.postgres import PostgresRatings  # asyncpg only with PostgreSQL

    if isinstance(store, PostgresStore):
        return PostgresRatings(store)
    raise TypeError(f"no ratings for a {type(store).__name__}")
