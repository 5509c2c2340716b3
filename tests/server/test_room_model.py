"""The room document's typed shape: old rows decode, other schemas and bad rows are refused."""

from __future__ import annotations

import msgspec
import pytest

from codebreakers.server.rooms import model
from codebreakers.server.rooms.model import Player, PlayerKind, Room, RoomStatus

# A room as the server stored it before documents carried a schema version (and before the
# `rematch` list existed), keys in the order it wrote them.
STORED_BEFORE = {
    "game": "decrypto",
    "options": {"three_player": False, "words": "en"},
    "public": True,
    "status": "playing",
    "host": "p1",
    "seats": {"white": ["p1", "p3", None, None], "black": ["p2", "p4", None, None]},
    "sizes": {"white": [2, 4], "black": [2, 4]},
    "players": {
        "p1": {"name": "Ann", "kind": "human", "level": None, "token_hash": "h1", "ids": ["j"]},
        "p2": {"name": "Bob", "kind": "human", "level": None, "token_hash": "h2", "ids": []},
        "p3": {"name": "Turing", "kind": "bot", "level": "hard", "token_hash": None, "ids": []},
        "p4": {"name": "Rejewski", "kind": "bot", "level": "easy", "token_hash": None, "ids": []},
    },
    "next_player": 5,
    "game_id": "g1",
    "games_played": 1,
    "base_url": "http://localhost:8000",
}


def test_a_room_stored_before_the_schema_version_decodes_as_schema_1() -> None:
    room = model.load(STORED_BEFORE)
    assert room.status is RoomStatus.PLAYING and room.host == "p1"
    assert room.seats["white"] == ("p1", "p3", None, None)
    assert room.sizes == {"white": (2, 4), "black": (2, 4)}
    assert room.players["p3"] == Player("Turing", PlayerKind.BOT, "hard", None, ())
    assert room.players["p1"].human and room.players["p1"].ids == ("j",)
    assert room.rematch == () and room.previous_game_id is None  # later fields: their defaults
    assert model.load(model.dump(room)) == room


def test_what_is_stored_is_the_old_shape_with_its_schema_version() -> None:
    stored = model.dump(model.load(STORED_BEFORE))
    players = {pid: {**p, "profile_id": None} for pid, p in STORED_BEFORE["players"].items()}
    added = {"rematch": [], "players": players, "previous_game_id": None}  # defaults, later fields
    assert stored == {"schema": model.SCHEMA, **STORED_BEFORE, **added}
    assert msgspec.json.encode(stored).startswith(b'{"schema":1,"game":"decrypto",')


def test_another_schema_or_a_broken_room_is_refused_not_misread() -> None:
    with pytest.raises(msgspec.ValidationError, match="schema"):
        model.load({**STORED_BEFORE, "schema": 2})
    with pytest.raises(msgspec.ValidationError, match="status"):
        model.load({**STORED_BEFORE, "status": "paused"})
    with pytest.raises(msgspec.ValidationError, match="players"):
        model.load({k: v for k, v in STORED_BEFORE.items() if k != "players"})


def test_rooms_and_players_are_frozen() -> None:
    room = model.load(STORED_BEFORE)
    with pytest.raises(AttributeError):
        room.host = "p2"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        room.players["p1"].name = "Eve"  # type: ignore[misc]
    assert isinstance(room, Room) and room.seats["black"][0] == "p2"
