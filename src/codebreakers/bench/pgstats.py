"""PostgreSQL's own cost during the measured window: its processes' CPU and the WAL it wrote.

The capacity model of issue 21 needs a database's CPU per action beside a node's, which the
server's process tree does not include. Sampled like the servers' CPU (psutil, before and after
the window), on the PostgreSQL on this machine that listens on the URL's port (another one
beside it, serving other work, is left out):

- the backends connected to the benchmark's database (their command line names it), and
- the server's own processes (WAL writer, checkpointer, background writer, autovacuum...):
  shared with any other database of the same server, so another client writing elsewhere
  during the window is counted too (`machine_cpu_busy` tells whether anything else ran).
- WAL bytes: `pg_current_wal_lsn()` before and after, for the whole server (same caveat).

Nothing is reported for a database elsewhere (not on 127.0.0.1 or localhost) or not PostgreSQL.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psutil

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", ""}
DEFAULT_PORT = 5432


def local_postgres(db: str | None) -> tuple[str, str] | None:
    """(asyncpg URL, database name) of a PostgreSQL URL on this machine, else None."""
    if not db or not db.startswith(("postgresql", "postgres:")):
        return None
    parts = urlsplit(db)
    if (parts.hostname or "") not in LOCAL_HOSTS:
        return None
    return urlunsplit(parts._replace(scheme="postgresql")), parts.path.lstrip("/")


def _postmasters(port: int) -> list[psutil.Process]:
    """The PostgreSQL server listening on `port` (another PostgreSQL on this machine, serving
    other work, is left out), or every one when none is seen listening on it."""
    found = []
    for proc in psutil.process_iter(["name"]):
        try:
            if proc.info["name"] == "postgres" and proc.parent().name() != "postgres":
                found.append(proc)
        except (psutil.Error, AttributeError):
            continue
    listening = [master for master in found if port in _listening_ports(master)]
    return listening or found


def _listening_ports(proc: psutil.Process) -> set[int]:
    try:
        conns = proc.net_connections(kind="inet")
    except psutil.Error:
        return set()
    return {c.laddr.port for c in conns if c.status == psutil.CONN_LISTEN}


def _ours(cmdline: str, database: str) -> bool:
    """A backend of our database, or one of the server's own processes (no client)."""
    is_client = "(" in cmdline or "[local]" in cmdline  # "postgres: user db 127.0.0.1(port) ..."
    return not is_client or f" {database} " in f"{cmdline} "


@dataclass
class PgSample:
    cpu_by_pid: dict[int, float]
    wal_lsn: str | None


def _cpu(database: str, port: int) -> dict[int, float]:
    seen: dict[int, float] = {}
    for master in _postmasters(port):
        for proc in [master, *master.children()]:
            try:
                cmdline = " ".join(proc.cmdline())
                if proc is master or _ours(cmdline, database):
                    times = proc.cpu_times()
                    seen[proc.pid] = times.user + times.system
            except psutil.Error:
                continue
    return seen


async def _query(url: str, sql: str) -> Any:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(sql)
    finally:
        await conn.close()


def _wal_lsn(url: str) -> str | None:
    try:
        return str(asyncio.run(_query(url, "SELECT pg_current_wal_lsn()::text")))
    except Exception:  # no WAL figure is better than a failed run
        return None


def sample(url: str, database: str) -> PgSample:
    return PgSample(_cpu(database, urlsplit(url).port or DEFAULT_PORT), _wal_lsn(url))


def window_report(
    url: str, before: PgSample, after: PgSample, span_s: float, actions_per_s: float
) -> dict[str, Any]:
    """`postgres`: cores used in the window, per action, and WAL bytes per second and per action."""
    cpu_s = sum(t - before.cpu_by_pid.get(pid, 0.0) for pid, t in after.cpu_by_pid.items())
    cores = cpu_s / max(1e-9, span_s)
    wal: float | None = None
    if before.wal_lsn and after.wal_lsn:
        sql = f"SELECT pg_wal_lsn_diff('{after.wal_lsn}', '{before.wal_lsn}')"
        try:
            wal = float(asyncio.run(_query(url, sql))) / max(1e-9, span_s)
        except Exception:
            wal = None
    return {
        "cpu": round(cores, 3),
        "cpu_ms_per_action": round(cores * 1000 / actions_per_s, 3) if actions_per_s else None,
        "processes": len(after.cpu_by_pid),
        "wal_bytes_per_s": round(wal) if wal is not None else None,
        "wal_bytes_per_action": round(wal / actions_per_s) if wal and actions_per_s else None,
    }
