"""Game records: build, export (what a viewer may take away), replay, and the golden records."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from codebreakers.cli import main
from codebreakers.games.base import Viewer
from codebreakers.games.decrypto import RULES
from codebreakers.games.records import (
    RecordError,
    build_record,
    export_record,
    fold,
    replay,
)
from codebreakers.sim.replay import summary

sys.path.insert(0, str(Path(__file__).parent / "decrypto"))
from decrypto_table import Table

GOLDEN = Path(__file__).parents[1] / "golden" / "decrypto"
CHAT = [
    {"seat": "w1", "channel": "all", "text": "hello", "at": 1000.5},
    {"seat": "w2", "channel": "team", "text": "white secret plan", "at": 1001.0},
    {"seat": "b1", "channel": "team", "text": "black secret plan", "at": 1001.5},
]


def finished_table() -> Table:
    table = Table()
    table.do("w2", {"type": "note", "number": 1, "text": "w2 private note"})
    table.do("b1", {"type": "note", "number": 2, "text": "b1 private note"})
    table.play_round(decoded=(False, True))
    table.play_round(decoded=(False, True))
    assert RULES.is_over(table.state)
    return table


def test_state_is_the_fold_of_its_actions() -> None:
    table = finished_table()
    record = build_record("decrypto", table.setup, table.actions, CHAT)
    record = json.loads(json.dumps(record))  # through JSON, as stored
    replayed = replay(record)
    assert replayed.state == table.state
    assert replayed.actions == len(table.actions)
    assert fold(RULES, table.setup, table.actions[:5]).state.current.number == 1


def test_the_first_bad_action_is_named() -> None:
    table = finished_table()
    record = build_record("decrypto", table.setup, table.actions)
    bad = copy.deepcopy(record)
    bad["actions"][4]["seat"] = "w1"  # the encryptor, not the decider, locks
    with pytest.raises(RecordError) as error:
        replay(bad)
    assert error.value.index == 4
    assert str(error.value) == "action 4 (seat 'w1', type 'lock') refused: not_decider"
    malformed = copy.deepcopy(record)
    malformed["actions"][2]["action"] = {"type": "lock", "target": "own", "code": [1, 1, 1]}
    with pytest.raises(RecordError, match=r"action 2 .*invalid_code"):
        replay(malformed)
    missing = copy.deepcopy(record)
    del missing["actions"][1]["at"]
    with pytest.raises(RecordError, match="action 1: needs exactly seat, action and at"):
        replay(missing)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chess"}, "format"),
        ({"version": 2}, "unsupported version"),
        ({"game": "poker"}, "unknown game"),
        ({"complete": False}, "partial record"),
        ({"setup": []}, "setup"),
        ({"actions": {}}, "actions"),
        ({"setup": {"options": {}, "teams": {}, "seed": 1, "now": 0}}, "setup refused"),
    ],
)
def test_bad_envelopes(change: dict[str, Any], message: str) -> None:
    table = Table()
    record = build_record("decrypto", table.setup, []) | change
    with pytest.raises(RecordError, match=message):
        replay(record)
    with pytest.raises(RecordError):
        replay([1, 2])


def test_export_during_the_game_hides_the_seed_and_actions() -> None:
    table = Table()
    table.transmit("white")
    partial = export_record("decrypto", table.setup, table.actions, CHAT, Viewer("b1"))
    assert partial["complete"] is False and partial["actions"] is None
    text = json.dumps(partial)
    assert "seed" not in text and str(table.setup["seed"]) not in text
    assert not any(word in text for word in table.state.table.keywords[0])
    assert partial["view"] == RULES.view(table.state, Viewer("b1"))
    assert [line["text"] for line in partial["chat"]] == ["hello", "black secret plan"]
    spectator = export_record("decrypto", table.setup, table.actions, CHAT, Viewer(None))
    assert [line["text"] for line in spectator["chat"]] == ["hello"]
    with pytest.raises(RecordError, match="partial"):
        replay(partial)
    cheat = export_record("decrypto", table.setup, table.actions, CHAT, Viewer("b1", True))
    assert cheat["complete"] is False and "seed" not in json.dumps(cheat)
    full = export_record("decrypto", table.setup, table.actions, CHAT, Viewer(None, True))
    assert full["complete"] is True and replay(full).state == table.state
    assert len(full["chat"]) == 3


def test_export_after_the_game_is_replayable_without_others_private_notes() -> None:
    table = finished_table()
    record = export_record("decrypto", table.setup, table.actions, CHAT, Viewer("w2"))
    assert record["complete"] is True and record["setup"]["seed"] == table.setup["seed"]
    text = json.dumps(record)
    assert "w2 private note" in text and "b1 private note" not in text
    assert "black secret plan" not in text and "white secret plan" in text
    replayed = replay(record)
    assert RULES.outcome(replayed.state) == RULES.outcome(table.state)
    assert replayed.state.tokens == table.state.tokens


def golden_names() -> list[str]:
    return sorted(path.name.removesuffix(".record.json") for path in GOLDEN.glob("*.record.json"))


def test_there_are_golden_records() -> None:
    assert len(golden_names()) >= 8


@pytest.mark.parametrize("name", golden_names())
def test_golden_records_replay_to_their_expected_outcome(name: str) -> None:
    record = json.loads((GOLDEN / f"{name}.record.json").read_text(encoding="utf-8"))
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    assert summary(replay(record)) == expected


def test_replay_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = GOLDEN / "three-player-solo-wins.record.json"
    assert main(["replay", str(source)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["outcome"]["winner"] == "black"
    assert printed["outcome"]["reason"] == "solo_interceptions"
    assert printed["tokens"] == {
        "white": {"interception": 0, "miscommunication": 0},
        "black": {"interception": 2, "miscommunication": 0},
    }
    assert printed["rounds"] == 2
    record = json.loads(source.read_text(encoding="utf-8"))
    record["actions"][3]["action"]["code"] = [9, 9, 9]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "action 3" in err and "invalid_code" in err
    (tmp_path / "junk.json").write_text("{not json", encoding="utf-8")
    assert main(["replay", str(tmp_path / "junk.json")]) == 2
    assert "not a JSON document" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
