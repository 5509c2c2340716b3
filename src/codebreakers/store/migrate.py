"""Run the packaged Alembic migrations from code: the store upgrades its schema when it opens.

No alembic.ini is needed at run time; the Config is built here and points at the `migrations`
folder next to this file (shipped as package data). Tests and the docs' "add a migration" recipe
use `alembic_config()` too, so there is one place that knows where the scripts live. The runner's
`schema_change` provides the transaction (and the cross-node lock, and on SQLite the deferred
foreign-key check).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection

MIGRATIONS = Path(__file__).with_name("migrations")


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
    """Bring the schema to `revision` inside the caller's transaction."""
    command.upgrade(alembic_config(connection), revision)


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at (None for an empty database)."""
    return MigrationContext.configure(connection).get_current_revision()
