"""`python -m codebreakers.bench.notice_cost` end to end at toy size, on a Redis of its own (its
notices would otherwise reach every node of whatever else uses the machine's Redis). Shapes and
counts only: the figures are measured by the command (docs/deployment.md, "Capacity")."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[str]:
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(binary).exists():
        pytest.skip("redis-server is not installed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    with (tmp_path / "redis.log").open("wb") as log:
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.kill()
        proc.wait(10)


@pytest.mark.slow  # a node starts, then two windows of 2 s
def test_every_notice_reaches_every_stand_in_and_is_priced(private_redis: str) -> None:
    cmd = [sys.executable, "-m", "codebreakers.bench.notice_cost", "--redis", private_redis]
    cmd += ["--rate", "100", "--seconds", "2", "--subscribers", "2", "--payload-bytes", "300"]
    done = subprocess.run([*cmd, "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    sent = report["notices_sent"]
    assert sent > 100  # about 2 s at 100 a second
    assert report["stand_ins_received"] == [sent, sent]
    assert report["payload_bytes"] == 300
    bus = report["redis"]
    assert bus["subscribers"] == 3  # the node and the two stand-ins
    assert bus["publishes_per_s"] > 0 and bus["cpu"] >= 0
    # each notice went out to three subscribers, padded to over 300 bytes
    assert bus["output_bytes_per_s"] > 3 * 300 * bus["publishes_per_s"] * 0.9
    assert report["node_cpu_publishing"] >= 0 and "node_cpu_us_per_notice" in report
