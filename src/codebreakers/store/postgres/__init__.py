"""The PostgreSQL adapter (for several nodes): `store.PostgresStore` on asyncpg directly, and
the SQLAlchemy engine that migrations and tools use on the same database
(`engine.PostgresRunner`).

| module | job |
|---|---|
| `queries.py` | every query of the games, rooms and chat, as PostgreSQL SQL on asyncpg |
| `profile_queries.py` | the same for profiles, passkeys and "your games" |
| `challenge_queries.py` | the same for the passkey challenges of ceremonies under way |
| `commit.py` | group commit: appends (room updates) of several games (rooms) in one statement |
| `store.py` | `PostgresStore`: the ports, the connection pool, busy handling, retries |
| `engine.py` | `PostgresRunner`: a SQLAlchemy engine for Alembic and tools |

Nothing is imported here, so that `asyncpg` is loaded only by a node that uses PostgreSQL.
"""
