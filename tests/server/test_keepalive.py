"""Keep-alive: `ping` is answered by `pong`; a socket that pinged and then fell silent is
dropped, and the others see its player away (docs/protocol.md)."""

from __future__ import annotations

import time
from collections.abc import Callable

from server_harness import Client, join_all, new_room
from starlette.testclient import TestClient

from codebreakers.server.ops.config import ServerConfig


def connected(client: Client, pid: str) -> bool:
    return next(p["connected"] for p in client.room["players"] if p["id"] == pid)


def test_ping_is_answered_and_a_silent_pinging_socket_is_dropped(
    server_with: Callable[..., TestClient],
) -> None:
    server = server_with(silent_socket_s=0.5)
    ann, bob = join_all(server, new_room(server), ["Ann", "Bob"])
    bob.send({"type": "ping", "id": "k1"})
    assert bob.expect("pong") == {"type": "pong", "id": "k1"}
    started = time.monotonic()
    ann.expect("room")  # Bob's join, then (Bob says nothing more) Bob away after half a second
    while connected(ann, bob.you):
        ann.expect("room")
    assert time.monotonic() - started < 5
    # Ann never pinged: a tool's socket is not held to the keep-alive.
    time.sleep(0.8)
    assert ann.request({"type": "rename", "name": "Ann2"})["type"] == "ack"


def test_the_default_silence_is_ten_seconds() -> None:
    assert ServerConfig().silent_socket_s == 10.0
