"""The load generator reads frames by prefix; these pin that to what the server really encodes."""

from __future__ import annotations

from codebreakers.bench import frames
from codebreakers.bench.stats import percentile
from codebreakers.server.wire.messages import (
    Ack,
    ChatLineOut,
    ChatLines,
    Error,
    Joined,
    View,
    encode,
)


def test_view_prefix_gives_game_and_version() -> None:
    frame = encode(View("g-7f3a", 42, {"phase": "round", "version": 3})).decode()
    assert frame.startswith(frames.VIEW)
    assert frames.view_head(frame) == ("g-7f3a", 42)


def test_ack_prefix_gives_id_and_version() -> None:
    assert frames.ack_head(encode(Ack("b3-1-9", 12)).decode()) == ("b3-1-9", 12)
    assert frames.ack_head(encode(Ack("b3-1-10", None)).decode()) == ("b3-1-10", None)


def test_other_frames_are_told_apart() -> None:
    line = ChatLineOut(1, "all", None, "p1", "Ann", "hi", 0.0)
    assert encode(ChatLines([line])).decode().startswith(frames.CHAT)
    assert encode(Joined("j1", "p1", "tok")).decode().startswith(frames.JOINED)
    error = encode(Error("x", "busy")).decode()
    assert error.startswith(frames.ERROR)
    assert not error.startswith((frames.VIEW, frames.ACK, frames.CHAT))


def test_percentile_of_sorted_values() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 51.0
    assert percentile(values, 0.99) == 100.0
    assert percentile([], 0.5) == 0.0
