"""A room's sockets on this node, by player, and the frames pushed to them.

Each distinct frame is encoded once and queued to every socket that shares it: a seat's view
once for all that seat's sockets (spectators share one), the description once for everyone but
the host (whose own copy carries the options as set), a batch of chat lines once per kind of
reader. A push never waits on a socket (`Socket.push`), so whoever holds the room's lock can
push. What to push is the caller's: this module takes the document and the runner as they are.
"""

from __future__ import annotations

from typing import Any, Protocol

import msgspec

from codebreakers.server.play.runner import GameRunner
from codebreakers.server.rooms import chat, description, model
from codebreakers.server.wire.messages import ChatLines, Room, encode, encode_views
from codebreakers.store.base import ChatLine

JSON = dict[str, Any]


class Socket(Protocol):
    """What a room needs of a socket (`wire.connection.Connection`, or quick play's stand-in)."""

    room: str | None
    player: str | None

    def push(self, text: bytes) -> None: ...

    def close_soon(self) -> None: ...


class Fanout:
    __slots__ = ("by_player", "code", "game_pushed", "public_url", "room_pushed")

    def __init__(self, code: str, public_url: str | None, room_version: int) -> None:
        self.code = code
        self.public_url = public_url
        # The sockets of each player; None: newcomers who haven't joined (or a removed player's)
        self.by_player: dict[str | None, set[Socket]] = {}
        self.game_pushed: tuple[str, int] | None = None  # the game version sockets last got
        self.room_pushed = room_version  # the room version sockets last got

    # Who holds which socket

    def add(self, conn: Socket) -> bool:
        """Count the socket in under its player; whether it is that player's first."""
        group = self.by_player.setdefault(conn.player, set())
        group.add(conn)
        return conn.player is not None and len(group) == 1

    def remove(self, conn: Socket) -> bool:
        """Count the socket out; whether a player (not a newcomer) lost its last one."""
        group = self.by_player.get(conn.player)
        if group is None:
            return False
        group.discard(conn)
        if group:
            return False
        del self.by_player[conn.player]
        return conn.player is not None

    def joined(self, conn: Socket, pid: str) -> None:
        """A newcomer's socket now speaks for the player it joined as."""
        newcomers = self.by_player.get(None)
        if newcomers is not None:
            newcomers.discard(conn)
            if not newcomers:
                del self.by_player[None]
        conn.player = pid
        self.by_player.setdefault(pid, set()).add(conn)

    def forget(self, pid: str) -> set[Socket]:
        """A removed player's sockets carry on as newcomers (its token no longer works)."""
        moved = self.by_player.pop(pid, set())
        for conn in moved:
            conn.player = None
        if moved:
            self.by_player.setdefault(None, set()).update(moved)
        return moved

    def sockets(self) -> list[Socket]:
        return [c for group in self.by_player.values() for c in group]

    def online(self) -> set[str]:
        return {p for p, group in self.by_player.items() if p and group}

    # Frames

    def description(self, data: model.Room, version: int, host: bool = False) -> msgspec.Raw:
        """The description everyone gets, or with `host` the host's own (its custom words)."""
        base = self.public_url or data.base_url
        desc = description.describe(
            data, self.code, self.online(), f"{base.rstrip('/')}/r/{self.code}", version, host
        )
        return msgspec.Raw(msgspec.json.encode(desc))

    def room_frame(self, data: model.Room, version: int, pid: str | None) -> bytes:
        """The room frame `pid` gets: the host's own copy, or everyone's."""
        host = pid is not None and pid == data.host
        return encode(Room(self.description(data, version, host), pid))

    def push_room(self, data: model.Room, version: int) -> None:
        self.room_pushed = version
        raw = self.description(data, version)
        host = data.host
        for pid, group in self.by_player.items():
            if pid is not None and pid == host:
                frame = self.room_frame(data, version, pid)
            else:
                frame = encode(Room(raw, pid))
            for conn in group:
                conn.push(frame)

    @staticmethod
    def _seat(runner: GameRunner, pid: str | None) -> str | None:
        """The game seat `pid` looks through: its own, or None (a spectator's) if not seated."""
        return pid if pid in runner.seats() else None

    @staticmethod
    def view_frames(
        runner: GameRunner, open_spectators: bool, seats: list[str | None]
    ) -> list[bytes]:
        """The game's view frames for these seats (None: a spectator), in order."""
        return encode_views(
            runner.game_id, runner.version, runner.views_json(seats, open_spectators)
        )

    def view_frame(self, runner: GameRunner, open_spectators: bool, pid: str | None) -> bytes:
        return self.view_frames(runner, open_spectators, [self._seat(runner, pid)])[0]

    def push_views(self, runner: GameRunner, open_spectators: bool) -> None:
        """Every socket's view, each seat's built once, spectators' once for them all."""
        self.game_pushed = (runner.game_id, runner.version)
        seat = self._seat
        groups = [(seat(runner, pid), group) for pid, group in self.by_player.items() if group]
        seats = list(dict.fromkeys(s for s, _ in groups))
        frame_of = dict(zip(seats, self.view_frames(runner, open_spectators, seats), strict=True))
        for s, group in groups:
            frame = frame_of[s]
            for conn in group:
                conn.push(frame)

    def push_chat(self, data: model.Room, lines: list[ChatLine]) -> None:
        wire = [chat.to_wire(line) for line in lines]
        frames: dict[tuple[str | None, bool], bytes] = {}
        for pid, group in self.by_player.items():
            reader = chat.reader(data, pid)
            if reader not in frames:
                visible = [w for w in wire if chat.readable(w, *reader)]
                frames[reader] = encode(ChatLines(visible)) if visible else b""
            if frames[reader]:
                for conn in group:
                    conn.push(frames[reader])
