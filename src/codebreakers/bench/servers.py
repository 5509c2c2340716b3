"""Starting the servers under test as child processes, and watching their memory and CPU.

The bench starts its own servers unless given `--url`, so that one command reproduces a figure:
`codebreakers serve` on a free loopback port with a throw-away SQLite database (or the given
PostgreSQL and Redis, one process per node), or the bare broadcast endpoint.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import psutil

from codebreakers.bench import bare as bare_endpoint
from codebreakers.server.ops import ipguard

START_TIMEOUT_S = 120.0  # two nodes migrating a fresh database on a busy machine took over 60 s


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class CpuSample:
    at: float
    user: float
    system: float
    switches: int

    def rates(self, before: CpuSample) -> dict[str, float]:
        """Cores used (user, system, both) and context switches per second since `before`."""
        span = max(1e-9, self.at - before.at)
        user = (self.user - before.user) / span
        system = (self.system - before.system) / span
        return {
            "cores": round(user + system, 3),
            "user": round(user, 3),
            "system": round(system, 3),
            "ctx_switches_per_s": round((self.switches - before.switches) / span),
        }


@dataclass
class ServerSet:
    """The server processes of one run: their URLs, and their whole process trees for sampling."""

    urls: list[str]
    metrics_urls: list[str] = field(default_factory=list)  # each node's own metrics port
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    _seen: dict[int, psutil.Process] = field(default_factory=dict)

    def _tree(self) -> list[psutil.Process]:
        """Every live process of every server (granian runs its workers as children)."""
        found = []
        for proc in self.procs:
            try:
                root = self._seen.setdefault(proc.pid, psutil.Process(proc.pid))
                found.append(root)
                for child in root.children(recursive=True):
                    found.append(self._seen.setdefault(child.pid, child))
            except psutil.NoSuchProcess:
                continue
        return found

    def rss(self) -> int:
        total = 0
        for p in self._tree():
            try:
                total += p.memory_info().rss
            except psutil.NoSuchProcess:
                continue
        return total

    def cpu_sample(self) -> CpuSample:
        """CPU seconds (user, system) and context switches so far, over every server process."""
        user = system = 0.0
        switches = 0
        for p in self._tree():
            try:
                times = p.cpu_times()
                ctx = p.num_ctx_switches()
            except psutil.NoSuchProcess:
                continue
            user += times.user
            system += times.system
            switches += ctx.voluntary + ctx.involuntary
        return CpuSample(time.monotonic(), user, system, switches)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def log_tail(self, lines: int = 20) -> str:
        out = []
        for log in self.logs:
            text = log.read_text(errors="replace").splitlines()[-lines:]
            out.append(f"--- {log.name}\n" + "\n".join(text))
        return "\n".join(out)


def _command(bare: bool, server: str, port: int, metrics_port: int | None) -> list[str]:
    """The bare endpoint (under uvicorn or granian, or on picows), or the game through
    `codebreakers serve` (its /metrics on a port of its own, unless `metrics_port` is None: a
    serve from before that port, whose /metrics is on the game's port)."""
    if bare and server == "picows":  # the same endpoint on picows: no ASGI server under it
        where = ["--host", "127.0.0.1", "--port", str(port)]
        return [sys.executable, "-m", "codebreakers.bench.bare_picows", *where]
    if server == "picows":
        raise ValueError("--server picows runs the bare endpoint only (--bare)")
    at = ["--host", "127.0.0.1", "--port", str(port), "--server", server]
    if bare:
        return [sys.executable, "-m", "codebreakers.bench.asgi", "codebreakers.bench.bare:app", *at]
    cli = [sys.executable, "-m", "codebreakers.cli", "serve", *at, "--log-level", "warning"]
    return cli if metrics_port is None else [*cli, "--metrics-port", str(metrics_port)]


def _has_metrics_port(env: dict[str, str]) -> bool:
    """Whether the serve that `env` imports takes --metrics-port (older commits served /metrics
    on the game's port)."""
    usage = subprocess.run(
        [sys.executable, "-m", "codebreakers.cli", "serve", "--help"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return "--metrics-port" in usage


def start_servers(
    *,
    bare: bool,
    server: str,
    nodes: int,
    db: str | None,
    redis: str | None,
    workdir: Path,
    push_bytes: int | None = None,
    server_src: Path | None = None,
) -> ServerSet:
    """Start `nodes` servers and wait until each answers HTTP (`push_bytes`: the bare
    endpoint's text size, when not its default; `server_src`: the `src` folder of another
    checkout to run the servers from, for example an older commit's, while this checkout's
    load generator drives them)."""
    if db is None and not bare:
        db = f"sqlite:///{workdir / 'bench.db'}"
    ports = [free_port() for _ in range(nodes)]
    metrics_ports = [free_port() for _ in range(nodes)]
    servers = ServerSet(
        urls=[f"http://127.0.0.1:{p}" for p in ports],
        metrics_urls=[f"http://127.0.0.1:{p}" for p in metrics_ports],
    )
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **ipguard.OFF_ENV}  # players share 127.0.0.1
    if db:
        env["CODEBREAKERS_DB"] = db
    if redis:
        env["CODEBREAKERS_REDIS"] = redis
    if push_bytes is not None:
        env[bare_endpoint.SIZE_ENV] = str(push_bytes)
    if server_src is not None:
        env["PYTHONPATH"] = str(server_src.resolve())
        if not bare and not _has_metrics_port(env):
            servers.metrics_urls = list(servers.urls)
    own_metrics = servers.metrics_urls != servers.urls
    for n, (port, metrics_port) in enumerate(zip(ports, metrics_ports, strict=True)):
        log = workdir / f"server-{n}.log"
        servers.logs.append(log)
        with log.open("wb") as out:
            servers.procs.append(
                subprocess.Popen(
                    _command(bare, server, port, metrics_port if own_metrics else None),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=env,
                )
            )
    try:
        for url, proc in zip(servers.urls, servers.procs, strict=True):
            _wait_until_up(url, "/healthz", proc)
    except RuntimeError as exc:
        servers.stop()
        raise RuntimeError(f"{exc}\n{servers.log_tail()}") from None
    return servers


def _wait_until_up(url: str, path: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server at {url} exited with {proc.returncode}")
        try:
            if httpx.get(url + path, timeout=2.0).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"server at {url} did not answer within {START_TIMEOUT_S:.0f} s")


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextmanager
def scratch_postgres(url: str) -> Iterator[str]:
    """A new, empty database on `url`'s PostgreSQL server (the URL pointing at it), dropped
    afterwards."""
    name = f"cb_bench_{uuid.uuid4().hex[:12]}"
    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(scheme="postgresql"))
    asyncio.run(_admin(admin, f'CREATE DATABASE "{name}"'))
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        asyncio.run(_admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def temp_workdir() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="codebreakers-bench-")
