"""The port methods that are one query each, written once for both adapters.

Most of the store's ports are one query function run in one transaction: the SQLite adapter
runs it (a plain function on a sqlite3 connection) in a reader thread or through its group
committer, the PostgreSQL adapter (a coroutine on an asyncpg connection) on a pooled
connection. Which query modules and how `read` and `write` run them is the adapter's; the
mapping from a port method to its query, the same on both, is here. An adapter overrides what
it does its own way (PostgreSQL batches appends and room updates: `postgres/store.py`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from types import ModuleType
from typing import Any, ClassVar

from codebreakers.store.base import (
    JSON,
    ActionRow,
    AppendResult,
    ChatLine,
    GamePlayer,
    GameRow,
    PasskeyRow,
    ProfileGame,
    ProfileRoom,
    ProfileRow,
    RoomHead,
    RoomRow,
)


class QueryPorts:
    """Port methods as `read`/`write` of the adapter's `queries`, `profile_queries` and
    `challenge_queries`."""

    queries: ClassVar[ModuleType]
    profile_queries: ClassVar[ModuleType]
    challenge_queries: ClassVar[ModuleType]
    read: Callable[..., Awaitable[Any]]
    write: Callable[..., Awaitable[Any]]

    # Rooms

    async def create_room(self, row: RoomRow) -> bool:
        created: bool = await self.write(self.queries.create_room, row)
        return created

    async def load_room(self, code: str) -> RoomRow | None:
        found: RoomRow | None = await self.read(self.queries.load_room, code)
        return found

    async def list_rooms(self, *, public: bool, waiting: bool, limit: int) -> list[RoomRow]:
        rows: list[RoomRow] = await self.read(self.queries.list_rooms, public, waiting, limit)
        return rows

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
        updated: bool = await self.write(
            self.queries.update_room, code, expected_version, data, public, waiting, now
        )
        return updated

    async def room_head(self, room_code: str, game_id: str | None) -> RoomHead | None:
        head: RoomHead | None = await self.read(self.queries.room_head, room_code, game_id)
        return head

    # Games and their action log

    async def create_game(
        self,
        game_id: str,
        room_code: str,
        game: str,
        setup: JSON,
        now: float,
        players: Sequence[GamePlayer] = (),
    ) -> None:
        await self.write(self.queries.create_game, game_id, room_code, game, setup, now, players)

    async def load_game(self, game_id: str) -> GameRow | None:
        found: GameRow | None = await self.read(self.queries.load_game, game_id)
        return found

    async def append_action(self, game_id: str, row: ActionRow) -> AppendResult:
        result: AppendResult = await self.write(self.queries.append_action, game_id, row)
        return result

    async def actions_since(self, game_id: str, version: int) -> list[ActionRow]:
        rows: list[ActionRow] = await self.read(self.queries.actions_since, game_id, version)
        return rows

    async def find_action(self, game_id: str, seat: str, client_action_id: str) -> ActionRow | None:
        found: ActionRow | None = await self.read(
            self.queries.find_action, game_id, seat, client_action_id
        )
        return found

    async def finish_game(self, game_id: str, outcome: JSON) -> None:
        await self.write(self.queries.finish_game, game_id, outcome)

    async def live_games(self) -> list[str]:
        ids: list[str] = await self.read(self.queries.live_games)
        return ids

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
        profile_id: str | None = None,
    ) -> ChatLine:
        line: ChatLine = await self.write(
            self.queries.append_chat,
            room_code,
            game_id,
            channel,
            seat,
            name,
            text,
            at,
            client_id,
            profile_id,
        )
        return line

    async def find_chat(self, room_code: str, seat: str, client_id: str) -> ChatLine | None:
        found: ChatLine | None = await self.read(self.queries.find_chat, room_code, seat, client_id)
        return found

    async def chat_since(self, room_code: str, seq: int, limit: int = 500) -> list[ChatLine]:
        lines: list[ChatLine] = await self.read(self.queries.chat_since, room_code, seq, limit)
        return lines

    async def chat_of_game(self, game_id: str) -> list[ChatLine]:
        lines: list[ChatLine] = await self.read(self.queries.chat_of_game, game_id)
        return lines

    # Profiles

    async def create_profile(self, row: ProfileRow, secret_hash: str) -> None:
        await self.write(self.profile_queries.create_profile, row, secret_hash)

    async def load_profile(self, profile_id: str) -> ProfileRow | None:
        found: ProfileRow | None = await self.read(self.profile_queries.load_profile, profile_id)
        return found

    async def profile_by_secret(self, secret_hash: str) -> ProfileRow | None:
        found: ProfileRow | None = await self.read(
            self.profile_queries.profile_by_secret, secret_hash
        )
        return found

    async def update_profile(
        self, profile_id: str, *, name: str, language: str, hidden: bool
    ) -> bool:
        updated: bool = await self.write(
            self.profile_queries.update_profile, profile_id, name, language, hidden
        )
        return updated

    async def add_device(self, profile_id: str, secret_hash: str, now: float) -> None:
        await self.write(self.profile_queries.add_device, profile_id, secret_hash, now)

    async def forget_secret(self, secret_hash: str) -> None:
        await self.write(self.profile_queries.forget_secret, secret_hash)

    async def add_passkey(self, row: PasskeyRow) -> bool:
        added: bool = await self.write(self.profile_queries.add_passkey, row)
        return added

    async def find_passkey(self, credential_id: str) -> PasskeyRow | None:
        found: PasskeyRow | None = await self.read(self.profile_queries.find_passkey, credential_id)
        return found

    async def passkeys_of(self, profile_id: str) -> list[PasskeyRow]:
        keys: list[PasskeyRow] = await self.read(self.profile_queries.passkeys_of, profile_id)
        return keys

    async def use_passkey(self, credential_id: str, sign_count: int, now: float) -> bool:
        used: bool = await self.write(
            self.profile_queries.use_passkey, credential_id, sign_count, now
        )
        return used

    async def join_room(self, room_code: str, player_id: str, profile_id: str, now: float) -> None:
        await self.write(self.profile_queries.join_room, room_code, player_id, profile_id, now)

    async def rooms_of(self, profile_id: str, limit: int) -> list[ProfileRoom]:
        rooms: list[ProfileRoom] = await self.read(self.profile_queries.rooms_of, profile_id, limit)
        return rooms

    async def finished_games_of(self, profile_id: str, limit: int) -> list[ProfileGame]:
        games: list[ProfileGame] = await self.read(
            self.profile_queries.finished_games_of, profile_id, limit
        )
        return games

    # Passkey challenges

    async def put_challenge(
        self, secret_hash: str, ceremony: str, challenge: bytes, expires_at: float, now: float
    ) -> None:
        await self.write(
            self.challenge_queries.put_challenge, secret_hash, ceremony, challenge, expires_at, now
        )

    async def take_challenge(self, secret_hash: str, ceremony: str, now: float) -> bytes | None:
        taken: bytes | None = await self.write(
            self.challenge_queries.take_challenge, secret_hash, ceremony, now
        )
        return taken
