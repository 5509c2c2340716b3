"""`codebreakers simulate decrypto`: complete random games, counted, as JSON."""

from __future__ import annotations

import json

import pytest

from codebreakers.cli import main


@pytest.mark.parametrize("players", ["3", "4", "5", "8"])
def test_simulate_prints_the_counts(players: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "decrypto", "--games", "30", "--seed", "4", "--players", players, "--json"]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 30 and result["games_per_s"] > 0
    assert result["engine"]["games_per_cpu_s"] > 0 and result["engine"]["us_per_action"] > 0
    assert sum(result["rounds"].values()) == 30
    assert sum(result["end_reasons"].values()) == 30
    assert sum(result["winners"].values()) == 30
    assert result["actions"] > 30 * 6
    max_rounds = 5 if players == "3" else 8
    assert all(1 <= int(r) <= max_rounds for r in result["rounds"])
    if players == "3":
        assert set(result["end_reasons"]) <= {"solo_interceptions", "pair_survived"}


def test_simulate_is_deterministic_and_views_change_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    keys = ("rounds", "end_reasons", "actions", "winners")
    runs = []
    for extra in ([], ["--views"]):
        assert main(["simulate", "decrypto", "--games", "12", "--seed", "9", "--json", *extra]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert [runs[0][k] for k in keys] == [runs[1][k] for k in keys]
    assert runs[1]["views"] is True and runs[1]["view_bytes_per_view"] > 500


@pytest.mark.parametrize("players", ["2", "9", "four"])
def test_simulate_refuses_bad_player_counts(
    players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "decrypto", "--games", "1", "--players", players]) == 2
    assert "--players" in capsys.readouterr().err
