"""`check`: the engine judges a game action without applying it, so the encryptor's panel shows
the server's own clue rules at the input, before the player commits (docs/protocol.md)."""

from __future__ import annotations

from server_harness import Client, start_game
from starlette.testclient import TestClient


def encryptor(clients: list[Client]) -> tuple[Client, list[str]]:
    """White's encryptor this round, and its keywords."""
    for client in clients:
        view = client.view
        assert view is not None
        team = view["you"]["team"]
        if team == "white" and view["rounds"][-1]["transmissions"][team]["code"]:
            return client, view["teams"][team]["keywords"]
    raise AssertionError("no white encryptor")


def test_check_answers_with_the_engines_refusal_and_applies_nothing(server: TestClient) -> None:
    _code, clients, _table = start_game(server)
    enc, keywords = encryptor(clients)
    version = enc.version

    def check(clues: list[str]) -> dict[str, object]:
        return enc.request({"type": "check", "action": {"type": "transmit", "clues": clues}})

    plural = keywords[0].lower() + "s"  # a form of one's own keyword, as the engine sees it
    refused = check(["zqa", plural, "zqc"])
    assert (refused["type"], refused["code"], refused["detail"]) == (
        "error",
        "clue_is_keyword",
        "clue 2",
    )
    assert check(["zqa", "zqa", "zqc"])["code"] == "clue_reused"  # twice in one transmission
    assert check(["zqa", "", "zqc"])["code"] == "blank_clue"
    assert check(["zqa", "zqb", "zqc"])["type"] == "ack"
    enc.ok({"type": "act", "action": {"type": "transmit", "clues": ["zqa", "zqb", "zqc"]}})
    version += 1
    assert enc.version == version  # only the transmission was applied, not the checks
    assert check(["zqd", "zqe", "zqf"])["code"] == "already_transmitted"


def test_check_is_for_seated_players_of_a_running_game(server: TestClient) -> None:
    code, clients, _table = start_game(server)
    watcher = Client(server, code)
    watcher.join("Zed")
    action = {"type": "transmit", "clues": ["a", "b", "c"]}
    assert watcher.request({"type": "check", "action": action})["code"] == "not_seated"
    assert clients[0].request({"type": "check", "action": {"type": "nope"}})["code"] == (
        "unknown_action"
    )
