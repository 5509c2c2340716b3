"""`codebreakers bench-ratings` at toy size on SQLite and PostgreSQL: it fills, reads through
the server's code and reports every figure (no figure compared with a target: those are
measured by the command itself, docs/performance.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codebreakers.campaigns.killable_nodes import postgres_database

KEYS = {
    "leaderboard_p99_ms",
    "profile_p99_ms",
    "rating_update_ms",
    "rating_update_p50_ms",
    "fill_s",
    "load_average",
}


def bench(*extra: str) -> dict:
    cmd = [sys.executable, "-m", "codebreakers.cli", "bench-ratings", "--json"]
    cmd += ["--profiles", "300", "--games", "2000", "--ends", "150", *extra]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def check(report: dict) -> None:
    assert report.keys() >= KEYS
    assert (report["profiles"], report["games"]) == (300, 2000)
    for key in ("leaderboard_p99_ms", "profile_p99_ms", "game_end_rated_p99_ms"):
        assert report[key] > 0


def test_on_sqlite() -> None:
    check(bench())


def test_a_filled_database_is_measured_again_and_again(tmp_path: Path) -> None:
    """--measure-only on a database filled and measured before: the game ends it times are
    new games every run."""
    url = f"sqlite:///{tmp_path / 'ratings.db'}"
    check(bench("--db", url))
    check(bench("--db", url, "--measure-only"))
    check(bench("--db", url, "--measure-only"))


@pytest.mark.postgres
def test_on_postgres(postgres_url: str) -> None:
    with postgres_database(postgres_url) as url:
        check(bench("--db", url))
