"""Play now and quick join over HTTP: rooms with bots started at once, and the public room
closest to starting found (or created) for a visitor."""

from __future__ import annotations

import time
from typing import Any

from server_harness import Client, new_room
from starlette.testclient import TestClient

from codebreakers.bots.base import Bot, BotMove
from codebreakers.bots.registry import GAMES, make_bot


class Idle:
    """A Decrypto bot that never moves: these tests look at seating, not at play (and the real
    bots' word tables would cost seconds to load)."""

    def decide(self, view: dict[str, Any]) -> BotMove | None:
        return None


def bots(game: str, **kw: Any) -> Bot:
    return Idle() if game == "decrypto" else make_bot(game, **kw)


BOTS = {"make_bot": bots, "bot_games": frozenset(GAMES)}


def play_now(http: TestClient, **body: Any) -> Any:
    return http.post("/api/play-now", json={"name": "Ann", **body})


def test_play_now_seats_the_visitor_with_bots_and_starts_decrypto(server_with) -> None:
    server = server_with(ports=BOTS)
    answer = play_now(server, game="decrypto", lang="fr")
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["url"].endswith(f"/r/{body['code']}")
    me = Client(server, body["code"], token=body["token"])
    assert me.you == body["you"]
    room = me.room
    assert room["status"] == "playing" and room["public"] is False
    assert room["options"]["words"] == "fr"
    kinds = {p["id"]: p["kind"] for p in room["players"]}
    my_team = next(p["team"] for p in room["players"] if p["id"] == body["you"])
    for team, slots in room["teams"].items():
        seated = [s for s in slots if s is not None]
        assert len(seated) == 2
        expected = 1 if team == my_team else 2
        assert sum(kinds[s] == "bot" for s in seated) == expected
    assert room["host"] == body["you"]
    view = me.expect("view")["view"] if me.view is None else me.view
    assert view["you"]["seat"] == body["you"]
    me.close()


def test_play_now_mastermind_is_a_solo_match_the_computer_plays(server_with) -> None:
    server = server_with(ports=BOTS)
    answer = play_now(server, game="mastermind", lang="ko")
    assert answer.status_code == 201, answer.text
    body = answer.json()
    me = Client(server, body["code"], token=body["token"])
    assert "words" not in me.room["options"]  # no word pool in this game
    assert [p["kind"] for p in me.room["players"]].count("bot") == 1
    # Round 1: the visitor breaks, so the computer (maker) sets its code by itself.
    deadline = time.monotonic() + 20
    while not (me.view and me.view["current"]["code_set"]):
        assert time.monotonic() < deadline, me.view
        me.recv()
    assert me.view["you"]["role"] == "breaker" and me.view["current"]["code"] is None
    me.close()


def test_play_now_refuses_bad_input_and_creates_nothing(server_with) -> None:
    server = server_with(ports=BOTS)
    assert play_now(server, game="chess").json()["error"]["code"] == "bots_unavailable"
    assert play_now(server, game="decrypto", name=" ").json()["error"]["code"] == "bad_name"
    bad = server.post("/api/play-now", json={"game": "decrypto", "name": "A", "x": 1})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_message"
    raw = server.post(
        "/api/play-now", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert raw.json()["error"]["code"] == "bad_json"
    assert play_now(server, game="decrypto", lang="xx").status_code == 201  # default pool
    node = server.app.state.node  # type: ignore[attr-defined]
    assert len(node.hubs) == 1


def test_play_now_without_bots_is_refused(server) -> None:
    answer = play_now(server, game="decrypto")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bots_unavailable"


def quick_join(http: TestClient, name: str, **body: Any) -> Any:
    answer = http.post("/api/quick-join", json={"name": name, **body})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_quick_join_creates_a_public_room_then_seats_the_next_visitor_there(server) -> None:
    first = quick_join(server, "Ann", lang="ru")
    assert first["created"] is True and first["offer_bots_after_s"] == 20.0
    listed = server.get("/api/rooms?open=true").json()["rooms"]
    assert [r["code"] for r in listed] == [first["code"]]
    assert listed[0]["options"]["words"] == "ru"
    second = quick_join(server, "Bob", lang="en")
    assert second["code"] == first["code"] and second["created"] is False
    ann = Client(server, first["code"], token=first["token"])
    bob = Client(server, second["code"], token=second["token"])
    assert (ann.you, bob.you) == (first["you"], second["you"])
    room = bob.room
    assert room["host"] == ann.you
    assert {p["name"]: p["team"] is not None for p in room["players"]} == {"Ann": True, "Bob": True}
    ann.close()
    bob.close()


def test_quick_join_prefers_the_room_closest_to_starting(server) -> None:
    def public_room(players: int) -> str:
        code = new_room(server)
        host = Client(server, code)
        host.join("H")
        host.ok({"type": "set_public", "public": True})
        for n in range(players - 1):
            Client(server, code).join(f"P{n}")
        return code

    public_room(1)
    three = public_room(3)  # one player short of two teams of two
    public_room(2)
    private = new_room(server)
    for n in range(3):
        Client(server, private).join(f"Q{n}")
    assert quick_join(server, "Zoe")["code"] == three


def test_quick_join_passes_a_room_where_the_name_is_taken(server) -> None:
    """A second "Ann" is not refused name_taken: quick join finds her another table."""
    first = quick_join(server, "Ann")
    second = quick_join(server, "ann")
    assert second["code"] != first["code"] and second["created"] is True
    assert quick_join(server, "Bob")["code"] == first["code"]


def test_quick_join_skips_full_rooms_and_other_games(server) -> None:
    mm = server.post("/api/rooms", json={"game": "mastermind", "public": True}).json()["code"]
    code = quick_join(server, "P0")["code"]
    assert code != mm
    for n in range(1, 8):  # two teams of at most four
        assert quick_join(server, f"P{n}")["code"] == code
    second = quick_join(server, "P8")
    assert second["created"] is True and second["code"] not in (code, mm)
    assert quick_join(server, "P9")["code"] == second["code"]


def test_quick_join_refuses_bad_input(server) -> None:
    bad = server.post("/api/quick-join", json={"name": "A", "game": "chess"})
    assert bad.json()["error"]["code"] == "unknown_game"
    assert server.post("/api/quick-join", json={"name": ""}).json()["error"]["code"] == "bad_name"
    assert server.post("/api/quick-join", json={}).json()["error"]["code"] == "bad_message"
    assert server.get("/api/rooms?open=true").json()["rooms"] == []
