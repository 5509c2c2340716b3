"""The pure room operations: seating, host powers, bots, options, start and rematch."""

from __future__ import annotations

import msgspec
import pytest

from codebreakers.server.errors import ERROR_CODES, Refused
from codebreakers.server.rooms import description, document, model, room_codes
from codebreakers.server.rooms.model import PlayerKind, Room
from codebreakers.server.rooms.tokens import new_token, token_hash

SIZES = {"white": (2, 4), "black": (2, 4)}


def room_with(*names: str) -> tuple[Room, list[str]]:
    data = document.new_room("decrypto", {"three_player": False}, SIZES, public=False)
    pids = []
    for i, name in enumerate(names):
        data, pid = document.join(data, name, token_hash(f"t{i}"), f"join-{i}")
        pids.append(pid)
    return data, pids


def refused(code: str, fn, *args) -> None:
    with pytest.raises(Refused) as caught:
        fn(*args)
    assert caught.value.code == code
    assert code in ERROR_CODES


def test_joiners_fill_the_emptier_team_and_the_first_is_host() -> None:
    data, (a, b, c) = room_with("Ann", "Bob", "Cid")
    assert data.host == a
    assert data.seats["white"][:2] == (a, c)
    assert data.seats["black"][0] == b
    assert document.player_for_token(data, token_hash("t1")) == b
    assert document.player_for_token(data, token_hash("nope")) is None


def test_operations_do_not_mutate_their_input() -> None:
    data, (a, _b) = room_with("Ann", "Bob")
    before = repr(data)
    document.take_seat(data, a, "black", 3, "x")
    document.set_public(data, a, True, "y")
    assert repr(data) == before


def test_names_are_checked() -> None:
    data, _ = room_with()
    refused("bad_name", document.join, data, "   ", "h", "1")
    refused("bad_name", document.join, data, "x" * 33, "h", "1")
    refused("bad_name", document.join, data, "a\x00b", "h", "1")
    assert document.join(data, "  Zoë  ", "h", "1")[0].players["p1"].name == "Zoë"


def test_seats_and_host_powers() -> None:
    data, (a, b, c) = room_with("Ann", "Bob", "Cid")
    refused("seat_taken", document.take_seat, data, c, "black", 0, "1")
    refused("no_such_seat", document.take_seat, data, c, "black", 4, "1")
    refused("no_such_seat", document.take_seat, data, c, "green", 0, "1")
    refused("not_host", document.move, data, b, a, "black", 1, "1")
    moved = document.move(data, a, c, "black", 0, "1")  # swap with Bob
    assert moved.seats["black"][0] == c and moved.seats["white"][1] == b
    spectator = document.move(data, a, b, None, 0, "2")
    assert document.seat_of(spectator, b) is None
    refused("not_host", document.remove, data, b, c, "1")
    gone = document.remove(data, a, a, "3")  # the host leaves: the next human hosts
    assert gone.host == b and a not in gone.players
    assert document.player_for_token(gone, token_hash("t0")) is None
    with_bot, bot = document.add_bot(data, a, "black", 1, "easy", "4")
    refused("not_a_human", document.transfer_host, with_bot, a, bot, "5")
    assert document.transfer_host(data, a, c, "6").host == c


def test_bots_options_start_and_rematch() -> None:
    data, (a, b) = room_with("Ann", "Bob")
    refused("teams_incomplete", document.start, data, a, "g1", "s")
    data, bot = document.add_bot(data, a, "white", 1, "hard", "b1")
    data, _ = document.add_bot(data, a, "black", 1, "easy", "b2")
    assert data.players[bot].kind is PlayerKind.BOT
    refused("not_host", document.start, data, b, "g1", "s")
    refused("game_not_over", document.rematch, data, a, "g1", "s")
    started, teams = document.start(data, a, "g1", "s")
    assert teams == {"white": [a, bot], "black": [b, "p4"]}
    assert started.status == "playing" and started.game_id == "g1"
    refused("game_running", document.take_seat, started, a, "white", 3, "1")
    refused("game_running", document.set_options, started, a, {}, SIZES, "1")
    refused("game_running", document.remove, started, a, b, "1")
    over = document.finish(started)
    again, teams_again = document.rematch(over, a, "g2", "r")
    assert teams_again == teams and again.games_played == 2
    three = document.set_options(
        data, a, {"three_player": True}, {"white": (2, 2), "black": (1, 1)}, "o"
    )
    assert three.seats == {"white": (a, bot), "black": (b,)}
    assert document.seat_of(three, "p4") is None


def test_a_bot_never_takes_a_players_name() -> None:
    data, (a, _) = room_with("Turing", "turing 2")
    data, bot = document.add_bot(data, a, "white", 1, "hard", "b1")
    data, _ = document.add_bot(data, a, "black", 1, "hard", "b2")
    names = [p.name for p in data.players.values()]
    assert len({document.name_key(n) for n in names}) == len(names)
    assert data.players[bot].name == document.BOT_NAMES[1]


def test_remembered_ids_detect_retries() -> None:
    data, (a, _b) = room_with("Ann", "Bob")
    data = document.set_public(data, a, True, "pub-1")
    assert document.seen_id(data, a, "pub-1") and not document.seen_id(data, a, "pub-2")


def test_description_lists_no_token_hash() -> None:
    data, (a, _b) = room_with("Ann", "Bob")
    described = description.describe(data, "ABCDEF", {a}, "http://x/r/ABCDEF", 3)
    assert "token" not in repr(described) and token_hash("t0") not in repr(described)
    assert [p.connected for p in described.players] == [True, False]


def test_codes_and_tokens() -> None:
    code = room_codes.new_code()
    assert len(code) == 6 and not set(code) & set("01OI")
    assert room_codes.normalise(code.lower()) == code
    assert room_codes.normalise(" abc-def ") == "ABCDEF"
    assert room_codes.normalise("ABCDE0") is None
    assert len({new_token() for _ in range(100)}) == 100
    assert len(new_token()) >= 32  # 24 bytes = 192 bits


def test_every_room_an_operation_builds_is_stored_and_read_back_as_it_was() -> None:
    data, (a, b) = room_with("Ann", "Bob")
    data, _ = document.add_bot(data, a, "white", 1, "hard", "b1")
    data, _ = document.add_bot(data, a, "black", 1, "easy", "b2")
    data = document.play_again(document.finish(document.start(data, a, "g1", "s")[0]), b, "p")
    stored = model.dump(data)
    assert stored["schema"] == model.SCHEMA and stored["rematch"] == [b]
    assert model.load(msgspec.json.decode(msgspec.json.encode(stored))) == data


def test_the_description_lists_its_fields_in_the_protocols_order() -> None:
    data, (a, _b) = room_with("Ann", "Bob")
    described = msgspec.json.decode(
        msgspec.json.encode(description.describe(data, "ABCDEF", {a}, "u", 3))
    )
    assert list(described) == [
        "code", "game", "options", "public", "status", "host", "teams", "team_sizes",
        "players", "game_id", "games_played", "rematch", "version", "url",
    ]  # fmt: skip
    assert list(described["players"][0]) == [
        "id", "name", "kind", "level", "connected", "team", "index",
    ]  # fmt: skip
    assert described["teams"]["white"] == ["p1", None, None, None]
    assert described["status"] == "waiting" and described["players"][1]["kind"] == "human"


def test_a_profile_finds_the_player_it_joined_as_and_only_that_one_is_rekeyed() -> None:
    data = document.new_room("decrypto", {"three_player": False}, SIZES, public=False)
    data, watcher = document.join(data, "Ana", token_hash("t1"), "j1", watch=True, profile_id="pa")
    data, seated = document.join(data, "Ana 2", token_hash("t2"), "j2", profile_id="pa")
    data, other = document.join(data, "Bea", token_hash("t3"), "j3", profile_id="pb")
    data, _ = document.add_bot(data, watcher, "black", 1, "easy", "b1")
    assert document.player_of_profile(data, "pa") == seated  # the seated one first
    assert document.player_of_profile(data, "pb") == other
    assert document.player_of_profile(data, "nobody") is None
    rekeyed = document.rekey(data, seated, token_hash("new"))
    assert document.player_for_token(rekeyed, token_hash("new")) == seated
    assert document.player_for_token(rekeyed, token_hash("t2")) is None
    assert {p: v for p, v in rekeyed.players.items() if p != seated} == {
        p: v for p, v in data.players.items() if p != seated
    }
    refused("no_such_player", document.rekey, data, "p99", token_hash("x"))
