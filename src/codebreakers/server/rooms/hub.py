"""A room as this node holds it, and the one door to it: every operation takes the room's lock,
then goes to the part whose job it is.

- `HeldRoom` (held.py): the document, its version, the current game's runner; storing changes;
- `Fanout` (fanout.py): the sockets by player, and the frames pushed to them;
- `RoomChat` (room_chat.py): chat lines, their ids and limits, the backlog;
- `GameActions` (game_actions.py): actions by players, bots and the timer; the game's end.

Every change goes the same way, under the lock: check, store (version-checked), adopt, push to
this node's sockets, then announce on the bus once the lock is released, the notice carrying
what was stored since the last one. A notice from the bus (another node's change, or this
node's own echo) gives the hub what it lacks: taken from the notice when it goes on exactly from
what the hub holds, read from the store otherwise, so one node and many behave alike, the author
of a change reads nothing back, and in the common case neither does anyone else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from codebreakers.bots.base import BotMove
from codebreakers.bus.base import NULL, Notice
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.ops.config import Ports, ServerConfig
from codebreakers.server.ops.logs import get_logger
from codebreakers.server.ops.ratelimit import Buckets
from codebreakers.server.play.runner import GameRunner
from codebreakers.server.rooms import carried, chat, document
from codebreakers.server.rooms.carried import Took
from codebreakers.server.rooms.fanout import Fanout, Socket
from codebreakers.server.rooms.game_actions import GameActions
from codebreakers.server.rooms.held import Begin, HeldRoom
from codebreakers.server.rooms.model import Room, RoomStatus
from codebreakers.server.rooms.room_chat import RoomChat
from codebreakers.server.rooms.tokens import new_token, token_hash
from codebreakers.server.wire.messages import Ack, Error, Hello, Joined, Welcome, encode
from codebreakers.store.base import RoomRow

log = get_logger(__name__)

JSON = dict[str, Any]
RoomOp = Callable[[Room, str], Room]  # a pure operation of document.py, by an actor


class RoomHub:
    def __init__(self, ports: Ports, config: ServerConfig, row: RoomRow) -> None:
        self.ports = ports
        self.code = row.code
        self.game = row.game
        self.rules = ports.rules[row.game]
        self.room = HeldRoom(ports, row, self._push_room)
        self.fanout = Fanout(row.code, config.public_url, row.version)
        self.chat = RoomChat(self.room, self.fanout)
        self.actions = GameActions(self.room, self.fanout, self._game_changed)
        # All of one player's sockets together (each socket has its own allowance too).
        self._frames = Buckets(config.player_frame_burst, config.player_frames_per_s)
        # Called after every change of the current game (timers, bots); set by the node.
        self.on_game_change: Callable[[RoomHub], None] = lambda hub: None
        self._published = Notice(row.code, row.version)  # the versions last announced

    @property
    def data(self) -> Room:
        return self.room.data

    @property
    def version(self) -> int:
        return self.room.version

    @property
    def runner(self) -> GameRunner | None:
        return self.room.runner

    @property
    def chat_seq(self) -> int:
        return self.chat.seq

    def _game_changed(self) -> None:
        self.on_game_change(self)

    # Loading and catching up

    async def load(self) -> None:
        """Fold the current game and find the last chat line; finish a game found over."""
        room = self.room
        await room.load_game()
        runner = room.runner
        if runner is not None:
            self.fanout.game_pushed = (runner.game_id, runner.version)  # sent as sockets attach
        await self.chat.load()
        if runner and runner.over and room.data.status is RoomStatus.PLAYING:
            await self.actions.finish()  # the server stopped between the last action and this

    async def on_notice(self, notice: Notice) -> Took:
        """Catch up with a change announced on the bus (a no-op for this node's own changes);
        how the news came."""
        room, fanout = self.room, self.fanout
        async with room.lock:
            before = self._held()
            reads = await room.read(notice)
            runner = room.runner
            # New to this node's sockets: read just now, or by the runner judging an action.
            game_changed = runner is not None and fanout.game_pushed != (
                runner.game_id,
                runner.version,
            )
            if notice.chat_seq > self.chat.seq:
                reads += await self.chat.read(notice.chat_seq, notice.lines)
            if fanout.room_pushed != room.version:  # read here, or while retrying a change
                self._push_room()
            if game_changed:
                await self.actions.views_ready()
                self.actions.push_views()
                self.on_game_change(self)
            if reads:
                return Took.STORE
            return Took.CARRIED if self._held() != before else Took.NOTHING

    def _held(self) -> tuple[int, GameRunner | None, int, int]:
        """What this node holds, to tell whether a notice brought anything."""
        runner = self.room.runner
        return self.room.version, runner, runner.version if runner else 0, self.chat.seq

    def notice(self) -> Notice:
        """How far this node has the room: what it publishes after a change."""
        runner = self.room.runner
        return Notice(
            room=self.code,
            room_version=self.room.version,
            game_id=runner.game_id if runner else None,
            game_version=runner.version if runner else 0,
            chat_seq=self.chat.seq,
        )

    def news(self) -> Notice:
        """The current versions with what this node has that is newer than the versions it
        announced last: the room's document if it changed, the game's rows and the chat's lines
        above them (for a game not announced yet, the last rows it holds, whichever a receiver
        lacks). A receiver uses what goes on from what it holds."""
        now, last = self.notice(), self._published
        room = self.room
        runner = room.runner
        after = last.game_version if runner and last.game_id == runner.game_id else 0
        return msgspec.structs.replace(
            now,
            room_data=room.encoded() if now.room_version > last.room_version else NULL,
            actions=carried.actions(runner.recent, after) if runner else (),
            lines=carried.lines(self.chat.recent, last.chat_seq),
        )

    async def publish(self) -> None:
        """Announce the news to the other nodes, if any can hear; called after the lock is
        released (a bus may deliver to this node's own listener, which takes it)."""
        bus = self.ports.bus
        if bus.shared:
            news = self.news()
            self._published = news.bare()
            await bus.publish(news)

    # Sockets

    async def attach(self, conn: Socket, hello: Hello) -> None:
        """Welcome a socket: as a player when its token matches, else as a newcomer."""
        room, fanout = self.room, self.fanout
        async with room.lock:
            pid = None
            if hello.token is not None:
                pid = document.player_for_token(room.data, token_hash(hello.token))
                if pid is None:
                    conn.push(
                        encode(Error(None, ErrorCode.BAD_TOKEN, "no player holds this token"))
                    )
            conn.room, conn.player = self.code, pid
            first = fanout.add(conn)
            conn.push(encode(Welcome(self.code, pid, self.ports.clock())))
            if first:
                self._push_room()
            else:
                conn.push(fanout.room_frame(room.data, room.version, pid))
            runner = room.runner
            if runner and (hello.game_id, hello.game_version) != (runner.game_id, runner.version):
                await self.actions.views_ready()
                conn.push(fanout.view_frame(runner, room.open_spectators(), pid))
            conn.push(await self.chat.backlog_frame(pid, hello.chat_seq or 0))

    async def detach(self, conn: Socket) -> None:
        async with self.room.lock:
            if self.fanout.remove(conn):
                self._push_room()

    def idle(self) -> bool:
        """No sockets and nothing to drive: the node may forget this hub."""
        return not self.fanout.by_player and not self._has_live_duties()

    def _has_live_duties(self) -> bool:
        runner = self.room.runner
        return bool(self.bot_seats()) or (runner is not None and runner.deadline() is not None)

    def playing(self) -> GameRunner | None:
        """The game being played, if one is."""
        return self.room.playing()

    def bot_seats(self) -> tuple[str, ...]:
        return self.room.bot_seats()

    def bot_level(self, seat: str) -> str:
        return self.room.bot_level(seat)

    def all_connections(self) -> list[Socket]:
        return self.fanout.sockets()

    def throttle(self, conn: Socket) -> None:
        """Refuse a frame of a player whose sockets together send faster than allowed (each
        socket has its own allowance too; this stops a player multiplying it by opening tabs)."""
        pid = conn.player
        if pid is not None and not self._frames.take(pid, self.ports.clock()):
            raise Refused(ErrorCode.RATE_LIMITED, "too many frames from your tabs; slow down")

    def description(self) -> JSON:
        """The description as anyone may read it (HTTP routes: no socket, so never the host)."""
        raw = self.fanout.description(self.room.data, self.room.version)
        return msgspec.json.decode(raw)  # type: ignore[no-any-return]

    # Room operations

    async def join(
        self,
        conn: Socket,
        action_id: str,
        name: str,
        watch: bool = False,
        profile_id: str | None = None,
    ) -> None:
        """A newcomer joins; `profile_id` (the browser's, from its cookie) is kept on the player
        and the store remembers the room among the profile's rooms ("your games")."""
        room = self.room
        async with room.lock:
            if conn.player is not None:
                raise Refused(ErrorCode.ALREADY_JOINED, "this socket already has a player")
            token = new_token()
            pid = await room.change(
                lambda data: document.join(
                    data, name, token_hash(token), action_id, watch, profile_id
                )
            )
            self.fanout.joined(conn, pid)
            conn.push(encode(Joined(action_id, pid, token)))
            if profile_id is not None:
                await self._remember_room(pid, profile_id)
            self._push_room()
            runner = room.runner
            if runner:
                await self.actions.views_ready()
                conn.push(self.fanout.view_frame(runner, room.open_spectators(), pid))
            conn.push(encode(Ack(action_id)))

    async def reclaim(self, profile_id: str) -> tuple[str, str]:
        """A new seat token for the person `profile_id` joined this room as: the profile's
        browser that holds no token for it (another device, signed in with a passkey; a token
        the browser lost) comes back to its own seat. The token held before stops working for
        new sockets; ones attached with it stay. Returns (player id, token)."""
        room = self.room
        async with room.lock:
            pid = document.player_of_profile(room.data, profile_id)
            if pid is None:
                raise Refused(ErrorCode.NOT_YOUR_ROOM, "this profile holds no player here")
            token = new_token()
            hashed = token_hash(token)
            await room.change(lambda data: (document.rekey(data, pid, hashed), None))
            return pid, token

    async def _remember_room(self, pid: str, profile_id: str) -> None:
        """List the room among the profile's ("your games"); the player has joined whatever
        happens here, so a failure costs only that line of the home page."""
        try:
            await self.ports.store.join_room(self.room.code, pid, profile_id, self.ports.clock())
        except Exception:
            log.warning("could not list the room among the profile's rooms", exc_info=True)

    async def room_op(self, conn: Socket, action_id: str, op: RoomOp) -> None:
        """Apply a pure room operation `op(room, actor)` by this socket's player."""
        room = self.room
        async with room.lock:
            actor = self._actor(conn)
            if not document.seen_id(room.data, actor, action_id):
                removed = set(room.data.players)
                await room.change(lambda data: (op(data, actor), None))
                removed -= set(room.data.players)
                for pid in removed:
                    self._forget_player(pid)
                if not await self._rematch_if_due(actor, action_id):  # a seat may complete it
                    self._push_room()
            conn.push(encode(Ack(action_id)))

    async def begin(self, conn: Socket, action_id: str, rematch: bool) -> None:
        """Start the game (or, by the host, a rematch at once): the game is stored, then the
        room points at it."""
        room = self.room
        async with room.lock:
            actor = self._actor(conn)
            if not document.seen_id(room.data, actor, action_id):
                await self._start_game(
                    actor, action_id, document.rematch if rematch else document.start
                )
            conn.push(encode(Ack(action_id)))

    async def play_again(self, conn: Socket, action_id: str) -> None:
        """A seated player is ready for another game; it starts once every seated human is."""
        room = self.room
        async with room.lock:
            actor = self._actor(conn)
            if not document.seen_id(room.data, actor, action_id):
                await room.change(lambda data: (document.play_again(data, actor, action_id), None))
                if not await self._rematch_if_due(actor, action_id):
                    self._push_room()
            conn.push(encode(Ack(action_id)))

    async def _rematch_if_due(self, actor: str, action_id: str) -> bool:
        """The agreed rematch, when this change (a player ready, one who left the seats, a bot
        seated) made every seated human ready; whether it started."""
        data = self.room.data
        if actor not in data.players or not document.rematch_due(data):
            return False
        await self._start_game(actor, action_id, document.agreed_rematch)
        return True

    async def _start_game(self, actor: str, action_id: str, begin: Begin) -> None:
        await self.room.start_game(actor, action_id, begin)
        self._push_room()
        self.actions.push_views()
        self.on_game_change(self)

    def _forget_player(self, pid: str) -> None:
        """A removed player's sockets carry on as newcomers (the token no longer works)."""
        self._frames.forget(pid)
        moved = self.fanout.forget(pid)
        runner = self.room.runner
        if runner and moved:
            frame = self.fanout.view_frame(runner, self.room.open_spectators(), None)
            for conn in moved:
                conn.push(frame)

    # Game actions

    async def act(self, conn: Socket, action_id: str, raw: JSON) -> None:
        async with self.room.lock:
            actor = self._actor(conn)
            version = await self.actions.submit(actor, raw, action_id)
            conn.push(encode(Ack(action_id, version)))

    async def check(self, conn: Socket, action_id: str, raw: JSON) -> None:
        """Judge an action as `act` would, applying and storing nothing: the client asks the
        engine itself (a clue that is a form of a keyword, a reused clue...) before the player
        commits, so the rules live in one place."""
        async with self.room.lock:
            self.actions.check(self._actor(conn), raw)
            conn.push(encode(Ack(action_id)))

    async def act_as_bot(self, seat: str, move: BotMove, action_id: str) -> None:
        """A bot's move, exactly as a player's, then its chat line when it may say one."""
        room = self.room
        async with room.lock:
            await self.actions.submit(seat, move.action, action_id)
            runner = room.runner
            if (
                move.chat
                and runner is not None
                and move.channel in ("team", "all")
                and room.rules.can_chat(runner.state, seat, move.channel)
            ):
                await self.chat.append(seat, move.channel, chat.clean_text(move.chat))

    async def timeout(self) -> None:
        """The timer fired: apply `timeout` by the system seat once the deadline has passed."""
        async with self.room.lock:
            await self.actions.timeout()

    async def views_ready(self) -> None:
        await self.actions.views_ready()

    # Chat

    async def say(self, conn: Socket, action_id: str, channel: str, text: str) -> None:
        async with self.room.lock:
            await self.chat.say(self._actor(conn), action_id, channel, text)
            conn.push(encode(Ack(action_id)))

    # Helpers

    def _actor(self, conn: Socket) -> str:
        if conn.player is None or conn.player not in self.room.data.players:
            raise Refused(ErrorCode.NOT_JOINED, "join the room first")
        return conn.player

    def _push_room(self) -> None:
        self.fanout.push_room(self.room.data, self.room.version)
