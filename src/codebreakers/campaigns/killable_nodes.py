"""Real `codebreakers serve` processes that a campaign can SIGKILL and start again.

A `Cluster` is one or more nodes sharing a database (a SQLite file, or a PostgreSQL database
made for the campaign) and, with several nodes, a Redis bus. Each node keeps its port across
restarts, so a client that reconnects to the same address finds the restarted node.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psutil
from sqlalchemy.engine import make_url

from codebreakers.server.ops import ipguard

START_TIMEOUT_S = 240.0  # this generous on a machine shared with heavy work


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Node:
    """One server process on a fixed port."""

    db: str
    redis: str | None
    log: Path
    public_url: str | None = None
    per_ip_limits: bool = False  # off: every client of a campaign comes from 127.0.0.1
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, wait: bool = True) -> None:
        cli = Path(sys.executable).with_name("codebreakers")
        cmd = [str(cli), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", self.db]
        cmd += ["--log-level", "warning"]
        if self.redis:
            cmd += ["--redis", self.redis]
        if self.public_url:
            cmd += ["--public-url", self.public_url]
        env = {**os.environ, **({} if self.per_ip_limits else ipguard.OFF_ENV)}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        self.starts += 1
        if wait:
            self.wait_healthy()

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"the server exited early:\n{self.tail()}")
            try:
                if httpx.get(f"{self.http}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not answer /healthz:\n{self.tail()}")

    def kill(self) -> None:
        """SIGKILL: no goodbye, no flush, no shutdown hook."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def rss(self) -> int:
        """Resident memory of the node's process, in bytes."""
        assert self.proc is not None
        return int(psutil.Process(self.proc.pid).memory_info().rss)

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


@dataclass
class Cluster:
    nodes: list[Node]
    db: str

    @property
    def ws_urls(self) -> list[str]:
        return [n.ws for n in self.nodes]

    @property
    def http(self) -> str:
        return self.nodes[0].http

    def errors_logged(self) -> list[str]:
        """Tracebacks in the nodes' logs (a campaign that finds one has found a bug)."""
        found = []
        for node in self.nodes:
            text = node.log.read_text(errors="replace") if node.log.exists() else ""
            found += [part[:2000] for part in text.split("Traceback (most recent")[1:]]
        return found


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def admin_sql(url: str, sql: str) -> None:
    """Run one statement from a thread of its own (callers may be inside an event loop)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _admin(url, sql)).result()


@contextmanager
def postgres_database(server_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database on `server_url`'s server, dropped afterwards."""
    name = f"cb_campaign_{uuid.uuid4().hex[:12]}"
    admin_sql(server_url, f'CREATE DATABASE "{name}"')
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        admin_sql(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def cluster(
    db: str | None = None,
    redis: str | None = None,
    nodes: int = 1,
    folder: Path | None = None,
    public_url: str | None = None,
    per_ip_limits: bool = False,
) -> Iterator[Cluster]:
    """`nodes` servers on `db` (a fresh SQLite file by default; a PostgreSQL server URL gets a
    database of its own), stopped (and the database dropped) on exit."""
    with tempfile.TemporaryDirectory(prefix="cb-campaign-") as tmp:
        where = folder or Path(os.environ.get("CODEBREAKERS_CAMPAIGN_LOGS") or tmp)
        where.mkdir(parents=True, exist_ok=True)
        if db is not None and db.startswith(("postgresql", "postgres:")):
            with postgres_database(db) as url:
                yield from _run(url, redis, nodes, where, public_url, per_ip_limits)
        else:
            sqlite = db or f"sqlite:///{where / 'campaign.db'}"
            yield from _run(sqlite, redis, nodes, where, public_url, per_ip_limits)


def _run(
    db: str, redis: str | None, count: int, where: Path, public_url: str | None, limits: bool
) -> Iterator[Cluster]:
    logs = [where / f"node{i}.log" for i in range(count)]
    made = Cluster([Node(db, redis, log, public_url, limits) for log in logs], db)
    try:
        made.nodes[0].start()  # the first one migrates the database
        for node in made.nodes[1:]:
            node.start()
        yield made
    finally:
        for node in made.nodes:
            node.stop()
