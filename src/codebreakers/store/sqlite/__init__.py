"""The SQLite adapter (the default database): `SqliteStore`, and the SQLAlchemy engine that
migrations and tools use on the same file (`SqliteRunner`).

| module | job |
|---|---|
| `connect.py` | opening a connection: pragmas, WAL, busy timeout |
| `queries.py` | every query of the games, rooms and chat, as SQLite SQL on a sqlite3 connection |
| `profile_queries.py` | the same for profiles, passkeys and "your games" |
| `challenge_queries.py` | the same for the passkey challenges of ceremonies under way |
| `commit.py` | group commit of the writes, and waiting out another process's lock |
| `store.py` | `SqliteStore`: the ports, reads in threads, writes to the committer, checkpoints |
| `engine.py` | `SqliteRunner`: a SQLAlchemy engine for Alembic and tools |
"""

from codebreakers.store.sqlite.connect import BUSY_TIMEOUT_MS, SqliteFile
from codebreakers.store.sqlite.engine import SqliteRunner
from codebreakers.store.sqlite.store import SqliteStore

__all__ = ["BUSY_TIMEOUT_MS", "SqliteFile", "SqliteRunner", "SqliteStore"]
