"""Alembic environment: migrates the connection the store hands over in `config.attributes`.

The store runs migrations itself when it opens (see `codebreakers.store.migrate`), inside its own
transaction, so there is no alembic.ini and no URL here.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "codebreakers migrations run through codebreakers.store.migrate, which passes a connection"
    )
context.configure(
    connection=connection,
    # SQLite can't ALTER most things; batch mode rebuilds the table when a migration needs to.
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
