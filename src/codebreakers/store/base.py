"""The store's ports and their row types: what the server sees of the database.

Three narrow ports, one per kind of data, so code can ask for only what it uses:

- `GameLog`: games as a setup plus an append-only list of actions whose `version` (1, 2, ...)
  is checked inside the transaction that appends, so two nodes can never both apply an action
  at the same version;
- `Rooms`: small JSON documents updated with an optimistic version check;
- `Chat`: lines that belong to a room and carry a per-room sequence number;
- `Profiles`: lasting player identities (a browser's cookie secret, passkeys) and the rooms and
  games each one played, for "your games";
- `PasskeyChallenges`: the WebAuthn challenges of ceremonies under way, in the database so that
  any node can check the answer to a challenge another node issued.

`Store` is all five with `open`/`close`: what `open_store` returns and a node holds. Each
database has one adapter that implements it (`sqlite.py`, `postgres.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

JSON = dict[str, Any]


class StoreBusy(Exception):
    """The database could not take the call in time: nothing was done, and the same call may
    be tried again.

    Raised by the adapters once their own bounded wait is over: on SQLite after another
    process held the write lock for `sqlite.BUSY_TIMEOUT_MS` (the adapter tries again with
    backoff meanwhile), on PostgreSQL when no pooled connection came free in
    `postgres.POOL_TIMEOUT_S`. It is the one overload error a caller has to know."""


@dataclass(frozen=True, slots=True)
class RoomRow:
    code: str
    game: str
    data: JSON
    version: int
    public: bool
    waiting: bool
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class ActionRow:
    version: int
    seat: str
    client_action_id: str | None
    action: JSON
    at: float


@dataclass(frozen=True, slots=True)
class GameRow:
    id: str
    room_code: str
    game: str
    setup: JSON
    created_at: float
    over: bool
    outcome: JSON | None
    actions: list[ActionRow] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ChatLine:
    seq: int
    room_code: str
    game_id: str | None
    channel: str  # "all" or "team:<team name>"
    seat: str | None  # None for spectators and system lines
    name: str
    text: str
    at: float
    client_id: str | None = None  # the sender's message id, so a retry is stored once
    profile_id: str | None = None  # the sender's profile (None: anonymous, or a system line)


@dataclass(frozen=True, slots=True)
class GamePlayer:
    """A seated player of a game, as `create_game` records it in `game_players`."""

    player_id: str  # the room's id for the player ("p3")
    seat: str  # the game engine's seat
    side: str  # the team (Decrypto) or side (Mastermind)
    human: bool
    name: str
    profile_id: str | None = None  # None: a bot, or a person without a profile


GAME_PLAYER_COLUMNS = "player_id, profile_id, seat, side, human, name"


def game_player_values(p: GamePlayer) -> tuple[Any, ...]:
    """A `game_players` row's values after its game id, in GAME_PLAYER_COLUMNS order."""
    return (p.player_id, p.profile_id, p.seat, p.side, p.human, p.name)


@dataclass(frozen=True, slots=True)
class ProfileRow:
    id: str
    name: str
    language: str
    created_at: float
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class PasskeyRow:
    credential_id: str  # base64url
    profile_id: str
    public_key: bytes
    sign_count: int
    transports: list[str]
    created_at: float
    last_used_at: float | None = None


@dataclass(frozen=True, slots=True)
class ProfileRoom:
    """A room a profile joined, newest first in `Profiles.rooms_of`."""

    room: RoomRow
    player_id: str
    joined_at: float


@dataclass(frozen=True, slots=True)
class ProfileGame:
    """A finished game a profile played, newest first in `Profiles.finished_games_of`."""

    game_id: str
    room_code: str
    game: str
    created_at: float
    outcome: JSON | None
    player_id: str
    side: str


@dataclass(frozen=True, slots=True)
class RoomHead:
    """How far a room has gone in the store: what a node compares with what it holds."""

    room_version: int
    game_version: int  # of the game asked about (0: none, or no action yet)
    chat_seq: int  # 0: no line yet


class AppendResult(Enum):
    """Stable values: they reach logs and metrics."""

    APPENDED = "appended"
    VERSION_CONFLICT = "version_conflict"  # someone else appended at that version first
    DUPLICATE = "duplicate"  # (game, seat, client_action_id) was already appended


class GameLog(Protocol):
    """Games and their action log."""

    async def create_game(
        self,
        game_id: str,
        room_code: str,
        game: str,
        setup: JSON,
        now: float,
        players: Sequence[GamePlayer] = (),
    ) -> None:
        """Store a new game and who plays it (`game_players`), in one transaction."""
        ...

    async def load_game(self, game_id: str) -> GameRow | None:
        """The game with every action, in version order."""
        ...

    async def append_action(self, game_id: str, row: ActionRow) -> AppendResult:
        """Append `row` when the game's last version is `row.version - 1`, in one transaction;
        LookupError for an unknown game."""
        ...

    async def actions_since(self, game_id: str, version: int) -> list[ActionRow]:
        """Actions with a version above `version`, in order."""
        ...

    async def find_action(
        self, game_id: str, seat: str, client_action_id: str
    ) -> ActionRow | None: ...

    async def finish_game(self, game_id: str, outcome: JSON) -> None:
        """Mark the game over with its outcome; LookupError for an unknown game."""
        ...

    async def live_games(self) -> list[str]:
        """Ids of games not over, oldest first: to re-arm timers and bots after a restart."""
        ...


class Rooms(Protocol):
    """Rooms as versioned documents, and how far a room has gone."""

    async def create_room(self, row: RoomRow) -> bool:
        """False when the code is taken."""
        ...

    async def load_room(self, code: str) -> RoomRow | None: ...

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
        """Replace the room's data when its version is still `expected_version` (then +1)."""
        ...

    async def list_rooms(self, *, public: bool, waiting: bool, limit: int) -> list[RoomRow]:
        """Most recently updated first."""
        ...

    async def room_head(self, room_code: str, game_id: str | None) -> RoomHead | None:
        """The room's versions (its own, the game's, its chat's) in one read; None for an
        unknown room."""
        ...


class Chat(Protocol):
    """Chat lines of a room."""

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
        """Store a line with the room's next sequence number; LookupError for an unknown room.

        When `(room_code, seat, client_id)` was stored already, the line stored then is returned
        unchanged (a retried message is never stored twice, also across restarts).
        """
        ...

    async def find_chat(self, room_code: str, seat: str, client_id: str) -> ChatLine | None:
        """The line `seat` sent with `client_id`, if stored: a retry is known by it, across
        restarts and nodes (migration 0003)."""
        ...

    async def chat_since(self, room_code: str, seq: int, limit: int = 500) -> list[ChatLine]:
        """Lines after `seq`, oldest first, at most `limit` of them."""
        ...

    async def chat_of_game(self, game_id: str) -> list[ChatLine]: ...


class Profiles(Protocol):
    """Lasting identities. A browser is known by the hash of its cookie secret (the server
    hashes; the store never sees a secret): the one that made the profile (`profiles`), or one
    signed in later with a passkey (`profile_devices`)."""

    async def create_profile(self, row: ProfileRow, secret_hash: str) -> None:
        """Store a new profile known by `secret_hash`; an existing id or hash raises."""
        ...

    async def load_profile(self, profile_id: str) -> ProfileRow | None: ...

    async def profile_by_secret(self, secret_hash: str) -> ProfileRow | None:
        """The profile a browser's secret names, whichever table holds it."""
        ...

    async def update_profile(
        self, profile_id: str, *, name: str, language: str, hidden: bool
    ) -> bool:
        """False for an unknown profile."""
        ...

    async def add_device(self, profile_id: str, secret_hash: str, now: float) -> None:
        """Another browser, signed in with a passkey, is known by `secret_hash` too."""
        ...

    async def forget_secret(self, secret_hash: str) -> None:
        """Sign a browser out: its secret names no profile any more (the profile stays)."""
        ...

    async def add_passkey(self, row: PasskeyRow) -> bool:
        """False when the credential is stored already (for any profile)."""
        ...

    async def find_passkey(self, credential_id: str) -> PasskeyRow | None: ...

    async def passkeys_of(self, profile_id: str) -> list[PasskeyRow]:
        """Oldest first."""
        ...

    async def use_passkey(self, credential_id: str, sign_count: int, now: float) -> bool:
        """Record a sign-in: the authenticator's new counter and the time; False when the
        credential is unknown."""
        ...

    async def join_room(self, room_code: str, player_id: str, profile_id: str, now: float) -> None:
        """Remember that `profile_id` plays `player_id` in the room (again: kept as it was)."""
        ...

    async def rooms_of(self, profile_id: str, limit: int) -> list[ProfileRoom]:
        """The rooms the profile joined, most recently joined first."""
        ...

    async def finished_games_of(self, profile_id: str, limit: int) -> list[ProfileGame]:
        """The finished games the profile played, newest first."""
        ...


class PasskeyChallenges(Protocol):
    """Challenges of WebAuthn ceremonies under way, by (the browser's secret hash, ceremony):
    one at a time per key, used once, refused and swept once expired. Times are the caller's
    (seconds since the epoch), as everywhere in the store."""

    async def put_challenge(
        self, secret_hash: str, ceremony: str, challenge: bytes, expires_at: float, now: float
    ) -> None:
        """Hold `challenge` until `expires_at`, replacing one held for the same key; challenges
        expired at `now` (anyone's) are deleted in the same transaction."""
        ...

    async def take_challenge(self, secret_hash: str, ceremony: str, now: float) -> bytes | None:
        """The challenge held for the key, deleted in the same statement (so two answers at
        once get it once between them); None when there is none or it expired before `now`."""
        ...


class Store(GameLog, Rooms, Chat, Profiles, PasskeyChallenges, Protocol):
    """The five ports over one database, with its life cycle."""

    async def open(self) -> None:
        """Connect and bring the schema to the newest Alembic revision; a failure (database
        unreachable, bad schema) leaves it closed."""
        ...

    async def close(self) -> None: ...
