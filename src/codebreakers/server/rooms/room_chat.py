"""A room's chat on this node: the last line it has, lines said by players and bots, retries by id,
the rate each player may write at, and the backlog a socket gets as it attaches.

Lines are stored before they are pushed; the store numbers them per room (`seq`, one after
another), so a node takes the lines a bus notice carries when they go on from its last one and
reads exactly those it lacks otherwise (a lost notice, a gap). Called with the room's lock held.
"""

from __future__ import annotations

from collections import OrderedDict, deque

from codebreakers.bus.base import MAX_ROWS, CarriedLine
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.ops.ratelimit import Buckets
from codebreakers.server.rooms import carried, chat, document
from codebreakers.server.rooms.fanout import Fanout
from codebreakers.server.rooms.held import HeldRoom
from codebreakers.server.rooms.model import RoomStatus
from codebreakers.server.wire.messages import ChatLines, encode
from codebreakers.store.base import ChatLine

CHAT_BACKLOG = 500
REMEMBERED_CHAT_IDS = 32


class RoomChat:
    def __init__(self, room: HeldRoom, fanout: Fanout) -> None:
        self._room = room
        self._fanout = fanout
        self.seq = 0  # the last line this node has
        self.recent: deque[ChatLine] = deque(maxlen=MAX_ROWS)  # what a notice carries
        self._ids: dict[str, OrderedDict[str, None]] = {}  # per player, the ids it said lately
        self._buckets = Buckets(chat.LINES_BURST, chat.LINES_RATE)

    async def load(self) -> None:
        """Find the last line stored."""
        room = self._room
        while lines := await room.ports.store.chat_since(room.code, self.seq, CHAT_BACKLOG):
            self.seq = lines[-1].seq

    async def read(self, seq: int, offered: tuple[CarriedLine, ...] = ()) -> bool:
        """Push the lines up to `seq` (a bus notice's) that this node lacks: those `offered`
        when they go on exactly from its last line and end at `seq`, else read from the store
        (then True)."""
        room = self._room
        lines = [carried.line(room.code, x) for x in offered if x.seq > self.seq]
        read = not (
            lines
            and lines[-1].seq == seq
            and all(x.seq == self.seq + i for i, x in enumerate(lines, 1))
        )
        if read:
            lines = await room.ports.store.chat_since(room.code, self.seq, CHAT_BACKLOG)
        self._took(lines)
        return read

    def _took(self, lines: list[ChatLine]) -> None:
        """Hold and push lines that go on from the last one."""
        if lines:
            self.seq = lines[-1].seq
            self.recent.extend(lines)
            self._fanout.push_chat(self._room.data, lines)

    async def say(self, actor: str, action_id: str, channel: str, text: str) -> None:
        """A player's line: checked, limited, stored and pushed, once per id."""
        seen = self._ids.setdefault(actor, OrderedDict())
        if action_id in seen or await self._said(actor, action_id):
            return
        room = self._room
        text = chat.clean_text(text)
        chat.store_channel(channel, document.team_of(room.data, actor))
        runner = room.runner
        if (
            runner
            and room.data.status is RoomStatus.PLAYING
            and actor in runner.seats()
            and not room.rules.can_chat(runner.state, actor, channel)
        ):
            raise Refused(ErrorCode.CHAT_NOT_ALLOWED, "you can't write there right now")
        if not self._buckets.take(actor, room.ports.clock()):
            raise Refused(ErrorCode.RATE_LIMITED, "too many chat lines; wait a little")
        await self.append(actor, channel, text, action_id)
        seen[action_id] = None
        while len(seen) > REMEMBERED_CHAT_IDS:
            seen.popitem(last=False)

    async def _said(self, actor: str, action_id: str) -> bool:
        """Whether the store holds the line `actor` sent with this id (acknowledged before a
        restart, or on another node): then it is a retry, answered `ack` before any limit or
        rule is checked, as it was applied."""
        room = self._room
        if await room.ports.store.find_chat(room.code, actor, action_id) is None:
            return False
        self._ids.setdefault(actor, OrderedDict())[action_id] = None
        return True

    async def append(self, pid: str, channel: str, text: str, client_id: str | None = None) -> None:
        """Store and push a line; a retry the store already has (after a restart) is not pushed
        again, since every reader got it then or gets it from the backlog."""
        room = self._room
        data = room.data
        stored = chat.store_channel(channel, document.team_of(data, pid))
        player = data.players[pid]
        line = await room.ports.store.append_chat(
            room.code,
            data.game_id,
            stored,
            pid,
            player.name,
            text,
            room.ports.clock(),
            client_id,
            player.profile_id,
        )
        if line.seq <= self.seq:
            return
        if line.seq > self.seq + 1:  # another node's lines came first, their notice not yet
            await self.read(line.seq)
            return
        self._took([line])

    async def backlog_frame(self, pid: str | None, after: int) -> bytes:
        """The newest CHAT_BACKLOG lines after `after` that `pid` may read, as one frame."""
        lines = await self._backlog(after)
        team, open_spectator = chat.reader(self._room.data, pid)
        wire = [w for w in map(chat.to_wire, lines) if chat.readable(w, team, open_spectator)]
        return encode(ChatLines(wire))

    async def _backlog(self, after: int) -> list[ChatLine]:
        room = self._room
        lines: list[ChatLine] = []
        while page := await room.ports.store.chat_since(room.code, after, CHAT_BACKLOG):
            lines = (lines + page)[-CHAT_BACKLOG:]
            after = page[-1].seq
            if len(page) < CHAT_BACKLOG:
                break
        return lines
