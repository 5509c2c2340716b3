"""Against a real `codebreakers serve` process: a whole game, and a SIGKILL in the middle of it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from real_server import RealServer
from server_harness import OPEN, Client, Table, new_room, start_game
from websockets.exceptions import ConnectionClosed


@pytest.fixture
def real(tmp_path: Path) -> Iterator[RealServer]:
    server = RealServer(tmp_path / "serve.db", tmp_path / "serve.log")
    server.start()
    yield server
    for client in list(OPEN):
        client.close()
    server.stop()


@pytest.mark.slow
def test_sigkill_mid_round_loses_no_acknowledged_action(real: RealServer) -> None:
    code = new_room(real, clue_limit_s=10)  # type: ignore[arg-type]
    clients = [Client(real, code) for _ in range(4)]  # type: ignore[arg-type]
    for client, name in zip(clients, "ABCD", strict=True):
        client.join(name)
    clients[0].ok({"type": "start"})
    started = time.monotonic()
    table = Table(clients)
    table.sync(0)
    clients[1].ok({"type": "chat", "channel": "all", "text": "before the crash"})
    ack = table.step()  # one encryptor transmits; the other one dawdles
    assert ack["version"] == 1
    assert [d["kind"] for d in clients[0].view["deadlines"]] == ["clue"]  # type: ignore[index]
    tokens = [(c.token, c.version) for c in clients]
    game_id = clients[0].room["game_id"]

    # A burst of private notes, and the kill as soon as three of them are acknowledged.
    notes = [
        {
            "type": "act",
            "id": f"note-{i}",
            "action": {"type": "note", "number": i % 4 + 1, "text": f"n{i}"},
        }
        for i in range(12)
    ]
    for frame in notes:
        clients[2].send(frame)
    acked: dict[str, int] = {}
    while len(acked) < 3:
        got = clients[2].recv()
        if got["type"] == "ack":
            acked[got["id"]] = got["version"]
    real.kill()
    for client in clients:
        OPEN.remove(client)
    real.start()

    back = [
        Client(real, code, token=token, game_id=game_id, game_version=0, chat_seq=0)  # type: ignore[arg-type]
        for token, _ in tokens
    ]
    assert [c.you for c in back] == [c.you for c in clients]
    stored = back[0].version
    assert stored >= 1 + len(acked) and all(c.version == stored for c in back)
    # Sent again after the restart, every note is acknowledged; none is applied twice.
    for frame in notes:
        back[2].send(frame)
    again: dict[str, int] = {}
    while len(again) < len(notes):
        got = back[2].recv()
        if got["type"] == "ack":
            again[got["id"]] = got["version"]
    assert all(again[i] == v for i, v in acked.items())
    assert len(set(again.values())) == len(notes)  # each stored once, at its own version
    assert back[2].view["notes"] == {"1": "n8", "2": "n9", "3": "n10", "4": "n11"}  # type: ignore[index]
    table = Table(back)
    table.sync(max(again.values()))
    assert [line["text"] for line in back[0].chat] == ["before the crash"]
    # The late encryptor's clue limit (10 s from the start) fires after the restart, or at the
    # restart itself when the machine took that long to come back: either way it is re-armed
    # from the stored game, not from anything the dead process held.

    # The dawdler's blank clues are submitted for it.
    table.clue_count = 100  # fresh clues: none may repeat one given before the crash

    def statuses() -> set[str]:
        view = back[0].view
        assert view is not None
        return {x["status"] for x in view["rounds"][-1]["transmissions"].values()}

    while statuses() != {"decoding"}:
        back[0].recv()
        assert time.monotonic() - started < 90
    assert time.monotonic() - started >= 10 - 0.5
    assert back[0].version == 1 + len(notes) + 1  # the notes, and one timeout
    table.sync(back[0].version)

    # Both codes are known to their encryptors only; finish the game by the book from here.
    for client in back:
        you = client.view["you"]  # type: ignore[index]
        mine = client.view["rounds"][-1]["transmissions"][you["team"]]  # type: ignore[index]
        if mine["code"] is not None:
            table.codes[(1, you["team"])] = mine["code"]
    table.play_out()
    assert back[0].view["outcome"]["winner"] == "black"  # type: ignore[index]
    record = real.get(f"/api/games/{game_id}/record").json()
    assert record["complete"]  # everything but the notes, which stay private to their author
    assert len(record["actions"]) == back[0].version - len(notes)

    # A graceful stop (SIGTERM) tells every tab to come back shortly.
    assert real.process is not None
    real.process.terminate()
    for client in back:
        assert client.expect("bye")["reason"] == "shutdown"


@pytest.mark.slow
def test_serve_on_granian_plays_a_game_and_stops_cleanly(tmp_path: Path) -> None:
    real = RealServer(tmp_path / "g.db", tmp_path / "g.log", ("--server", "granian"))
    real.start()
    try:
        _, clients, table = start_game(real)  # type: ignore[arg-type]
        table.play_out()
        assert clients[0].view["outcome"]["winner"] == "black"  # type: ignore[index]
        assert real.process is not None
        # granian closes the sockets before the app's shutdown runs, so no `bye` (tabs reconnect
        # on any close); the worker and the main process still stop cleanly.
        real.process.terminate()
        for client in clients:
            with pytest.raises(ConnectionClosed):
                client.expect("bye")
        assert real.process.wait(20) == 0
        assert "Traceback" not in real.log.read_text()
    finally:
        for client in list(OPEN):
            client.close()
        real.stop()
