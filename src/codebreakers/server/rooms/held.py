"""The room as this node holds it: the stored document, its version, the current game's runner.

The lock serialises everything that reads or changes them. A change goes one way: build the new
document from the current one, store it with a version check, adopt it; on a conflict (another
node changed the room) read the room again and build again. Starting a game is the same change
with one step before the document is stored: the new game itself, so a room never names a game
the store lacks. Nothing here touches a socket.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgspec

from codebreakers.bus.base import Notice
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.ops.config import Ports
from codebreakers.server.play.runner import RETRIES, GameRunner, backoff
from codebreakers.server.rooms import carried, model
from codebreakers.server.rooms.document import Teams
from codebreakers.server.rooms.model import PlayerKind, Room, RoomStatus
from codebreakers.store.base import GamePlayer, GameRow, RoomRow

JSON = dict[str, Any]
T = TypeVar("T")
# document.start, document.rematch or document.agreed_rematch: (room, actor, game id, action id)
Begin = Callable[[Room, str, str, str], tuple[Room, Teams]]


def game_players(room: Room, teams: Teams) -> list[GamePlayer]:
    """The `game_players` rows of a game seating `teams` (side -> seats, the room's player ids)
    from `room`'s players: each with its name, kind and profile as the room holds them."""
    players = []
    for side, seats in teams.items():
        for seat in seats:
            player = room.players[seat]
            players.append(
                GamePlayer(seat, seat, side, player.human, player.name, player.profile_id)
            )
    return players


class HeldRoom:
    def __init__(self, ports: Ports, row: RoomRow, on_adopt: Callable[[], None]) -> None:
        self.ports = ports
        self.code = row.code
        self.game = row.game
        self.rules = ports.rules[row.game]
        self.data = model.load(row.data)  # decoded here, once per read of the stored row
        self.version = row.version
        self.created_at = row.created_at
        self.runner: GameRunner | None = None
        self.lock = asyncio.Lock()
        self._on_adopt = on_adopt  # a newer room read while judging a change: push it
        self._bot_seats: tuple[Room, GameRunner, tuple[str, ...]] | None = None
        self._encoded: tuple[int, msgspec.Raw] | None = None  # `encoded()`, by version

    async def load_game(self) -> None:
        """Fold the game the room names, if any."""
        if self.data.game_id:
            row = await self.ports.store.load_game(self.data.game_id)
            if row is None:
                raise RuntimeError(f"room {self.code} names a missing game")
            self.runner = await self._runner_of(row)

    async def _runner_of(self, row: GameRow) -> GameRunner:
        """The runner of the stored game `row`, knowing the action ids of the room's game
        before it too (from the runner held, else from the store): a retry of that game's last
        action, its ack lost to a restart or a hop, is acknowledged, not judged in this one."""
        runner = GameRunner.from_row(self.rules, row)
        before = self.data.previous_game_id
        if before is None:
            return runner
        held = self.runner
        if held is not None and held.game_id == before:
            known = held.applied_ids
        else:
            previous = await self.ports.store.load_game(before)
            known = GameRunner.ids_of(previous.actions) if previous else {}
        runner.applied_ids = {**known, **runner.applied_ids}
        return runner

    async def read(self, notice: Notice) -> int:
        """Catch up with what a bus notice says this node lacks: the room, a game another node
        started (seen here, or while retrying a room change), the game's new actions. What the
        notice carries is taken when it goes on exactly from what this node holds (the hop
        between nodes); anything else is read from the store. Returns the store reads made."""
        store = self.ports.store
        reads = 0
        if notice.room_version > self.version and not self._take_room(notice):
            reads += 1
            row = await store.load_room(self.code)
            if row is None:
                return reads
            self._adopt(row)
        game_id = self.data.game_id
        if game_id and (self.runner is None or self.runner.game_id != game_id):
            reads += 1
            game = await store.load_game(game_id)
            if game is not None:
                self.runner = await self._runner_of(game)
        runner = self.runner
        if (
            runner is not None
            and notice.game_id == runner.game_id
            and notice.game_version > runner.version
            and not self._take_actions(runner, notice)
        ):
            reads += 1
            await runner.catch_up(store)
        return reads

    @staticmethod
    def _take_actions(runner: GameRunner, notice: Notice) -> bool:
        """Fold the rows a notice carries when they end at its version and go on exactly from
        the runner's (the runner's rules judge each)."""
        rows = [carried.row(a) for a in notice.actions]
        return bool(rows) and rows[-1].version == notice.game_version and runner.fold_next(rows)

    def _take_room(self, notice: Notice) -> bool:
        """Hold the document a notice carries when it is the very next version of this one."""
        if notice.room_version != self.version + 1:
            return False
        data = carried.room(notice.room_data, self.game)
        if data is None:
            return False
        self.data, self.version = data, notice.room_version
        return True

    def encoded(self) -> msgspec.Raw:
        """The document as a notice carries it, encoded once per version held."""
        kept = self._encoded
        if kept is None or kept[0] != self.version:
            kept = self._encoded = (self.version, carried.encode_room(self.data))
        return kept[1]

    def playing(self) -> GameRunner | None:
        """The game being played, if one is (not over, the room playing it)."""
        runner = self.runner
        if runner is None or runner.over or self.data.status is not RoomStatus.PLAYING:
            return None
        return runner

    def open_spectators(self) -> bool:
        return bool(self.data.options.get("open_spectators"))

    def bot_seats(self) -> tuple[str, ...]:
        """The running game's bot seats, in table order (none once it is over); asked after
        every action, so listed again only when the room's data or its game changed (each
        change replaces `data`)."""
        runner, data = self.playing(), self.data
        if runner is None:
            return ()
        listed = self._bot_seats
        if listed is None or listed[0] is not data or listed[1] is not runner:
            players = data.players
            seats = [s for team in runner.setup["teams"].values() for s in team]
            bots = tuple(s for s in seats if s in players and players[s].kind is PlayerKind.BOT)
            listed = self._bot_seats = (data, runner, bots)
        return listed[2]

    def bot_level(self, seat: str) -> str:
        level = self.data.players[seat].level
        assert level is not None, "a bot has a level"
        return level

    # Changes

    async def change(self, make: Callable[[Room], tuple[Room, T]]) -> T:
        """Store the document `make` builds from the current one; returns make's second value
        (a new player's id, say)."""
        return await self._store(make, None)

    async def start_game(self, actor: str, action_id: str, begin: Begin) -> GameRunner:
        """Start a game (`begin` seats it in the document): the game is stored, then the room
        pointing at it; the new game becomes the runner."""
        self.runner = await self._store(
            lambda data: self._new_game(data, actor, action_id, begin), self._create_game
        )
        return self.runner

    def _new_game(
        self, data: Room, actor: str, action_id: str, begin: Begin
    ) -> tuple[Room, GameRunner]:
        game_id = secrets.token_urlsafe(9)
        data, teams = begin(data, actor, game_id, action_id)
        setup = {
            "options": data.options,
            "teams": teams,
            "seed": secrets.randbits(62),
            "now": self.ports.clock(),
        }
        runner = GameRunner.start(self.rules, game_id, setup)
        # A retry of an earlier game's action is not a new action, nor is a copy a faulty network
        # delivers late: the ids pile up over the room's games (network campaign, duplicates).
        if self.runner is not None:
            runner.applied_ids.update(self.runner.applied_ids)
        return data, runner

    async def _create_game(self, runner: GameRunner) -> None:
        """Store the game with who plays it (`game_players`), in one transaction."""
        await self.ports.store.create_game(
            runner.game_id,
            self.code,
            self.data.game,
            runner.setup,
            self.ports.clock(),
            game_players(self.data, runner.setup["teams"]),
        )

    async def _store(
        self,
        make: Callable[[Room], tuple[Room, T]],
        before_room: Callable[[T], Awaitable[None]] | None,
    ) -> T:
        """Build, (store what the room will point at,) store the room; on a version conflict
        reload and build again."""
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
            if before_room is not None:
                await before_room(extra)
            if await self._save(data):
                return extra
            row = await store.load_room(self.code)
            if row is None:
                raise Refused(ErrorCode.ROOM_NOT_FOUND, "the room is gone")
            self._adopt(row)  # pushed by the caller or a notice
        raise Refused(ErrorCode.BUSY, "the room changed concurrently; send again with the same id")

    async def _adopt_newer_room(self) -> bool:
        """Take the stored room when it is newer than this node's copy (and push it)."""
        row = await self.ports.store.load_room(self.code)
        if row is None or row.version <= self.version:
            return False
        self._adopt(row)
        self._on_adopt()
        return True

    def _adopt(self, row: RoomRow) -> None:
        """Hold the stored room: its document decoded (once, here) and its version."""
        self.data, self.version = model.load(row.data), row.version

    async def _save(self, data: Room) -> bool:
        ok = await self.ports.store.update_room(
            self.code,
            self.version,
            model.dump(data),  # encoded here, once per write
            public=data.public,
            waiting=data.status is RoomStatus.WAITING,
            now=self.ports.clock(),
        )
        if ok:
            self.data, self.version = data, self.version + 1
        return ok
