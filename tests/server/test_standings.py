"""The leaderboard and profile routes over HTTP: their answers, and bad input refused with a
stable code (nothing read past the check)."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient


def test_an_empty_leaderboard_has_the_documented_keys(server: TestClient) -> None:
    answer = server.get("/api/leaderboard?game=mastermind&page=2")
    assert answer.status_code == 200
    body = answer.json()
    assert {k: body[k] for k in ("game", "page", "entries")} == {
        "game": "mastermind",
        "page": 2,
        "entries": [],
    }
    assert body["more"] is False and body["min_games"] == 5
    default = server.get("/api/leaderboard").json()
    assert (default["game"], default["page"]) == ("decrypto", 1)


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("page=0", "bad_page"),
        ("page=21", "bad_page"),
        ("page=-1", "bad_page"),
        ("page=1.5", "bad_page"),
        ("page=abc", "bad_page"),
        ("page=%D9%A3", "bad_page"),  # an Arabic-Indic 3: a digit to str.isdigit, not to us
        ("page=", "bad_page"),
        ("game=chess", "unknown_game"),
        ("game=", "unknown_game"),
    ],
)
def test_bad_leaderboard_queries_are_refused(server: TestClient, query: str, code: str) -> None:
    answer = server.get(f"/api/leaderboard?{query}")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == code


def test_an_unknown_profile_is_not_found(server: TestClient) -> None:
    for profile_id in ("nobody", "x" * 200):
        answer = server.get(f"/api/profiles/{profile_id}")
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "profile_not_found"


def test_the_pages_are_the_client(server: TestClient) -> None:
    for path in ("/leaderboard", "/leaderboard?game=mastermind&page=3", "/u/someone"):
        answer = server.get(path)
        assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]
