"""Who played a game is stored with it: a started game's `game_players` rows, read from the
database file the in-process server writes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from server_harness import start_game
from starlette.testclient import TestClient


def test_a_started_game_records_each_seated_player_with_its_side(
    server: TestClient, tmp_path: Path
) -> None:
    _, clients, table = start_game(server)
    view = table.any_view()
    game_id = clients[0].room["game_id"] or view["game_id"]
    with sqlite3.connect(tmp_path / "t0.db") as db:
        rows = db.execute(
            "SELECT player_id, profile_id, seat, side, human, name FROM game_players"
            " WHERE game_id = ? ORDER BY player_id",
            (game_id,),
        ).fetchall()
    teams = {c.you: c.view["you"]["team"] for c in clients if c.view is not None}
    names = dict(zip((c.you for c in clients), "ABCD", strict=True))
    assert rows == [(pid, None, pid, teams[pid], 1, names[pid]) for pid in sorted(teams)]
