"""What the multi-node tests share: split tables, the stored log read straight from PostgreSQL,
and the /metrics text as numbers."""

from __future__ import annotations

import asyncio
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from real_server import RealServer, free_port
from server_harness import Client, Table, new_room

SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$")
LABEL = re.compile(r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"')


def sample_key(key: str) -> str:
    """`name{labels}` with its labels in one order: Prometheus labels have none, and
    prometheus-client writes them sorted, whatever order a test names them in."""
    name, brace, labels = key.partition("{")
    return f"{name}{{{','.join(sorted(LABEL.findall(labels)))}}}" if brace else key


class Samples(dict[str, float]):
    """Samples by `name{labels}`, found whatever the order of the labels asked for."""

    def __getitem__(self, key: str) -> float:
        return super().__getitem__(sample_key(key))

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and super().__contains__(sample_key(key))

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        return super().get(sample_key(key), default)


def split_table(nodes: list[RealServer], **options: Any) -> tuple[str, list[Client]]:
    """A started Decrypto game whose four players alternate between the nodes."""
    code = new_room(nodes[0], **options)  # type: ignore[arg-type]
    clients = [Client(nodes[i % len(nodes)], code) for i in range(4)]  # type: ignore[arg-type]
    for client, name in zip(clients, "ABCD", strict=True):
        client.join(name)
    for client in clients:
        while len(client.room["players"]) < 4:
            client.recv()
    host = next(c for c in clients if c.you == c.room["host"])
    host.ok({"type": "start"})
    Table(clients).sync(0)
    return code, clients


def learn_codes(table: Table) -> None:
    """Fill in the codes the encryptors see (after a timeout transmitted for one of them)."""
    for client in table.by_seat.values():
        view = client.view
        assert view is not None
        mine = view["rounds"][-1]["transmissions"][view["you"]["team"]]
        if mine["code"] is not None:
            table.codes[(view["round"], view["you"]["team"])] = mine["code"]


def stored_actions(db: str, game_id: str) -> list[asyncpg.Record]:
    async def read() -> list[asyncpg.Record]:
        conn = await asyncpg.connect(db)
        try:
            return await conn.fetch(
                "SELECT version, seat, client_action_id, action FROM actions"
                " WHERE game_id = $1 ORDER BY version",
                game_id,
            )
        finally:
            await conn.close()

    return asyncio.run(read())


def metrics(node: RealServer) -> Samples:
    """Every sample of the node's /metrics, keyed by name and labels (in any order)."""
    answer = httpx.get(f"http://127.0.0.1:{node.metrics_port}/metrics", timeout=5)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    return parse_metrics(answer.text)


def parse_metrics(text: str) -> Samples:
    samples = Samples()
    for line in text.splitlines():
        if line.startswith("#") or not line:
            continue
        match = SAMPLE.match(line)
        assert match, f"not an exposition line: {line!r}"
        samples[sample_key(match[1] + (match[2] or ""))] = float(match[3])
    return samples


class OwnRedis:
    """A throwaway redis-server (no persistence) that a test may kill and start again."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        args = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        args += ["--appendonly", "no", "--daemonize", "no"]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [binary, *args],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise AssertionError(f"redis-server did not start: {self.log.read_text()[-1000:]}")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)
