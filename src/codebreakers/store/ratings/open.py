"""The ratings port for an open store: the adapter of its database."""

from __future__ import annotations

from codebreakers.store.base import Store
from codebreakers.store.ratings.base import Ratings
from codebreakers.store.ratings.delegate import QueryRatings
from codebreakers.store.sqlite import SqliteStore


def ratings_of(store: Store) -> Ratings:
    """The ratings over `store`'s own connections (the same database, the same transactions)."""
    if isinstance(store, SqliteStore):
        from codebreakers.store.ratings import sqlite

        return QueryRatings(store, sqlite)
    from codebreakers.store.postgres.store import PostgresStore
    from codebreakers.store.ratings import postgres  # asyncpg only with PostgreSQL

    if isinstance(store, PostgresStore):
        return QueryRatings(store, postgres)
    raise TypeError(f"no ratings for a {type(store).__name__}")
