"""The bot-only simulation and the `codebreakers bot` commands, end to end (small runs)."""

from __future__ import annotations

import argparse
import json

import pytest

from codebreakers.cli import main
from codebreakers.sim.decrypto_bots import simulate

TIMINGS = (
    "p95_transmission_ms",
    "p95_decode_ms",
    "p95_transmission_cpu_ms",
    "p95_decode_cpu_ms",
    "load_s",
    "seconds",
)


def _args(**kw: object) -> argparse.Namespace:
    base = {
        "games": 1,
        "seed": 4,
        "players": "4",
        "level": "hard",
        "opponent": None,
        "lang": "en",
        "json": True,
    }
    return argparse.Namespace(**(base | kw))


def _stable(result: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in result.items() if k not in TIMINGS}


def test_simulation_reports_and_is_deterministic() -> None:
    first = simulate(_args(opponent="baseline"))
    for key in (
        "games",
        "own_decode_accuracy",
        "interception_rate",
        "rounds",
        "end_reasons",
        "p95_transmission_ms",
        "p95_decode_ms",
        "winners",
    ):
        assert key in first
    assert first["games"] == 1 and sum(first["rounds"].values()) == 1  # type: ignore[union-attr]
    assert _stable(simulate(_args(opponent="baseline"))) == _stable(first)


def test_three_player_variant_with_a_solo_bot() -> None:
    result = simulate(_args(players="3", lang="fr", level="normal"))
    assert result["games"] == 1
    assert set(result["end_reasons"]) <= {"solo_interceptions", "pair_survived"}  # type: ignore[arg-type]
    assert result["interception_rate_by_team"]["white"] is None  # type: ignore[index]


def test_bot_decode_command(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "bot",
            "decode",
            "--lang",
            "en",
            "--keywords",
            "ocean,piano,dragon,winter",
            "--clues",
            "waves;snowman;fire breathing",
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["code"] == [1, 4, 3]
    assert 0.0 < out["confidence"] <= 1.0


def test_bot_clue_command(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "bot",
            "clue",
            "--lang",
            "ru",
            "--keywords",
            "океан,пианино,дракон,зима",
            "--code",
            "4-2-1",
            "--json",
        ]
    )
    assert code == 0
    clues = json.loads(capsys.readouterr().out)["clues"]
    assert len(clues) == 3 and len(set(clues)) == 3


def test_bot_commands_refuse_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "decode", "--keywords", "a,b", "--clues", "x;y;z"]) == 2
    assert main(["bot", "clue", "--keywords", "a,b,c,d", "--code", "1-1-2"]) == 2
    assert main(["bot", "decode", "--keywords", "a,b,c,d", "--clues", "x;y"]) == 2
    capsys.readouterr()
