"""`codebreakers serve` as a subprocess on a free port with its own SQLite file, restartable on
the same port and database (the reconnection test stops it under the players' feet)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

# Start-up imports the bots (numpy, word lists): seconds alone, far longer on a loaded machine.
STARTUP_S = 90


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cli = Path(sys.executable).with_name("codebreakers")
        cmd = [str(cli), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        cmd += ["--db", f"sqlite:///{self.folder / 'e2e.db'}", "--log-level", "warning"]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        self._wait_healthy()

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + STARTUP_S
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"the server exited early:\n{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the server did not answer /healthz:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None
