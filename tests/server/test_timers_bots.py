"""Timers fire `timeout` once the engine's deadline has passed; bots play through the server."""

from __future__ import annotations

from server_harness import (
    SCRIPTED_BOTS,
    Client,
    Clock,
    host_watching_four_bots,
    new_room,
    poke_timers,
    start_game,
    watch_until_over,
)
from starlette.testclient import TestClient


def test_a_clue_limit_submits_what_was_typed(server_with) -> None:
    clock = Clock()
    server = server_with(ports={"clock": clock})
    code, _, table = start_game(server, clue_limit_s=60)
    view = table.any_view()
    assert [d["kind"] for d in view["deadlines"]] == ["clue", "clue"]
    encryptor = table.by_seat[view["waiting_for"][0]["seat"]]
    encryptor.ok({"type": "act", "action": {"type": "draft", "clues": ["zqa", "zqb", ""]}})
    table.sync(1)

    poke_timers(server, code)  # not due yet: nothing happens
    clock.now += 61
    poke_timers(server, code)
    table.sync(2)
    view = table.any_view()
    statuses = {t: x["status"] for t, x in view["rounds"][-1]["transmissions"].items()}
    assert statuses == {"white": "decoding", "black": "decoding"}
    team = encryptor.view["you"]["team"]  # type: ignore[index]
    assert view["rounds"][-1]["transmissions"][team]["clues"] == ["zqa", "zqb", ""]


def test_four_bots_play_a_whole_game_for_a_watching_host(server_with) -> None:
    server: TestClient = server_with(ports=SCRIPTED_BOTS)
    host = host_watching_four_bots(server)
    kinds = {p["kind"] for p in host.room["players"] if p["team"]}
    assert kinds == {"bot"}
    assert host.request({"type": "add_bot", "team": "white", "index": 0, "level": "easy"})[
        "code"
    ] == ("seat_taken")
    host.ok({"type": "start"})
    watch_until_over(host)
    assert host.view["outcome"] is not None
    assert any(line["text"] == "done" for line in host.chat)
    while host.room["status"] != "over":
        host.recv()


def test_bots_are_refused_where_the_server_has_none(server: TestClient) -> None:
    host = Client(server, new_room(server))
    host.join("Host")
    answer = host.request({"type": "add_bot", "team": "black", "index": 1, "level": "easy"})
    assert answer["code"] == "bots_unavailable"


def test_an_action_after_its_deadline_finds_the_timeout_applied_first(server_with) -> None:
    """The clue limit passed but its timer hasn't run (slow, or the server restarted): the late
    transmit is judged after the overdue timeout, which sent what was typed."""
    clock = Clock()
    server = server_with(ports={"clock": clock})
    _, _, table = start_game(server, clue_limit_s=60)
    view = table.any_view()
    encryptor = table.by_seat[view["waiting_for"][0]["seat"]]
    encryptor.ok({"type": "act", "action": {"type": "draft", "clues": ["zqa", "zqb", ""]}})
    table.sync(1)
    clock.now += 61  # no timer runs: the action comes first
    late = {"type": "act", "action": {"type": "transmit", "clues": ["late", "too", "late"]}}
    answer = encryptor.request(late)
    assert answer["type"] == "error" and answer["code"] == "already_transmitted", answer
    table.sync(2)
    team = encryptor.view["you"]["team"]  # type: ignore[index]
    mine = table.any_view()["rounds"][-1]["transmissions"][team]
    assert mine["status"] == "decoding" and mine["clues"] == ["zqa", "zqb", ""]


def test_an_action_before_its_deadline_applies_no_timeout(server_with) -> None:
    clock = Clock()
    server = server_with(ports={"clock": clock})
    _, _, table = start_game(server, clue_limit_s=60)
    encryptor = table.by_seat[table.any_view()["waiting_for"][0]["seat"]]
    clock.now += 59
    encryptor.ok({"type": "act", "action": {"type": "transmit", "clues": ["on", "time", "yes"]}})
    table.sync(1)
    team = encryptor.view["you"]["team"]  # type: ignore[index]
    assert table.any_view()["rounds"][-1]["transmissions"][team]["clues"] == ["on", "time", "yes"]
