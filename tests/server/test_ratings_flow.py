"""Ratings as players meet them: browsers with profiles play whole games over the WebSocket,
then read their profiles and the leaderboard over HTTP (issue 22)."""

from __future__ import annotations

from typing import Any

import pytest
from server_harness import Client, Table
from starlette.testclient import TestClient
from test_identity import as_browser, visit

JSON = {"content-type": "application/json"}


def browsers(http: TestClient, n: int = 4) -> list[tuple[str, str]]:
    """n new browsers: (profile id, identity secret) each."""
    made = []
    for _ in range(n):
        as_browser(http, None)
        me, secret = visit(http)
        assert secret is not None
        made.append((me["profile_id"], secret))
    return made


def play_game(
    http: TestClient, people: list[tuple[str, str]], public: bool, **options: Any
) -> dict[str, str]:
    """A room where each browser joins, a whole game (Black wins: server_harness.Table); the
    team of each profile."""
    as_browser(http, None)
    answer = http.post(
        "/api/rooms", json={"game": "decrypto", "options": options, "public": public}
    )
    assert answer.status_code == 201, answer.text
    code = answer.json()["code"]
    clients = []
    for (profile, secret), name in zip(people, "ABCD", strict=False):
        as_browser(http, secret)
        client = Client(http, code)
        client.join(name)
        clients.append((profile, client))
    clients[0][1].ok({"type": "start"})
    table = Table([c for _, c in clients])
    table.sync(0)
    table.play_out()
    teams = {}
    for profile, client in clients:
        while client.room["status"] != "over":
            client.recv()
        assert client.view is not None
        teams[profile] = client.view["you"]["team"]
        client.close()
    return teams


def profile(http: TestClient, profile_id: str) -> dict[str, Any]:
    answer = http.get(f"/api/profiles/{profile_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_a_public_game_rates_both_teams_and_shows_on_profiles(server: TestClient) -> None:
    people = browsers(server)
    teams = play_game(server, people, public=True)
    assert sorted(teams.values()) == ["black", "black", "white", "white"]
    for pid, _ in people:
        shown = profile(server, pid)
        won = teams[pid] == "black"
        assert shown["played"] == [
            {
                "game": "decrypto",
                "variant": "teams",
                "games": 1,
                "wins": int(won),
                "draws": 0,
                "losses": int(not won),
            }
        ]
        [rating] = shown["ratings"]
        assert rating["game"] == "decrypto" and rating["games"] == 1
        # From a newcomer's 1050: winners up, losers down (a newcomer's sigma shrinks too).
        assert (rating["rating"] > 1050) == won
        assert [h["rating"] for h in rating["history"]] == [
            pytest.approx(rating["rating"], abs=0.5)
        ]  # rounded
        [last] = shown["last_games"]
        assert last["result"] == ("win" if won else "loss") and last["rated"] is True
        assert last["replay"] == f"/g/{last['game_id']}"
        # White misdecoded every own transmission (server_harness.Table).
        decrypto = shown["figures"]["decrypto"]
        assert decrypto["encrypted"] == 1 and decrypto["encrypted_decoded"] == int(won)


def test_a_private_game_is_rated_only_when_its_host_asked(server: TestClient) -> None:
    people = browsers(server)
    play_game(server, people, public=False)
    first = profile(server, people[0][0])
    assert first["ratings"] == [] and first["played"][0]["games"] == 1
    assert first["last_games"][0]["rated"] is False
    play_game(server, people, public=False, rated=True)
    second = profile(server, people[0][0])
    assert [r["games"] for r in second["ratings"]] == [1]
    assert second["played"][0]["games"] == 2


def test_humans_on_one_side_only_are_not_rated(server: TestClient) -> None:
    people = browsers(server, 2)
    as_browser(server, None)
    answer = server.post("/api/rooms", json={"game": "decrypto", "public": True})
    code = answer.json()["code"]
    clients = []
    for (_, secret), name in zip(people, "AB", strict=True):
        as_browser(server, secret)
        client = Client(server, code)
        client.join(name)
        clients.append(client)
    # Both on White; two profile-less browsers on Black.
    for client, index in zip(clients, (0, 1), strict=True):
        client.ok({"type": "take_seat", "team": "white", "index": index})
    for name in "CD":
        as_browser(server, None)
        other = Client(server, code)
        other.join(name)
        clients.append(other)
    clients[0].ok({"type": "start"})
    table = Table(clients)
    table.sync(0)
    table.play_out()
    for client in clients:
        while client.room["status"] != "over":
            client.recv()
    shown = profile(server, people[0][0])
    assert shown["ratings"] == [] and shown["played"][0]["losses"] == 1


def test_the_leaderboard_and_a_hidden_profile(server: TestClient) -> None:
    people = browsers(server)
    for _ in range(5):
        teams = play_game(server, people, public=True)
    hidden_id, hidden_secret = next((p, s) for p, s in people if teams[p] == "black")
    as_browser(server, hidden_secret)
    assert server.patch("/api/me", json={"hidden": True}, headers=JSON).status_code == 200
    assert profile(server, hidden_id)["hidden"] is True  # its owner still sees it
    as_browser(server, None)
    refused = server.get(f"/api/profiles/{hidden_id}")
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "profile_not_found"
    board = server.get("/api/leaderboard?game=decrypto&page=1").json()
    entries = board["entries"]
    assert [e["rank"] for e in entries] == [1, 2, 3]
    assert hidden_id not in {e["profile_id"] for e in entries}
    assert {e["profile_id"] for e in entries} == {p for p, _ in people} - {hidden_id}
    assert all(e["games"] == 5 for e in entries)
    assert [e["rating"] for e in entries] == sorted((e["rating"] for e in entries), reverse=True)
    assert teams[entries[0]["profile_id"]] == "black"  # the winner of five games leads
    assert set(entries[0]) >= {"rank", "profile_id", "name", "rating", "games"}
