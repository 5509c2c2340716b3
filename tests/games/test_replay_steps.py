"""Replays: each step is the chosen viewpoint's own view after that many actions, and nothing
else (no secret of another seat, no step for an action it could not see)."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from codebreakers.games import replays
from codebreakers.games.base import Viewer
from codebreakers.games.decrypto import RULES
from codebreakers.games.records import RecordError, build_record, check_envelope, fold
from codebreakers.games.replays import BadViewpoint, NotOver, TooLong, build_replay, viewpoints

sys.path.insert(0, str(Path(__file__).parent / "decrypto"))
from decrypto_table import Table

GOLDEN = Path(__file__).parents[1] / "golden" / "decrypto"
CHAT = [
    {"seat": "w1", "name": "Ann", "channel": "all", "text": "hello", "at": 1000.5},
    {"seat": "w2", "name": "Wes", "channel": "team", "text": "white secret plan", "at": 1001.0},
    {"seat": "b1", "name": "Bea", "channel": "team", "text": "black secret plan", "at": 1001.5},
]


def finished() -> dict[str, Any]:
    table = Table()
    table.do("b1", {"type": "note", "number": 2, "text": "b1 private note"})
    table.play_round(decoded=(False, True))
    table.play_round(decoded=(False, True))
    assert RULES.is_over(table.state)
    record = build_record("decrypto", table.setup, table.actions, CHAT)
    doc: dict[str, Any] = json.loads(json.dumps(record))
    return doc


def replay_of(doc: dict[str, Any], viewpoint: str) -> replays.Replay:
    rules, setup, actions = check_envelope(doc)
    return build_replay(rules, setup, actions, doc.get("chat", []), viewpoint)


def keywords(doc: dict[str, Any], team: str) -> list[str]:
    rules, setup, actions = check_envelope(doc)
    view = rules.view(fold(rules, setup, actions).state, Viewer(None, open_spectator=True))
    words: list[str] = view["teams"][team]["keywords"]
    return words


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.record.json")), ids=lambda p: p.stem)
def test_each_step_is_the_viewers_view_after_that_many_actions(path: Path) -> None:
    doc = json.loads(path.read_text())
    rules, setup, actions = check_envelope(doc)
    for viewpoint in viewpoints(setup["teams"]):
        viewer = replays.viewer_for(viewpoint, setup["teams"])
        replay = build_replay(rules, setup, actions, doc.get("chat", []), viewpoint)
        assert replay.steps[0].actions == 0 and replay.steps[0].at == setup["now"]
        counts = [step.actions for step in replay.steps]
        assert counts == sorted(set(counts)) and counts[-1] <= len(actions)
        kept = set(counts)
        previous = None
        for n in range(len(actions) + 1):
            view = rules.views_json(fold(rules, setup, actions[:n]).state, [viewer])[0]
            if n in kept:  # a step: what the viewer saw then, and something new
                step = replay.steps[counts.index(n)]
                assert step.view == view and view != previous
                assert step.at == (actions[n - 1]["at"] if n else setup["now"])
            else:  # no step: the action changed nothing this viewer sees
                assert view == previous
            previous = view
        final = json.loads(replay.steps[-1].view)
        assert final["phase"] == "over" and final["outcome"] == replay.outcome


def test_a_team_never_sees_the_enemy_keywords_before_the_end() -> None:
    doc = finished()
    black = keywords(doc, "black")
    for viewpoint in ("w1", "w2", replays.SPECTATOR):
        steps = replay_of(doc, viewpoint).steps
        for step in steps[:-1]:
            assert not any(f'"{word}"'.encode() in step.view for word in black), viewpoint
        assert all(f'"{word}"'.encode() in steps[-1].view for word in black)  # the end shows them
    # ...while Black sees its own from the start, and `all` sees every secret at every step.
    assert all(f'"{w}"'.encode() in replay_of(doc, "b1").steps[0].view for w in black)
    assert all(f'"{w}"'.encode() in replay_of(doc, replays.EVERYTHING).steps[0].view for w in black)


def test_other_seats_private_actions_leave_no_step_and_no_trace() -> None:
    doc = finished()
    note_at = next(i for i, a in enumerate(doc["actions"]) if a["action"]["type"] == "note")
    for viewpoint in ("w1", "b2", replays.SPECTATOR, replays.EVERYTHING):
        replay = replay_of(doc, viewpoint)
        assert note_at + 1 not in {step.actions for step in replay.steps}
        assert not any(b"b1 private note" in step.view for step in replay.steps)
    own = replay_of(doc, "b1")
    assert note_at + 1 in {step.actions for step in own.steps}


def test_chat_is_all_chat_and_the_viewers_own_team() -> None:
    doc = finished()
    assert [line["text"] for line in replay_of(doc, "w1").chat] == ["hello", "white secret plan"]
    assert [line["text"] for line in replay_of(doc, "b2").chat] == ["hello", "black secret plan"]
    assert [line["text"] for line in replay_of(doc, replays.SPECTATOR).chat] == ["hello"]
    first = {"channel": "all", "seat": "w1", "name": "Ann", "text": "hello", "at": 1000.5}
    assert replay_of(doc, "w1").chat[0] == first


def test_a_game_not_over_is_refused() -> None:
    doc = finished()
    doc["actions"] = doc["actions"][:-1]
    with pytest.raises(NotOver):
        replay_of(doc, "w1")


@pytest.mark.parametrize("viewpoint", ["b9", "", "system", "x" * 10_000])
def test_an_unknown_viewpoint_is_refused(viewpoint: str) -> None:
    with pytest.raises(BadViewpoint) as refused:
        replay_of(finished(), viewpoint)
    assert len(str(refused.value)) < 100  # the detail never echoes a long input


def test_the_work_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = finished()
    monkeypatch.setattr(replays, "MAX_ACTIONS", len(doc["actions"]) - 1)
    with pytest.raises(TooLong):
        replay_of(doc, "w1")
    monkeypatch.setattr(replays, "MAX_ACTIONS", len(doc["actions"]))
    replay_of(doc, "w1")
    monkeypatch.setattr(replays, "MAX_CHAT", 2)
    with pytest.raises(TooLong):
        replay_of(doc, "w1")


@pytest.mark.parametrize(
    "line",
    [
        "hi",
        {"channel": "shout", "text": "x", "seat": "w1", "at": 1.0},
        {"channel": "all", "text": 3, "seat": "w1", "at": 1.0},
        {"channel": "all", "text": "x" * 501, "seat": "w1", "at": 1.0},
        {"channel": "all", "text": "x", "seat": 5, "at": 1.0},
        {"channel": "all", "text": "x", "seat": "w1", "at": True},
        {"channel": "all", "text": "x", "seat": "w1", "at": 1.0, "name": ["Ann"]},
    ],
)
def test_malformed_chat_lines_are_refused(line: object) -> None:
    doc = finished()
    doc["chat"] = [copy.deepcopy(CHAT[0]), line]
    with pytest.raises(RecordError, match="chat line 1"):
        replay_of(doc, "w1")


def test_malformed_teams_are_refused() -> None:
    doc = finished()
    doc["setup"]["teams"] = {"white": "w1"}
    with pytest.raises(RecordError, match="teams"):
        replay_of(doc, "w1")
