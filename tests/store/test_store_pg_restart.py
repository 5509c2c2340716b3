"""PostgreSQL restarted under load: the store goes on, with no action lost or doubled.

The restart must not disturb the machine's PostgreSQL (other tests run on it), so this test
starts a private one: `initdb` into a temporary directory and `pg_ctl` on a free port (as the
`postgres` user when the tests run as root, since PostgreSQL refuses to run as root). Without the
binaries it is skipped (a failure under CI=true, as for every missing service).

Writers append to several games at once (half of them with client action ids, as the server's
moves carry, half without, as some automatic actions do) and update a room, while the server is
stopped with `pg_ctl restart -m immediate` (no shutdown checkpoint: a crash, as far as the
clients see). A writer that gets an exception sends the same write again, as the server's retry
does (`server/play/retry.py`). Every game must end with exactly its actions 1..N, each once and
in order, and the room at its last version.
"""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from codebreakers.store.base import ActionRow, AppendResult, RoomRow
from codebreakers.store.postgres.store import PostgresStore

pytestmark = [pytest.mark.anyio, pytest.mark.postgres, pytest.mark.slow]

GAMES = 8
ACTIONS = 60


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivatePostgres:
    """A PostgreSQL server of this test's own, in a temporary directory."""

    def __init__(self, bindir: Path, root: Path) -> None:
        self.bindir = bindir
        self.data = root / "data"
        self.port = _free_port()
        self.root = root
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(root, "postgres")

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self.as_user, *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}")

    def init(self) -> None:
        self._run(
            str(self.bindir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"
        )

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root}"
        self._run(
            str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", options, "-l",
            str(self.root / "log"), "-w", "start",
        )  # fmt: skip

    def restart(self) -> None:
        """Stopped at once (no shutdown checkpoint: the clients see a crash), started again."""
        self.stop()
        self.start()

    def stop(self) -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    bindir = _bindir()
    if bindir is None or not (bindir / "initdb").exists():
        why = (
            "PostgreSQL's server binaries (initdb, pg_ctl) are not under /usr/lib/postgresql/*/bin"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(f"{why}; they are required under CI=true")
        pytest.skip(f"{why}: cannot start a private PostgreSQL to restart")
    # Not under pytest's tmp_path: the postgres user must reach the directory.
    root = Path(tempfile.mkdtemp(prefix="codebreakers-pg-"))
    try:
        server = PrivatePostgres(bindir, root)
        server.init()
        server.start()
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)


async def test_a_restart_under_load_loses_and_doubles_nothing(
    private_postgres: PrivatePostgres,
) -> None:
    store = PostgresStore(make_url(private_postgres.url), pool_size=5)
    await store.open()
    await store.create_room(RoomRow("ROOM", "decrypto", {"n": 0}, 1, True, True, 0.0, 0.0))
    games = [f"g{i}" for i in range(GAMES)]
    for game_id in games:
        await store.create_game(game_id, "ROOM", "decrypto", {}, 0.0)
    progress = {"appended": 0, "errors": 0, "after_restart": 0}
    restarted = asyncio.Event()

    async def retrying(write):  # type: ignore[no-untyped-def]
        """The write, sent again after each exception (as the server's retries do); whether an
        exception came first."""
        failed = False
        deadline = time.monotonic() + 60
        while True:
            try:
                return await write(), failed
            except Exception:
                if time.monotonic() > deadline:
                    raise
                failed = True
                progress["errors"] += 1
                await asyncio.sleep(0.05)

    async def play(index: int, game_id: str) -> None:
        for version in range(1, ACTIONS + 1):
            cid = f"c{version}" if index % 2 == 0 else None
            row = ActionRow(version, "white:0", cid, {"n": version}, float(version))
            result, failed = await retrying(lambda row=row: store.append_action(game_id, row))
            if result is AppendResult.DUPLICATE:
                # Sent again after an exception: its first attempt was stored after all.
                assert failed and cid is not None, (game_id, version, result)
            else:
                # Without a client id the store itself recognises its first attempt's row.
                assert result is AppendResult.APPENDED, (game_id, version, result, failed)
            progress["appended"] += 1
            if restarted.is_set():
                progress["after_restart"] += 1
            await asyncio.sleep(0.005)

    async def update_room() -> None:
        for version in range(1, ACTIONS + 1):
            done, failed = await retrying(
                lambda version=version: store.update_room(
                    "ROOM", version, {"n": version}, public=True, waiting=True, now=float(version)
                )
            )
            if not done:  # refused: only when sent again after an exception, and stored
                room = await store.load_room("ROOM")
                assert failed and room is not None, version
                assert (room.version, room.data) == (version + 1, {"n": version})
            await asyncio.sleep(0.005)

    async def restart() -> None:
        while progress["appended"] < GAMES * ACTIONS // 4:
            await asyncio.sleep(0.01)
        await asyncio.to_thread(private_postgres.restart)
        restarted.set()

    try:
        await asyncio.wait_for(
            asyncio.gather(*(play(i, g) for i, g in enumerate(games)), update_room(), restart()),
            timeout=240,
        )
        for game_id in games:
            game = await store.load_game(game_id)
            assert game is not None
            assert [(a.version, a.action) for a in game.actions] == [
                (v, {"n": v}) for v in range(1, ACTIONS + 1)
            ], game_id
        room = await store.load_room("ROOM")
        assert room is not None and (room.version, room.data) == (ACTIONS + 1, {"n": ACTIONS})
    finally:
        await store.close()
    # The restart happened mid-load and the writers met it (calls failed while it was down).
    assert progress["after_restart"] > 0
    assert progress["errors"] > 0
    assert progress["appended"] == GAMES * ACTIONS
