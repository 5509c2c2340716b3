"""The Store: the game log over SQLite or PostgreSQL, with the SQL written once.

Each method is one transaction: a function from `queries.py` handed to the database's runner
(see `dialects.py`). Two nodes appending the same version to a game are told apart by the
database's primary key, never by this process.
"""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError

from codebreakers.store import dialects, migrate, queries
from codebreakers.store.base import (
    JSON,
    ActionRow,
    AppendResult,
    ChatLine,
    GameRow,
    RoomHead,
    RoomRow,
)


class SqlStore:
    """A Store over a sqlite:/// or postgresql:// URL."""

    def __init__(self, url: str) -> None:
        self._run = dialects.store_runner(url)
        self._open = False

    async def open(self) -> None:
        """Connect and migrate; a failure (database unreachable, bad schema) leaves it closed."""
        if self._open:
            raise RuntimeError("the store is already open")
        await self._run.open()
        try:
            await self._run.schema_change(migrate.upgrade)
        except BaseException:
            await self._run.close()
            raise
        self._open = True

    async def close(self) -> None:
        await self._run.close()
        self._open = False

    # Rooms

    async def create_room(self, row: RoomRow) -> bool:
        try:
            await self._run.write(queries.create_room, row)
        except IntegrityError:
            return False
        return True

    async def load_room(self, code: str) -> RoomRow | None:
        return await self._run.read(queries.load_room, code)

    async def update_room(
        self,
        code: str,
        expected_version: int,
        data: JSON,
        *,
        public: bool,
        waiting: bool,
        now: float,
    ) -> bool:
        return await self._run.write(
            queries.update_room, code, expected_version, data, public, waiting, now
        )

    async def list_rooms(self, *, public: bool, waiting: bool, limit: int) -> list[RoomRow]:
        """Most recently updated first."""
        return await self._run.read(queries.list_rooms, public, waiting, limit)

    # Games and their action log

    async def create_game(
        self, game_id: str, room_code: str, game: str, setup: JSON, now: float
    ) -> None:
        await self._run.write(queries.create_game, game_id, room_code, game, setup, now)

    async def load_game(self, game_id: str) -> GameRow | None:
        return await self._run.read(queries.load_game, game_id)

    async def append_action(self, game_id: str, row: ActionRow) -> AppendResult:
        """Append when the last version is `row.version - 1`; LookupError for an unknown game."""
        try:
            return await self._run.write(queries.append_action, game_id, row)
        except IntegrityError:
            # A rival committed between our check and our insert (PostgreSQL runs these
            # transactions concurrently): the primary key or the client id stopped us.
            return await self._run.read(queries.explain_append_conflict, game_id, row)

    async def actions_since(self, game_id: str, version: int) -> list[ActionRow]:
        """Actions with a version above `version`, in order."""
        return await self._run.read(queries.actions_since, game_id, version)

    async def find_action(self, game_id: str, seat: str, client_action_id: str) -> ActionRow | None:
        return await self._run.read(queries.find_action, game_id, seat, client_action_id)

    async def finish_game(self, game_id: str, outcome: JSON) -> None:
        """Mark the game over with its outcome; LookupError for an unknown game."""
        await self._run.write(queries.finish_game, game_id, outcome)

    async def live_games(self) -> list[str]:
        """Ids of games not over, oldest first."""
        return await self._run.read(queries.live_games)

    # Chat

    async def append_chat(
        self,
        room_code: str,
        game_id: str | None,
        channel: str,
        seat: str | None,
        name: str,
        text: str,
        at: float,
        client_id: str | None = None,
    ) -> ChatLine:
        """The line with the room's next sequence number (or the one a retry stored already);
        LookupError for an unknown room."""
        return await self._run.write(
            queries.append_chat, room_code, game_id, channel, seat, name, text, at, client_id
        )

    async def find_chat(self, room_code: str, seat: str, client_id: str) -> ChatLine | None:
        """The line `seat` sent with `client_id`, if stored (a retry's first copy)."""
        return await self._run.read(queries.find_chat, room_code, seat, client_id)

    async def chat_since(self, room_code: str, seq: int, limit: int = 500) -> list[ChatLine]:
        """Lines after `seq`, oldest first, at most `limit` of them."""
        return await self._run.read(queries.chat_since, room_code, seq, limit)

    async def chat_of_game(self, game_id: str) -> list[ChatLine]:
        return await self._run.read(queries.chat_of_game, game_id)

    async def room_head(self, room_code: str, game_id: str | None) -> RoomHead | None:
        return await self._run.read(queries.room_head, room_code, game_id)
