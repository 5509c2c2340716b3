"""Alembic migrations, shipped inside the package and run by the store when it opens."""
