"""The Mastermind computer player: the engine's move behind the server's Bot protocol.

Two computers play whole matches through the engine (automatic and manual marking), and a
person plays one against the computer through the real app, where the host seats it with
`add_bot` and it makes and breaks codes on its own.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from codebreakers.bots.mastermind import MastermindBot
from codebreakers.bots.registry import GAMES, make_bot
from codebreakers.bus import open_bus
from codebreakers.games.base import Rejection, Viewer
from codebreakers.games.mastermind.computer import computer_move
from codebreakers.games.mastermind.rules import MastermindRules
from codebreakers.games.registry import RULES_BY_NAME
from codebreakers.server.app import create_app
from codebreakers.server.ops.config import Ports, ServerConfig
from codebreakers.store import open_store

RULES = MastermindRules()


def _play(options: dict[str, Any], seed: int) -> tuple[Any, set[tuple[str, str]]]:
    """Two computers play a match through the engine; returns the end state and (seat, task)s."""
    state = RULES.new_game(
        {"options": options, "teams": {"a": ["A"], "b": ["B"]}, "seed": seed, "now": 0.0}
    )
    assert not isinstance(state, Rejection)
    bots = {
        seat: make_bot("mastermind", level="hard", lang="en", seed=0, seat=seat) for seat in "AB"
    }
    played: set[tuple[str, str]] = set()
    for _ in range(500):
        if RULES.is_over(state):
            return state, played
        moves = {s: bots[s].decide(RULES.view(state, Viewer(s))) for s in "AB"}
        assert sum(m is not None for m in moves.values()) == 1, moves  # exactly the waited seat
        seat, move = next((s, m) for s, m in moves.items() if m is not None)
        assert move is not None and move.chat is None
        played.add((seat, move.action["type"]))
        applied = RULES.apply(state, seat, RULES.parse_action(move.action), 0.0)
        assert not isinstance(applied, Rejection), applied
        state = applied.state
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("manual", [False, True])
def test_two_computers_play_a_whole_match(manual: bool) -> None:
    options = RULES.check_options({"preset": "classic", "rounds": 2, "manual_marking": manual})
    assert not isinstance(options, Rejection)
    state, played = _play(options, seed=7)
    view = RULES.view(state, Viewer(None))
    # Each seat made a code and broke one; honest manual keys never cost a replay.
    assert {("A", "set_code"), ("B", "set_code"), ("A", "guess"), ("B", "guess")} <= played
    assert (("A", "mark") in played) is manual and (("B", "mark") in played) is manual
    assert [h["result"] for h in view["history"]] == ["found", "found"]
    assert view["outcome"] is not None
    assert MastermindBot().decide(RULES.view(state, Viewer("A"))) is None


def test_unknown_level_is_refused_like_decrypto() -> None:
    assert "mastermind" in GAMES
    with pytest.raises(KeyError):
        make_bot("mastermind", level="genius", lang="en", seed=0, seat="A")


class _Tab:
    """A browser tab's socket, reduced to what this test needs."""

    def __init__(self, http: TestClient, code: str) -> None:
        self.ws = http.websocket_connect("/ws").__enter__()
        self.view: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.you: str | None = None
        self.ids = 0
        self.ws.send_text(json.dumps({"type": "hello", "room": code}))

    def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.receive_text())
        if frame["type"] == "view":
            self.view = frame["view"]
        elif frame["type"] == "room":
            self.room, self.you = frame["room"], frame["you"]
        return frame

    def ok(self, frame: dict[str, Any]) -> None:
        self.ids += 1
        self.ws.send_text(json.dumps({**frame, "id": f"t{self.ids}"}))
        got = self.recv()
        while got["type"] not in ("ack", "error") or got.get("id") != f"t{self.ids}":
            got = self.recv()
        assert got["type"] == "ack", got


def test_the_server_seats_the_computer_and_it_makes_and_breaks(tmp_path: Path) -> None:
    ports = Ports(
        store=open_store(f"sqlite:///{tmp_path / 'mm.db'}"),
        bus=open_bus(None),
        rules=RULES_BY_NAME,
        make_bot=make_bot,
        bot_games=frozenset(GAMES),
    )
    with TestClient(create_app(ports, ServerConfig(bot_delay_s=0.0))) as http:
        answer = http.post(
            "/api/rooms", json={"game": "mastermind", "options": {"preset": "classic"}}
        )
        assert answer.status_code == 201, answer.text
        tab = _Tab(http, answer.json()["code"])
        try:
            _play_against_the_computer(tab)
        finally:
            tab.ws.__exit__(None, None, None)


def _play_against_the_computer(tab: _Tab) -> None:
    """Ada seats the computer, starts, and plays her own turns as the solver would."""
    tab.ok({"type": "join", "name": "Ada"})
    assert tab.room is not None
    free = next(t for t, slots in tab.room["teams"].items() if None in slots)
    tab.ok({"type": "add_bot", "team": free, "index": 0, "level": "normal"})
    tab.ok({"type": "start"})
    deadline = time.monotonic() + 60
    while tab.view is None or tab.view["phase"] != "over":
        assert time.monotonic() < deadline
        view = tab.view
        if view is not None and any(w["seat"] == tab.you for w in view["waiting_for"]):
            action = computer_move(view)
            assert action is not None
            tab.ok({"type": "act", "action": action})
        else:
            tab.recv()
    history = tab.view["history"]
    bot = next(p["id"] for p in tab.room["players"] if p["kind"] == "bot")
    bot_team = next(t for t, slots in tab.room["teams"].items() if bot in slots)
    # The computer was maker in one round and breaker in the other, and both codes fell.
    assert {h["breaker"] for h in history} == {"a", "b"}
    assert any(h["breaker"] == bot_team and h["rows"] for h in history)
    assert [h["result"] for h in history] == ["found", "found"]
