"""Run the packaged Alembic migrations from code: the store upgrades its schema when it opens.

No alembic.ini is needed at run time; the Config is built here and points at the `migrations`
folder next to this file (shipped as package data). Tests and the docs' "add a migration" recipe
use `alembic_config()` too, so there is one place that knows where the scripts live.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection

MIGRATIONS = Path(__file__).with_name("migrations")

# Two nodes starting together against one PostgreSQL must not both create the tables: the first
# takes this transaction-scoped advisory lock, the second waits and then finds the schema current.
_PG_MIGRATION_LOCK = 0x436F6465  # "Code"


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic Config for the packaged scripts, optionally bound to an open connection."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    config.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(connection: Connection, revision: str = "head") -> None:
    """Bring the schema to `revision` inside the caller's transaction (run through run_sync).

    The connection must come from `dialects.create_engine(url, migrating=True)`: on SQLite that
    turns foreign-key enforcement off, because a batch migration rebuilds a table (copy, drop,
    rename) and dropping `rooms` or `games` would fail on the rows that point at them. The keys
    are checked once the migrations are done, before the caller commits.
    """
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_MIGRATION_LOCK})")
    command.upgrade(alembic_config(connection), revision)
    check_foreign_keys(connection)


def check_foreign_keys(connection: Connection) -> None:
    """Raise when a row points at nothing (only SQLite can get there, with enforcement off)."""
    if connection.dialect.name != "sqlite":
        return
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if broken:
        raise RuntimeError(f"migration left rows pointing at nothing: {broken[:5]}")


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at (None for an empty database)."""
    return MigrationContext.configure(connection).get_current_revision()
