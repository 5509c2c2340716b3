"""A room as this node holds it: its document, its current game's runner, its sockets.

Every change goes the same way, under the room's lock: check, store (version-checked), adopt,
push to this node's sockets, then announce on the bus once the lock is released. A notice from
the bus (another node's change, or this node's own echo) makes the hub read from the store only
what it lacks, so one node and many behave alike and the author of a change reads nothing back.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import msgspec

from codebreakers.bots.base import BotMove
from codebreakers.games.base import SYSTEM_SEAT, Rejection
from codebreakers.server.errors import Refused
from codebreakers.server.ops.config import Ports, ServerConfig
from codebreakers.server.ops.ratelimit import Bucket
from codebreakers.server.play.runner import RETRIES, GameRunner, backoff
from codebreakers.server.rooms import chat, document
from codebreakers.server.rooms.tokens import new_token, token_hash
from codebreakers.server.wire.connection import Connection
from codebreakers.server.wire.messages import (
    Ack,
    ChatLines,
    Error,
    Hello,
    Joined,
    Room,
    View,
    Welcome,
    encode,
)
from codebreakers.store.base import ChatLine, RoomRow

log = logging.getLogger(__name__)

JSON = dict[str, Any]
RoomOp = Callable[[JSON, str], JSON]
# document.start, document.rematch or document.agreed_rematch: (data, actor, game id, action id)
Begin = Callable[[JSON, str, str, str], tuple[JSON, dict[str, list[str]]]]
CHAT_BACKLOG = 500
# Timeouts applied before a late action, at most: one applies every deadline passed at once, the
# next round's start new ones (docs/rules-choices.md), so a few always suffice.
OVERDUE_TIMEOUTS = 4
REMEMBERED_CHAT_IDS = 32


class RoomHub:
    def __init__(self, ports: Ports, config: ServerConfig, row: RoomRow) -> None:
        self.ports = ports
        self.config = config
        self.code = row.code
        self.data = row.data
        self.version = row.version
        self.created_at = row.created_at
        self.rules = ports.rules[row.game]
        self.runner: GameRunner | None = None
        self.chat_seq = 0
        self.conns: dict[str | None, set[Connection]] = {}
        self.lock = asyncio.Lock()
        self._chat_ids: dict[str, OrderedDict[str, None]] = {}
        self._chat_buckets: dict[str, Bucket] = {}
        self._frame_buckets: dict[str, Bucket] = {}  # per player, all its sockets together
        self._pushed: tuple[str, int] | None = None  # the game version sockets last got
        self._room_pushed = row.version  # the room version sockets last got
        self._bot_seats: tuple[JSON, GameRunner, tuple[str, ...]] | None = None  # bot_seats
        # Called after every change of the current game (timers, bots); set by the node.
        self.on_game_change: Callable[[RoomHub], None] = lambda hub: None

    # Loading and catching up

    async def load(self) -> None:
        """Fold the current game and find the last chat line; finish a game found over."""
        store = self.ports.store
        if self.data["game_id"]:
            row = await store.load_game(self.data["game_id"])
            if row is None:
                raise RuntimeError(f"room {self.code} names a missing game")
            self.runner = GameRunner.from_row(self.rules, row)
            self._pushed = (row.id, self.runner.version)  # sockets get views as they attach
        while lines := await store.chat_since(self.code, self.chat_seq, CHAT_BACKLOG):
            self.chat_seq = lines[-1].seq
        if self.runner and self.runner.over and self.data["status"] == "playing":
            await self._finish()  # the server stopped between the last action and this

    async def on_notice(self, notice: JSON) -> None:
        """Catch up with a change announced on the bus (a no-op for this node's own changes)."""
        async with self.lock:
            if notice.get("room_version", 0) > self.version:
                row = await self.ports.store.load_room(self.code)
                if row is None:
                    return
                self.data, self.version = row.data, row.version
            if self.data["game_id"] and (
                self.runner is None or self.runner.game_id != self.data["game_id"]
            ):  # a game another node started (seen here, or while retrying a room change)
                game = await self.ports.store.load_game(self.data["game_id"])
                if game is not None:
                    self.runner = GameRunner.from_row(self.rules, game)
            runner = self.runner
            if (
                runner is not None
                and notice.get("game_id") == runner.game_id
                and notice.get("game_version", 0) > runner.version
            ):
                await runner.catch_up(self.ports.store)
            # New to this node's sockets: read just now, or by the runner judging an action.
            game_changed = runner is not None and self._pushed != (runner.game_id, runner.version)
            if notice.get("chat_seq", 0) > self.chat_seq:
                lines = await self.ports.store.chat_since(self.code, self.chat_seq, CHAT_BACKLOG)
                if lines:
                    self.chat_seq = lines[-1].seq
                    self._push_chat(lines)
            if self._room_pushed != self.version:  # read here, or while retrying a change
                self._push_room()
            if game_changed:
                await self.views_ready()
                self._push_views()
                self.on_game_change(self)

    def notice(self) -> JSON:
        runner = self.runner
        return {
            "room": self.code,
            "room_version": self.version,
            "game_id": runner.game_id if runner else None,
            "game_version": runner.version if runner else 0,
            "chat_seq": self.chat_seq,
        }

    async def publish(self) -> None:
        """Announce the current versions to the other nodes, if any can hear; called after the
        lock is released (a bus may deliver to this node's own listener, which takes it)."""
        bus = self.ports.bus
        if bus.shared:
            await bus.publish(self.notice())

    # Sockets

    async def attach(self, conn: Connection, hello: Hello) -> None:
        """Welcome a socket: as a player when its token matches, else as a newcomer."""
        async with self.lock:
            pid = None
            if hello.token is not None:
                pid = document.player_for_token(self.data, token_hash(hello.token))
                if pid is None:
                    conn.push(encode(Error(None, "bad_token", "no player holds this token")))
            conn.room, conn.player = self.code, pid
            first = pid is not None and not self.conns.get(pid)
            self.conns.setdefault(pid, set()).add(conn)
            conn.push(encode(Welcome(self.code, pid, self.ports.clock())))
            if first:
                self._push_room()
            else:
                conn.push(self._own_room_frame(pid))
            runner = self.runner
            if runner and (hello.game_id, hello.game_version) != (runner.game_id, runner.version):
                await self.views_ready()
                conn.push(self._view_frame(pid))
            lines = await self._backlog(hello.chat_seq or 0)
            team, open_spec = self._reader(pid)
            wire = [w for w in map(chat.to_wire, lines) if chat.readable(w, team, open_spec)]
            conn.push(encode(ChatLines(wire)))

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            group = self.conns.get(conn.player)
            if group is not None:
                group.discard(conn)
                if not group:
                    del self.conns[conn.player]
                    if conn.player is not None:
                        self._push_room()

    def idle(self) -> bool:
        """No sockets and nothing to drive: the node may forget this hub."""
        return not self.conns and not self._has_live_duties()

    def _has_live_duties(self) -> bool:
        runner = self.runner
        return bool(self.bot_seats()) or (runner is not None and runner.deadline() is not None)

    def bot_seats(self) -> tuple[str, ...]:
        """The running game's bot seats, in table order (none once it is over); asked after
        every action, so listed again only when the room's data or its game changed (each
        change replaces `data`)."""
        runner, data = self.runner, self.data
        if runner is None or runner.over or data["status"] != "playing":
            return ()
        listed = self._bot_seats
        if listed is None or listed[0] is not data or listed[1] is not runner:
            players = data["players"]
            seats = [s for team in runner.setup["teams"].values() for s in team]
            bots = tuple(s for s in seats if players.get(s, {}).get("kind") == "bot")
            listed = self._bot_seats = (data, runner, bots)
        return listed[2]

    def all_connections(self) -> list[Connection]:
        return [c for group in self.conns.values() for c in group]

    # Room operations

    async def join(self, conn: Connection, action_id: str, name: str, watch: bool = False) -> None:
        async with self.lock:
            if conn.player is not None:
                raise Refused("already_joined", "this socket already has a player")
            token = new_token()
            pid = await self._change(
                lambda data: document.join(data, name, token_hash(token), action_id, watch)
            )
            self.conns.get(None, set()).discard(conn)
            if not self.conns.get(None):
                self.conns.pop(None, None)
            conn.player = pid
            self.conns.setdefault(pid, set()).add(conn)
            conn.push(encode(Joined(action_id, pid, token)))
            self._push_room()
            if self.runner:
                await self.views_ready()
                conn.push(self._view_frame(pid))
            conn.push(encode(Ack(action_id)))

    async def room_op(self, conn: Connection, action_id: str, op: RoomOp) -> None:
        """Apply a pure room operation `op(data, actor)` by this socket's player."""
        async with self.lock:
            actor = self._actor(conn)
            if not document.seen_id(self.data, actor, action_id):
                removed = set(self.data["players"])
                await self._change(lambda data: (op(data, actor), None))
                removed -= set(self.data["players"])
                for pid in removed:
                    self._forget_player(pid)
                if not await self._rematch_if_due(actor, action_id):  # a seat may complete it
                    self._push_room()
            conn.push(encode(Ack(action_id)))

    async def begin(self, conn: Connection, action_id: str, rematch: bool) -> None:
        """Start the game (or, by the host, a rematch at once): the game is stored, then the
        room points at it."""
        async with self.lock:
            actor = self._actor(conn)
            if not document.seen_id(self.data, actor, action_id):
                await self._start_game(
                    actor, action_id, document.rematch if rematch else document.start
                )
            conn.push(encode(Ack(action_id)))

    async def play_again(self, conn: Connection, action_id: str) -> None:
        """A seated player is ready for another game; it starts once every seated human is."""
        async with self.lock:
            actor = self._actor(conn)
            if not document.seen_id(self.data, actor, action_id):
                await self._change(lambda data: (document.play_again(data, actor, action_id), None))
                if not await self._rematch_if_due(actor, action_id):
                    self._push_room()
            conn.push(encode(Ack(action_id)))

    async def _rematch_if_due(self, actor: str, action_id: str) -> bool:
        """The agreed rematch, when this change (a player ready, one who left the seats, a bot
        seated) made every seated human ready; whether it started."""
        if actor not in self.data["players"] or not document.rematch_due(self.data):
            return False
        await self._start_game(actor, action_id, document.agreed_rematch)
        return True

    async def _start_game(self, actor: str, action_id: str, begin: Begin) -> None:
        self.runner = await self._change(lambda data: self._new_game(data, actor, action_id, begin))
        self._push_room()
        self._push_views()
        self.on_game_change(self)

    def _new_game(
        self, data: JSON, actor: str, action_id: str, begin: Begin
    ) -> tuple[JSON, GameRunner]:
        game_id = secrets.token_urlsafe(9)
        data, teams = begin(data, actor, game_id, action_id)
        setup = {
            "options": data["options"],
            "teams": teams,
            "seed": secrets.randbits(62),
            "now": self.ports.clock(),
        }
        runner = GameRunner.start(self.rules, game_id, setup)
        if self.runner is not None:  # a retry of the last game's action is not a new action
            runner.applied_ids.update(self.runner.applied_ids)
        return data, runner

    async def _change(self, make: Callable[[JSON], tuple[JSON, Any]]) -> Any:
        """Store the document `make` builds from the current one; on a version conflict (another
        node changed the room) reload and build again. Returns make's second value."""
        store = self.ports.store
        for attempt in range(RETRIES):
            if attempt:
                await backoff(attempt)
            try:
                data, extra = make(self.data)
            except Refused:
                # Judged on what this node holds; another node may have changed the room since
                # (a join that makes a team complete): judge again on the stored room if newer.
                if not await self._adopt_newer_room():
                    raise
                continue
            if isinstance(extra, GameRunner):
                await store.create_game(
                    extra.game_id, self.code, self.data["game"], extra.setup, self.ports.clock()
                )
            if await self._save(data):
                return extra
            row = await store.load_room(self.code)
            if row is None:
                raise Refused("room_not_found", "the room is gone")
            self.data, self.version = row.data, row.version  # pushed by the caller or a notice
        raise Refused("busy", "the room changed concurrently; send again with the same id")

    async def _adopt_newer_room(self) -> bool:
        """Take the stored room when it is newer than this node's copy (and push it)."""
        row = await self.ports.store.load_room(self.code)
        if row is None or row.version <= self.version:
            return False
        self.data, self.version = row.data, row.version
        self._push_room()
        return True

    async def _save(self, data: JSON) -> bool:
        ok = await self.ports.store.update_room(
            self.code,
            self.version,
            data,
            public=data["public"],
            waiting=data["status"] == "waiting",
            now=self.ports.clock(),
        )
        if ok:
            self.data, self.version = data, self.version + 1
        return ok

    def _forget_player(self, pid: str) -> None:
        """A removed player's sockets carry on as newcomers (the token no longer works)."""
        self._frame_buckets.pop(pid, None)
        for conn in self.conns.pop(pid, set()):
            conn.player = None
            self.conns.setdefault(None, set()).add(conn)
            if self.runner:
                conn.push(self._view_frame(None))

    # Game actions

    async def act(self, conn: Connection, action_id: str, raw: JSON) -> None:
        async with self.lock:
            actor = self._actor(conn)
            version = await self._submit(actor, raw, action_id)
            conn.push(encode(Ack(action_id, version)))

    async def check(self, conn: Connection, action_id: str, raw: JSON) -> None:
        """Judge an action as `act` would, applying and storing nothing: the client asks the
        engine itself (a clue that is a form of a keyword, a reused clue...) before the player
        commits, so the rules live in one place."""
        async with self.lock:
            actor = self._actor(conn)
            runner = self._running_seat(actor)
            action = self.rules.parse_action(raw)
            if isinstance(action, Rejection):
                raise Refused(action.code, action.detail)
            judged = self.rules.apply(runner.state, actor, action, self.ports.clock())
            if isinstance(judged, Rejection):
                raise Refused(judged.code, judged.detail)
            conn.push(encode(Ack(action_id)))

    def _running_seat(self, seat: str) -> GameRunner:
        """The running game, refusing a seat that doesn't play in it."""
        runner = self.runner
        if runner is None or self.data["status"] != "playing":
            raise Refused("no_game", "no game is running")
        if seat != SYSTEM_SEAT and seat not in runner.seats():
            raise Refused("not_seated", "spectators don't play")
        return runner

    async def act_as_bot(self, seat: str, move: BotMove, action_id: str) -> None:
        """A bot's move, exactly as a player's, then its chat line when it may say one."""
        async with self.lock:
            await self._submit(seat, move.action, action_id)
            runner = self.runner
            if (
                move.chat
                and runner is not None
                and move.channel in ("team", "all")
                and self.rules.can_chat(runner.state, seat, move.channel)
            ):
                await self._append_chat(seat, move.channel, chat.clean_text(move.chat))

    async def timeout(self) -> None:
        """The timer fired: apply `timeout` by the system seat once the deadline has passed."""
        async with self.lock:
            runner = self.runner
            deadline = runner.deadline() if runner else None
            if runner is None or deadline is None:
                return
            if self.ports.clock() >= deadline:
                try:
                    await self._submit(SYSTEM_SEAT, {"type": "timeout"}, None)
                    return
                except Refused as refused:
                    if refused.busy:
                        raise  # the timer tries again shortly (Node._fire)
                    log.warning("room %s: timeout refused: %s", self.code, refused)
            self.on_game_change(self)  # early wake-up or refused: arm again

    async def views_ready(self) -> None:
        """Build in a worker thread the parts of the game's views too slow for the event loop
        (a Mastermind round's solver comparison), so one room can't stall every other."""
        runner = self.runner
        work = self.rules.slow_view_work(runner.state) if runner is not None else None
        if work is not None:
            await asyncio.to_thread(work)

    async def _submit(self, seat: str, raw: JSON, action_id: str | None) -> int:
        """Parse, apply, store and push one action; the version it was stored at."""
        runner = self.runner
        if runner is not None and action_id is not None and (seat, action_id) in runner.applied_ids:
            return runner.applied_ids[(seat, action_id)]  # a retry, even of a game's last action
        runner = self._running_seat(seat)
        action = self.rules.parse_action(raw) if seat != SYSTEM_SEAT else raw
        if isinstance(action, Rejection):
            raise Refused(action.code, action.detail)
        if seat != SYSTEM_SEAT:
            await self._overdue_timeouts(runner)
        if await runner.submit(self.ports.store, seat, action, action_id, self.ports.clock()):
            await self._changed(runner)
        if action_id is None:
            return runner.version
        return runner.applied_ids[(seat, action_id)]

    async def _overdue_timeouts(self, runner: GameRunner) -> None:
        """Apply the deadlines that passed before this action arrived but whose timer hasn't run
        (a slow timer, a restart): an action after its deadline must not win over the timer, so
        it is judged against the state the timeouts leave."""
        for _ in range(OVERDUE_TIMEOUTS):
            deadline = runner.deadline()
            now = self.ports.clock()
            if runner.over or deadline is None or now < deadline:
                return
            try:
                applied = await runner.submit(
                    self.ports.store, SYSTEM_SEAT, {"type": "timeout"}, None, now
                )
            except Refused as refused:
                if refused.busy:
                    raise
                log.warning("room %s: overdue timeout refused: %s", self.code, refused)
                return
            if applied:
                await self._changed(runner)

    async def _changed(self, runner: GameRunner) -> None:
        """After an applied action: views built and pushed, the game finished if it ended, the
        timer and bots told."""
        await self.views_ready()
        self._push_views()
        if runner.over:
            await self._finish()
            self._push_room()
        self.on_game_change(self)

    async def _finish(self) -> None:
        runner = self.runner
        assert runner is not None
        outcome = self.rules.outcome(runner.state) or {}
        await self.ports.store.finish_game(runner.game_id, outcome)
        await self._change(lambda data: (document.finish(data), None))

    # Chat

    async def say(self, conn: Connection, action_id: str, channel: str, text: str) -> None:
        async with self.lock:
            actor = self._actor(conn)
            seen = self._chat_ids.setdefault(actor, OrderedDict())
            if action_id not in seen and not await self._said(actor, action_id):
                text = chat.clean_text(text)
                chat.store_channel(channel, document.team_of(self.data, actor))
                runner = self.runner
                if (
                    runner
                    and self.data["status"] == "playing"
                    and actor in runner.seats()
                    and not self.rules.can_chat(runner.state, actor, channel)
                ):
                    raise Refused("chat_not_allowed", "you can't write there right now")
                bucket = self._chat_buckets.setdefault(
                    actor, Bucket(chat.LINES_BURST, chat.LINES_RATE)
                )
                if not bucket.take(self.ports.clock()):
                    raise Refused("rate_limited", "too many chat lines; wait a little")
                await self._append_chat(actor, channel, text, action_id)
                seen[action_id] = None
                while len(seen) > REMEMBERED_CHAT_IDS:
                    seen.popitem(last=False)
            conn.push(encode(Ack(action_id)))

    async def _said(self, actor: str, action_id: str) -> bool:
        """Whether the store holds the line `actor` sent with this id (acknowledged before a
        restart, or on another node): then it is a retry, answered `ack` before any limit or
        rule is checked, as it was applied."""
        if await self.ports.store.find_chat(self.code, actor, action_id) is None:
            return False
        self._chat_ids.setdefault(actor, OrderedDict())[action_id] = None
        return True

    async def _append_chat(
        self, pid: str, channel: str, text: str, client_id: str | None = None
    ) -> None:
        """Store and push a line; a retry the store already has (after a restart) is not pushed
        again, since every reader got it then or gets it from the backlog."""
        stored = chat.store_channel(channel, document.team_of(self.data, pid))
        line = await self.ports.store.append_chat(
            self.code,
            self.data["game_id"],
            stored,
            pid,
            self.data["players"][pid]["name"],
            text,
            self.ports.clock(),
            client_id,
        )
        if line.seq <= self.chat_seq:
            return
        self.chat_seq = line.seq
        self._push_chat([line])

    async def _backlog(self, after: int) -> list[ChatLine]:
        """The newest CHAT_BACKLOG lines after `after`."""
        lines: list[ChatLine] = []
        while page := await self.ports.store.chat_since(self.code, after, CHAT_BACKLOG):
            lines = (lines + page)[-CHAT_BACKLOG:]
            after = page[-1].seq
            if len(page) < CHAT_BACKLOG:
                break
        return lines

    # Pushes: each distinct frame is encoded once and queued to every socket that shares it.

    def throttle(self, conn: Connection) -> None:
        """Refuse a frame of a player whose sockets together send faster than allowed (each
        socket has its own allowance too; this stops a player multiplying it by opening tabs)."""
        pid = conn.player
        if pid is None:
            return
        bucket = self._frame_buckets.get(pid)
        if bucket is None:
            config = self.config
            bucket = self._frame_buckets[pid] = Bucket(
                config.player_frame_burst, config.player_frames_per_s
            )
        if not bucket.take(self.ports.clock()):
            raise Refused("rate_limited", "too many frames from your tabs; slow down")

    def _actor(self, conn: Connection) -> str:
        if conn.player is None or conn.player not in self.data["players"]:
            raise Refused("not_joined", "join the room first")
        return conn.player

    def _reader(self, pid: str | None) -> tuple[str | None, bool]:
        """(team, open spectator) of whoever reads chat as `pid`."""
        team = document.team_of(self.data, pid) if pid else None
        return team, bool(self.data["options"].get("open_spectators")) and team is None

    def _description_raw(self, host: bool = False) -> msgspec.Raw:
        """The description everyone gets, or with `host` the host's own (its custom words)."""
        base = self.config.public_url or self.data.get("base_url", "")
        desc = document.describe(
            self.data,
            self.code,
            {p for p, group in self.conns.items() if p and group},
            f"{base.rstrip('/')}/r/{self.code}",
            self.version,
            host,
        )
        return msgspec.Raw(msgspec.json.encode(desc))

    def description(self) -> JSON:
        """The description as anyone may read it (HTTP routes: no socket, so never the host)."""
        return msgspec.json.decode(self._description_raw())  # type: ignore[no-any-return]

    def _is_host(self, pid: str | None) -> bool:
        return pid is not None and pid == self.data["host"]

    def _own_room_frame(self, pid: str | None) -> bytes:
        return self._room_frame(pid, self._description_raw(self._is_host(pid)))

    @staticmethod
    def _room_frame(pid: str | None, raw: msgspec.Raw) -> bytes:
        return encode(Room(raw, pid))

    def _push_room(self) -> None:
        self._room_pushed = self.version
        raw = self._description_raw()
        for pid, group in self.conns.items():
            frame = self._own_room_frame(pid) if self._is_host(pid) else self._room_frame(pid, raw)
            for conn in group:
                conn.push(frame)

    def _seat(self, pid: str | None) -> str | None:
        """The game seat `pid` looks through: its own, or None (a spectator's) if not seated."""
        assert self.runner is not None
        return pid if pid in self.runner.seats() else None

    def _view_frames(self, seats: list[str | None]) -> list[bytes]:
        """The game's view frames for these seats (None: a spectator), in order."""
        runner = self.runner
        assert runner is not None
        views = runner.views_json(seats, bool(self.data["options"].get("open_spectators")))
        game_id, version = runner.game_id, runner.version
        return [encode(View(game_id, version, msgspec.Raw(view))) for view in views]

    def _view_frame(self, pid: str | None) -> bytes:
        return self._view_frames([self._seat(pid)])[0]

    def _push_views(self) -> None:
        """Every socket's view, each seat's built once, spectators' once for them all."""
        runner = self.runner
        if runner is None:
            return
        self._pushed = (runner.game_id, runner.version)
        groups = [(self._seat(pid), group) for pid, group in self.conns.items() if group]
        seats = list(dict.fromkeys(seat for seat, _ in groups))
        frame_of = dict(zip(seats, self._view_frames(seats), strict=True))
        for seat, group in groups:
            frame = frame_of[seat]
            for conn in group:
                conn.push(frame)

    def _push_chat(self, lines: list[ChatLine]) -> None:
        wire = [chat.to_wire(line) for line in lines]
        frames: dict[tuple[str | None, bool], bytes] = {}
        for pid, group in self.conns.items():
            reader = self._reader(pid)
            if reader not in frames:
                visible = [w for w in wire if chat.readable(w, *reader)]
                frames[reader] = encode(ChatLines(visible)) if visible else b""
            if frames[reader]:
                for conn in group:
                    conn.push(frames[reader])
