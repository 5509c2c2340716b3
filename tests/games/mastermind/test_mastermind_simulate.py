"""`codebreakers simulate mastermind`: the solver against every code or random ones, as JSON."""

from __future__ import annotations

import json

import pytest

from codebreakers.cli import main


def test_every_code_of_a_small_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "mastermind", "--pegs", "3", "--colours", "5", "--all", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 125
    assert sum(result["histogram"].values()) == 125
    assert result["worst_guesses"] == max(int(k) for k in result["histogram"])
    total = sum(int(k) * n for k, n in result["histogram"].items())
    assert result["average_guesses"] == round(total / 125, 4)
    assert result["moves"] == total
    assert 0 <= result["p50_move_ms"] <= result["p95_move_ms"] <= result["max_move_ms"]


def test_random_codes_are_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "mastermind", "--pegs", "4", "--colours", "6", "--games", "40"]
    runs = []
    for _ in range(2):
        assert main([*args, "--seed", "7", "--json"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0]["games"] == 40 and runs[0]["histogram"] == runs[1]["histogram"]
    assert runs[0]["worst_guesses"] <= 5


def test_sizes_out_of_range_are_refused() -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "mastermind", "--pegs", "7", "--colours", "8", "--all"])
