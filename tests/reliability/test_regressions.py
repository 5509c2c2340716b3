"""Bugs the campaigns found, pinned (docs/reliability.md, "Found and fixed")."""

from __future__ import annotations

import time

import pytest
from server_harness import (
    SCRIPTED_BOTS,
    host_watching_four_bots,
    start_game,
)
from starlette.testclient import TestClient

from codebreakers.server.errors import Refused
from codebreakers.server.wire.messages import error_id, parse_client

DEEP = "[" * 20_000 + "]" * 20_000


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ('{"type":"act","id":"a","action":' + DEEP + "}", "bad_message"),
        ('{"type":"chat","id":"a","channel":"all","text":' + DEEP + "}", "bad_message"),
        ('{"type":{},"id":"a"}', "unknown_type"),
        ('{"type":[1],"id":"a"}', "unknown_type"),
    ],
)
def test_deep_nesting_and_odd_types_are_refused_not_crashes(frame: str, code: str) -> None:
    """Fuzz found RecursionError (msgspec decodes `Any` recursively) and an unhashable `type`,
    both answered `internal_error`; the deep one also killed the socket through `error_id`."""
    with pytest.raises(Refused) as refused:
        parse_client(frame)
    assert refused.value.code == code
    assert error_id(frame) in (None, "a")


def test_deeply_nested_room_options_over_http_are_a_400(server: TestClient) -> None:
    body = '{"game":"decrypto","options":{"custom_words":' + DEEP + "}}"
    answer = server.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_message"


def test_a_retried_last_action_is_acknowledged_even_after_a_rematch(server: TestClient) -> None:
    """Network faults found a retry of a game's final action answered `no_game`, and a retried
    note applied a second time to the rematch's game."""
    _, clients, table = start_game(server)
    note = {"type": "act", "id": "note-1", "action": {"type": "note", "number": 1, "text": "n"}}
    first = clients[1].request(note)
    assert first["type"] == "ack"
    last = None
    while table.any_view()["phase"] != "over":
        last = table.step()
    assert last is not None
    author = next(c for c in clients if c.version == last["version"] and c.raw)
    retried = author.request({"type": "act", "id": last["id"], "action": {"type": "review_done"}})
    assert retried == {"type": "ack", "id": last["id"], "version": last["version"]}
    clients[0].ok({"type": "rematch"})
    table.sync(0)
    again = clients[1].request(note)
    assert again["type"] == "ack" and again["version"] == first["version"]
    assert clients[1].version == 0  # nothing was applied to the new game


def test_bots_play_the_rematch_too(server_with) -> None:
    """Remembering the last game's action ids across a rematch (item 3) met bot ids made of the
    version alone, `bot-5` in both games: the rematch's bots were answered as retries and stuck.
    Bot ids now name their game."""
    server = server_with(ports=SCRIPTED_BOTS)
    host = host_watching_four_bots(server)
    host.ok({"type": "start"})
    games = []
    for rematch in (False, True):
        if rematch:
            host.ok({"type": "rematch"})
        deadline = time.monotonic() + 60
        while host.view is None or host.view["phase"] != "over" or host.room["status"] != "over":
            host.recv()
            assert time.monotonic() < deadline, "the bots stopped playing"
        games.append(host.room["game_id"])
    assert games[0] != games[1]
