"""`codebreakers serve` says in one plain line on stdout when it is listening and where to go
(`make run` shows it beside the JSON log on stderr)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx

STARTUP_S = 90


def test_serve_prints_one_ready_line_when_listening(tmp_path: Path) -> None:
    cli = Path(sys.executable).with_name("codebreakers")
    cmd = [str(cli), "serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'r.db'}"]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + STARTUP_S
        line = proc.stdout.readline()  # nothing else is printed on stdout before it
        assert time.monotonic() < deadline
        prefix = "Codebreakers is ready: open http://127.0.0.1:"
        assert line.startswith(prefix), line
        url = line.split("open ", 1)[1].strip()
        assert int(url.rsplit(":", 1)[1]) > 0
        assert httpx.get(f"{url}/healthz", timeout=5).json() == {"status": "ok"}
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        if proc.stdout is not None:
            proc.stdout.close()
