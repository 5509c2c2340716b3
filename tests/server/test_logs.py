"""Structured logs: one JSON object per line, the context (room, game, seat) as fields bound
where it is known, never pasted into the text, and never a seat token."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from server_harness import Client, Table, new_room
from starlette.testclient import TestClient

from codebreakers.server.ops import logs
from codebreakers.server.ops.logs import REDACTED, JsonFormatter, TextFormatter, get_logger
from codebreakers.server.wire.messages import Chat
from codebreakers.server.ws import endpoint
from codebreakers.store.base import StoreBusy


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    """Every log line of the test, everything at DEBUG, as serve writes them (JSON)."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def entries(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_bound_context_is_fields_of_the_line_not_its_text(captured: io.StringIO) -> None:
    log = get_logger("codebreakers.test").bind(room="K7Q2XM", seat="p1")
    log.warning("timeout refused", code="not_your_turn")
    try:
        raise ValueError("boom")
    except ValueError:
        log.bind(game="g1").exception("the runner failed")
    first, second = entries(captured)
    assert first["msg"] == "timeout refused" and "K7Q2XM" not in first["msg"]
    assert (first["room"], first["seat"], first["code"]) == ("K7Q2XM", "p1", "not_your_turn")
    assert (first["level"], first["logger"]) == ("warning", "codebreakers.test")
    assert first["ts"].endswith("+00:00") and "exc" not in first
    assert (second["level"], second["game"], second["room"]) == ("error", "g1", "K7Q2XM")
    assert "ValueError: boom" in second["exc"]


def test_other_libraries_lines_are_json_with_their_extra_fields(captured: io.StringIO) -> None:
    logging.getLogger("uvicorn.error").info(
        "Started %s", "server", extra={"color_message": "\x1b[1mStarted\x1b[0m", "port": 9}
    )
    (entry,) = entries(captured)
    assert entry["msg"] == "Started server" and entry["port"] == 9
    assert entry["logger"] == "uvicorn.error" and "color_message" not in entry


def test_a_field_named_like_a_secret_is_redacted(captured: io.StringIO) -> None:
    get_logger("codebreakers.test").info("careless", token="tok-123", identity_secret="sec-456")
    logging.getLogger("codebreakers.test").info("careless", extra={"seat_token": "tok-789"})
    text = captured.getvalue()
    assert not any(secret in text for secret in ("tok-123", "sec-456", "tok-789"))
    first, second = entries(captured)
    assert first["token"] == first["identity_secret"] == second["seat_token"] == REDACTED


def test_text_lines_name_the_level_the_logger_and_the_fields() -> None:
    record = logging.LogRecord(
        "codebreakers.x", logging.WARNING, __file__, 1, "room %s", ("K7",), None
    )
    record.seat = "p1"
    line = TextFormatter().format(record)
    assert line.endswith(" WARNING codebreakers.x: room K7 seat=p1")


def test_the_format_is_json_or_text(monkeypatch: pytest.MonkeyPatch) -> None:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        monkeypatch.setenv("CODEBREAKERS_LOG_FORMAT", "xml")
        with pytest.raises(ValueError, match="json or text"):
            logs.configure("info")
        monkeypatch.setenv("CODEBREAKERS_LOG_FORMAT", "json")
        logs.configure("warning")
        assert isinstance(root.handlers[0].formatter, JsonFormatter)
        assert root.level == logging.WARNING
        logs.configure("info", "text")
        assert isinstance(root.handlers[0].formatter, TextFormatter)
    finally:
        root.handlers[:], root.level = handlers, level


def test_a_sockets_lines_carry_its_room_player_game_and_seat_and_no_token(
    server: TestClient, captured: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's sockets, one that comes back with its token, one with a wrong token, a message
    whose handler fails and one the store is too busy for: the lines about them say which
    room, player, game and seat as fields, and no token appears in any line."""
    code = new_room(server)
    players = [Client(server, code) for _ in range(4)]
    for client, name in zip(players, "ABCD", strict=True):
        client.join(name)
    players[0].ok({"type": "start"})
    table = Table(players)
    table.sync(0)
    table.step()
    again = Client(server, code, token=players[1].token)  # the same player, a second tab
    assert again.you == players[1].you
    stranger = Client(server, code, token="not-a-token-anyone-holds")
    assert stranger.errors == ["bad_token"]

    async def failing(*args: Any) -> None:
        raise RuntimeError("the handler broke")

    monkeypatch.setitem(endpoint._HANDLERS, Chat, failing)
    failed = again.request({"type": "chat", "channel": "all", "text": "hi"})
    assert failed["code"] == "internal_error"

    store = server.app.state.node.ports.store  # type: ignore[attr-defined]

    async def busy(*args: Any, **kwargs: Any) -> None:
        raise StoreBusy("no connection free")

    monkeypatch.setattr(store.inner, "update_room", busy)
    monkeypatch.delattr(store, "update_room", raising=False)  # instrumented again, around it
    newcomer = Client(server, code)
    refused = newcomer.request({"type": "join", "name": "E"})
    assert refused["code"] == "busy"

    lines = entries(captured)
    (failure,) = [e for e in lines if e["msg"] == "unexpected failure handling a frame"]
    assert failure["room"] == code and code not in failure["msg"]
    assert failure["player"] == failure["seat"] == players[1].you
    runner = server.app.state.node.hubs[code].runner  # type: ignore[attr-defined]
    assert failure["game"] == runner.game_id
    assert "RuntimeError: the handler broke" in failure["exc"]
    (busy_line,) = [e for e in lines if e["msg"] == "store busy: message refused"]
    assert busy_line["room"] == code and busy_line["player"] is None
    assert "seat" not in busy_line  # nobody's seat: the socket has no player yet
    text = captured.getvalue()
    tokens = [client.token for client in players]
    assert all(tokens) and not any(token in text for token in tokens)
