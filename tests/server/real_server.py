"""A real `codebreakers serve` subprocess on a free port, with a TestClient-like face for tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

RECV_TIMEOUT_S = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Socket:
    """The part of Starlette's test WebSocket that `server_harness.Client` uses."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._opener: Any = None
        self._ws: ClientConnection | None = None

    def __enter__(self) -> _Socket:
        self._opener = connect(self._url, proxy=None, compression=None)
        self._ws = self._opener.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._opener is not None:
            self._opener.__exit__(None, None, None)

    def send_text(self, text: str) -> None:
        assert self._ws is not None
        self._ws.send(text)

    def send_bytes(self, data: bytes) -> None:
        assert self._ws is not None
        self._ws.send(data)

    def receive_text(self) -> str:
        assert self._ws is not None
        got = self._ws.recv(timeout=RECV_TIMEOUT_S)
        return got if isinstance(got, str) else got.decode()


class RealServer:
    """Runs `codebreakers serve` on a SQLite file (or a database URL, with more options such as
    `--redis`); `kill()` is SIGKILL, `start()` starts anew."""

    def __init__(self, db: Path | str, log: Path, args: tuple[str, ...] = ()) -> None:
        self.db = db
        self.log = log
        self.args = args
        self.port = 0
        self.metrics_port = 0  # GET /metrics listens here, apart from the game's port
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return self.db if isinstance(self.db, str) else f"sqlite:///{self.db}"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.port, self.metrics_port = free_port(), free_port()
        env = {
            **os.environ,
            "CODEBREAKERS_PORT": str(self.port),
            "CODEBREAKERS_METRICS_PORT": str(self.metrics_port),
        }
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "codebreakers.cli", "serve", "--db", self.url, *self.args],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 90  # generous: a loaded CI machine imports slowly
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    # The TestClient methods the tests use.

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return httpx.post(self.base + path, timeout=10, **kwargs)

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return httpx.get(self.base + path, timeout=10, **kwargs)

    def websocket_connect(self, path: str) -> _Socket:
        return _Socket(f"ws://127.0.0.1:{self.port}{path}")
