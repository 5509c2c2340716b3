"""How every connection to the SQLite file is opened and configured (the adapter's and the
SQLAlchemy engine's for migrations alike).

Durability: WAL mode with `synchronous=NORMAL` (the default here) makes a committed transaction
survive a crash or SIGKILL of the process, because the WAL frames are already in the OS; only a
power cut or kernel crash can lose the last commits. `synchronous=FULL` (opt in with
`?synchronous=full` on the URL) also fsyncs the WAL at every commit and survives power loss, at
the cost of one fsync per commit (shared by a batch: `commit.py`).
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

BUSY_TIMEOUT_MS = 10_000
SYNCHRONOUS_MODES = ("normal", "full")
WAL = "journal_mode=WAL"


@dataclass(frozen=True, slots=True)
class SqliteFile:
    """Which file, and how commits reach its disk."""

    path: Path
    synchronous: str = "NORMAL"  # or "FULL"

    @classmethod
    def of(cls, database: str, synchronous: str | None) -> SqliteFile:
        """From a URL's database path and its `?synchronous=` (normal when absent)."""
        mode = (synchronous or "normal").lower()
        if mode not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}, not {synchronous!r}")
        return cls(Path(database).expanduser(), mode.upper())


def connect(
    file: SqliteFile, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS, foreign_keys: bool = True
) -> sqlite3.Connection:
    """A connection with the store's pragmas, in autocommit mode (transactions are begun by
    the caller), usable from any one thread at a time.

    `busy_timeout` makes a reader, or a migration, wait in SQLite for another process's lock;
    the adapter's writer uses 0 and waits on its own (`commit.py`)."""
    db = sqlite3.connect(file.path, isolation_level=None, check_same_thread=False)
    try:
        db.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        _switch_to_wal(db)
        db.execute(f"PRAGMA synchronous={file.synchronous}")
        db.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
    except BaseException:
        db.close()
        raise
    return db


def _switch_to_wal(db: sqlite3.Connection) -> None:
    """`PRAGMA journal_mode=WAL`, waiting its turn: SQLite answers "database is locked" at once,
    without calling the busy handler, while another connection to a new file is switching or
    migrating it (three stores opening one new file at once failed 4 times in 60)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            db.execute(f"PRAGMA {WAL}")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)
