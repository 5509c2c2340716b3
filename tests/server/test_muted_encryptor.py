"""The encryptor whose team decodes its transmission keeps a straight face in every channel:
the server refuses its chat lines, all chat included, until the decode is locked."""

from __future__ import annotations

from server_harness import start_game
from starlette.testclient import TestClient


def test_the_muted_encryptor_may_write_in_no_channel(server: TestClient) -> None:
    _, clients, table = start_game(server)
    table.step()  # the first encryptor transmits
    encryptor = next(
        c
        for c in clients
        if c.view
        and c.view["you"]["role"] == "encryptor"
        and c.view["rounds"][-1]["transmissions"][c.view["you"]["team"]]["clues"]
    )
    for channel in ("team", "all"):
        answer = encryptor.request({"type": "chat", "channel": channel, "text": "it's 1-2-3"})
        assert answer["code"] == "chat_not_allowed", channel
    assert encryptor.view is not None and encryptor.view["you"]["can_team_chat"] is False
    teammate = next(
        c
        for c in clients
        if c is not encryptor and c.view["you"]["team"] == encryptor.view["you"]["team"]  # type: ignore[index]
    )
    teammate.ok({"type": "chat", "channel": "all", "text": "hmm"})
