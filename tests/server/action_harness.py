"""Bench tables played on the app in this process, to count what one action costs the server.

The tables are the load generator's (`codebreakers.bench.decrypto_table`: join, start, transmit,
propose, lock, keywords, review, chat, rematch), but each socket is the app itself driven with
ASGI messages on this event loop: real frames through `ws.endpoint`, the hubs, the store
(SQLite, its worker threads) and the in-process bus, without uvicorn or a network. So garbage
left in reference cycles, and CPU, can be pinned on the server's per-action path.

    .venv/bin/python tests/server/action_harness.py gc [--actions N]
    .venv/bin/python tests/server/action_harness.py cpu [--actions N] [--profile FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import httpx

from codebreakers.bench.decrypto_table import SETUP_TIMEOUT_S, DecryptoTable, _encode
from codebreakers.bench.sockets import Shared
from codebreakers.bench.stats import Stats
from codebreakers.bots.registry import GAMES as BOT_GAMES
from codebreakers.bots.registry import make_bot
from codebreakers.bus import open_bus
from codebreakers.games.registry import RULES_BY_NAME
from codebreakers.server.app import create_app
from codebreakers.server.ops import ipguard
from codebreakers.server.ops.config import Ports, ServerConfig
from codebreakers.store import open_store

SEATS = 6
ACTION_TIMEOUT_S = 30.0
App = Callable[..., Coroutine[Any, Any, None]]


class AsgiSocket:
    """The face of the bench's PlayerSocket (`send`, `close`) on the app's /ws route."""

    def __init__(self, app: App, on_frame: Callable[[str], None]) -> None:
        self._inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._inbox.put_nowait({"type": "websocket.connect"})
        self._on_frame = on_frame
        scope = {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "scheme": "ws",
            "path": "/ws",
            "raw_path": b"/ws",
            "root_path": "",
            "query_string": b"",
            "headers": [(b"host", b"harness")],
            "client": ("127.0.0.1", 1),
            "server": ("harness", 80),
            "subprotocols": [],
        }
        self.task = asyncio.get_running_loop().create_task(app(scope, self._inbox.get, self._send))

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send":
            self._on_frame(message["text"])

    def send(self, text: str) -> None:
        self._inbox.put_nowait({"type": "websocket.receive", "text": text})

    def close(self) -> None:
        self._inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})


class InProcessTable(DecryptoTable):
    """A bench table whose room is made through the app's HTTP route and whose sockets are
    `AsgiSocket`s."""

    def __init__(self, app: App, shared: Shared, number: int) -> None:
        super().__init__(shared, number, SEATS)
        self.app = app

    async def open(self, player_index: int) -> None:
        transport = httpx.ASGITransport(app=self.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://harness") as http:
            answer = await http.post("/api/rooms", json={"game": "decrypto", "options": {}})
        answer.raise_for_status()
        self.room = answer.json()["code"]
        for seat in range(self.seats):
            await self._join(seat, "")
        await self._request(0, {"type": "start"}, "start", SETUP_TIMEOUT_S, record=False)

    async def _open(self, seat: int, url: str) -> Any:
        return AsgiSocket(self.app, lambda f: self._on_frame(seat, f))  # a PlayerSocket's face

    async def detours(self) -> None:
        """What else players do: frames the server refuses, a spectator looking in and leaving."""
        action = {"type": "act", "id": self._next_id(1), "action": {"type": "fly"}}
        self.sockets[1].send(_encode(action).decode())
        self.sockets[2].send('{"type": "teleport"}')
        spectator = AsgiSocket(self.app, lambda frame: None)
        spectator.send(_encode({"type": "hello", "room": self.room}).decode())
        spectator.close()
        await spectator.task


@dataclass
class Run:
    """What the measured stretch did: actions, CPU (the loop's thread, and the whole process)."""

    actions: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    loop_cpu_s: float = 0.0
    process_cpu_s: float = 0.0
    garbage: list[Any] = field(default_factory=list)


Hook = Callable[[], None]


async def play(
    db: Path,
    tables: int,
    actions: int,
    warmup: int,
    before: Hook,
    after: Hook,
    detours: bool = False,
) -> Run:
    """Seat `tables` tables of six, play `warmup` actions each, then `actions` in all (every
    table in turn, one action in flight per table) between `before()` and `after()`; with
    `detours`, each table's every action comes with `InProcessTable.detours`."""
    ports = Ports(
        store=open_store(f"sqlite:///{db}"),
        bus=open_bus(None),
        rules=RULES_BY_NAME,
        make_bot=make_bot,  # as serve has them: every change asks whether bots must move
        bot_games=frozenset(BOT_GAMES),
    )
    # No frame limits: the tables act as fast as the server answers, all from one address.
    config = ServerConfig(
        bot_delay_s=0.0,
        frame_burst=1e9,
        frames_per_s=1e9,
        player_frame_burst=1e9,
        player_frames_per_s=1e9,
        per_ip=ipguard.OFF,
    )
    app = create_app(ports, config)
    node = app.state.node
    await node.start()
    stats = Stats()
    shared = Shared([], stats)
    all_tables = [InProcessTable(app, shared, n) for n in range(tables)]
    try:
        for i, table in enumerate(all_tables):
            await table.open(i * SEATS)
        for _ in range(warmup):
            await asyncio.gather(*(t.act(ACTION_TIMEOUT_S) for t in all_tables))
        await asyncio.sleep(0.05)  # the bus delivers the last notices
        run = Run()
        stats.start()
        before()
        cpu0, proc0 = time.thread_time(), time.process_time()
        rounds = -(-actions // tables)
        for _ in range(rounds):
            moves = [t.act(ACTION_TIMEOUT_S) for t in all_tables]
            if detours:
                moves += [t.detours() for t in all_tables]
            await asyncio.gather(*moves)
        await asyncio.sleep(0)
        run.loop_cpu_s = time.thread_time() - cpu0
        run.process_cpu_s = time.process_time() - proc0
        stats.stop()
        after()
        run.actions = stats.actions
        run.kinds = {kind: len(times) for kind, times in stats.latency_by_kind.items()}
        run.errors = dict(stats.errors)
        return run
    finally:
        for table in all_tables:
            table.close()
        await asyncio.gather(*(s.task for t in all_tables for s in t.sockets))  # type: ignore[attr-defined]
        node.say_goodbye()
        await node.close()


def cyclic_garbage(
    tables: int = 4,
    actions: int = 200,
    warmup: int = 10,
    db_dir: Path | None = None,
    detours: bool = False,
) -> Run:
    """Play with the collector off, then collect what the stretch left in cycles (kept in
    `run.garbage` for the caller to look at; they are alive until it drops the Run)."""
    garbage: list[Any] = []

    def before() -> None:
        gc.collect()
        gc.disable()

    def after() -> None:
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            garbage.extend(gc.garbage)
            gc.garbage.clear()
        finally:
            gc.set_debug(0)

    enabled = gc.isenabled()
    try:
        with TemporaryDirectory(dir=db_dir) as tmp:
            db = Path(tmp) / "h.db"
            run = asyncio.run(play(db, tables, actions, warmup, before, after, detours))
    finally:
        if enabled:
            gc.enable()
    run.garbage = garbage
    return run


def describe(obj: Any) -> str:
    """A garbage object's type, with where it comes from when the type alone says little."""
    kind = type(obj).__name__
    if kind == "frame":
        return f"frame {obj.f_code.co_qualname} ({_short(obj.f_code.co_filename)})"
    if kind == "function":
        return f"function {obj.__qualname__} ({obj.__module__})"
    if kind == "method":
        return f"method {obj.__func__.__qualname__}"
    if kind == "coroutine":
        return f"coroutine {obj.__qualname__}"
    if kind == "cell":
        try:
            return f"cell of {type(obj.cell_contents).__name__}"
        except ValueError:
            return "cell (empty)"
    if kind == "traceback":
        return f"traceback {obj.tb_frame.f_code.co_qualname}"
    if isinstance(obj, BaseException):
        return f"exception {kind}"
    return f"{type(obj).__module__}.{kind}"


def _short(path: str) -> str:
    parts = Path(path).parts
    return "/".join(parts[-3:])


def report(run: Run, top: int = 40) -> str:
    per = max(run.actions, 1)
    counts = Counter(describe(o) for o in run.garbage)
    lines = [
        f"actions {run.actions} {run.kinds}, errors {run.errors}",
        f"cyclic garbage: {len(run.garbage)} objects, {len(run.garbage) / per:.1f} per action",
    ]
    lines += [f"{n / per:8.2f}/action  {what}" for what, n in counts.most_common(top)]
    return "\n".join(lines)


def cpu(tables: int, actions: int, warmup: int, profile: str | None) -> Run:
    """Loop-thread and process CPU per action, gc as serve sets it; cProfile when asked."""
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
    gc.set_threshold(200_000, 50, 1_000)

    def before() -> None:
        gc.collect()
        if profiler is not None:
            profiler.enable()

    def after() -> None:
        if profiler is not None:
            profiler.disable()

    with TemporaryDirectory() as tmp:
        run = asyncio.run(play(Path(tmp) / "h.db", tables, actions, warmup, before, after))
    if profiler is not None and profile:
        profiler.dump_stats(profile)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=("gc", "cpu"))
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=2_000)
    parser.add_argument("--warmup", type=int, default=20, help="actions per table before")
    parser.add_argument("--profile", help="cpu: write cProfile stats to this file")
    parser.add_argument("--detours", action="store_true", help="gc: refusals and spectators too")
    args = parser.parse_args()
    if args.mode == "gc":
        print(report(cyclic_garbage(args.tables, args.actions, args.warmup, None, args.detours)))
        return
    run = cpu(args.tables, args.actions, args.warmup, args.profile)
    per = max(run.actions, 1)
    print(
        f"actions {run.actions}, errors {run.errors}: loop thread "
        f"{run.loop_cpu_s / per * 1e3:.3f} ms/action, process {run.process_cpu_s / per * 1e3:.3f}"
        " ms/action"
    )


if __name__ == "__main__":
    main()
