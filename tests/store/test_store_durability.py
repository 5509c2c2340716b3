"""An action acknowledged by the SQLite store survives SIGKILL of the process that wrote it."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from codebreakers.store import open_store

pytestmark = pytest.mark.anyio

# The child appends actions as fast as it can and prints each version once append_action returns,
# i.e. once the server would acknowledge it to the player.
WRITER = """
import asyncio, sys
from codebreakers.store import open_store
from codebreakers.store.base import ActionRow, RoomRow

async def main():
    store = open_store(sys.argv[1])
    await store.open()
    await store.create_room(RoomRow("ROOM", "decrypto", {}, 1, True, True, 1.0, 1.0))
    await store.create_game("g1", "ROOM", "decrypto", {"seed": 1}, 1.0)
    version = 0
    while True:
        version += 1
        await store.append_action("g1", ActionRow(version, "white:0", None, {"n": version}, 1.0))
        print(version, flush=True)

asyncio.run(main())
"""


async def test_every_acknowledged_action_survives_sigkill(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'codebreakers.db'}"
    with subprocess.Popen(
        [sys.executable, "-c", WRITER, url], stdout=subprocess.PIPE, text=True
    ) as child:
        assert child.stdout is not None
        acknowledged = 0
        try:
            while acknowledged < 100:
                line = child.stdout.readline()
                assert line, f"the writer stopped early (exit code {child.poll()})"
                acknowledged = int(line)
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        # Lines the child printed before it died were acknowledged too.
        acknowledged = max([acknowledged, *(int(x) for x in child.stdout.read().split())])
    assert child.returncode == -signal.SIGKILL

    store = open_store(url)
    await store.open()
    try:
        game = await store.load_game("g1")
    finally:
        await store.close()
    assert game is not None
    versions = [a.version for a in game.actions]
    assert versions[:acknowledged] == list(range(1, acknowledged + 1))
    # At most the one append in flight when the signal landed went further.
    assert len(versions) in (acknowledged, acknowledged + 1)
