"""Limits per client address: open sockets, new sockets, frames from all sockets, new rooms."""

from __future__ import annotations

import json

import pytest
from server_harness import Client, new_room
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from codebreakers.cli import build_parser
from codebreakers.server.errors import Refused
from codebreakers.server.ops.config import PER_IP
from codebreakers.server.ops.ipguard import (
    OFF,
    ROOM_BURST,
    SWEEP_EVERY,
    IpGuard,
    IpLimits,
    ip_limits,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def refused(call, *args) -> str:
    with pytest.raises(Refused) as caught:
        call(*args)
    return caught.value.code


def test_open_sockets_are_capped_per_address_and_freed_on_close() -> None:
    guard = IpGuard(IpLimits(sockets=2, connect_burst=10, connects_per_s=1), Clock())
    guard.admit("10.0.0.1")
    guard.admit("10.0.0.1")
    assert refused(guard.admit, "10.0.0.1") == "too_many_connections"
    guard.admit("10.0.0.2")  # another address has its own count
    guard.release("10.0.0.1")
    guard.admit("10.0.0.1")


def test_new_sockets_per_second_are_limited_even_when_closed_at_once() -> None:
    clock = Clock()
    guard = IpGuard(IpLimits(sockets=100, connect_burst=3, connects_per_s=0.5), clock)
    for _ in range(3):
        guard.admit("a")
        guard.release("a")
    assert refused(guard.admit, "a") == "too_many_connections"
    clock.now += 2.0  # one more new socket per 2 s
    guard.admit("a")


def test_frames_of_every_socket_of_an_address_share_one_allowance() -> None:
    clock = Clock()
    guard = IpGuard(IpLimits(frame_burst=5, frames_per_s=1), clock)
    for _ in range(5):
        guard.frame("a")
    assert refused(guard.frame, "a") == "rate_limited"
    guard.frame("b")
    clock.now += 1.0
    guard.frame("a")


def test_rooms_per_address_are_limited() -> None:
    guard = IpGuard(IpLimits(room_burst=2, rooms_per_s=0.01), Clock())
    guard.new_room("a")
    guard.new_room("a")
    assert refused(guard.new_room, "a") == "rate_limited"


def test_off_limits_nothing() -> None:
    guard = IpGuard(OFF, Clock())
    for _ in range(1000):
        guard.admit("a")
        guard.frame("a")
        guard.new_room("a")


def test_idle_addresses_are_forgotten_and_busy_ones_kept() -> None:
    clock = Clock()
    guard = IpGuard(PER_IP, clock)
    guard.admit("holder")  # keeps a socket open: never forgotten
    guard.frame("recent")
    clock.now += 3600
    for i in range(SWEEP_EVERY):
        guard.frame(f"10.1.{i // 256}.{i % 256}")
    assert "recent" not in guard._table and "holder" in guard._table
    clock.now += 3600
    for i in range(SWEEP_EVERY):
        guard.frame(f"10.2.{i // 256}.{i % 256}")
    assert guard.tracked() <= SWEEP_EVERY + 1 and "holder" in guard._table


def test_serve_options_and_environment_set_the_limits(monkeypatch) -> None:
    args = build_parser().parse_args(["serve"])
    assert (
        ip_limits(args.per_ip_sockets, args.per_ip_frames_per_s, args.per_ip_rooms_per_min)
        == PER_IP
    )
    monkeypatch.setenv("CODEBREAKERS_PER_IP_SOCKETS", "0")
    args = build_parser().parse_args(["serve", "--per-ip-frames-per-s", "0"])
    limits = ip_limits(args.per_ip_sockets, args.per_ip_frames_per_s, args.per_ip_rooms_per_min)
    assert limits.sockets == limits.connect_burst == limits.frame_burst == 0
    assert limits.room_burst == ROOM_BURST


TIGHT = IpLimits(
    sockets=3,
    connect_burst=20,
    connects_per_s=1,
    frame_burst=12,
    frames_per_s=0.01,
    room_burst=2,
    rooms_per_s=0.001,
)


def test_a_socket_over_the_address_cap_is_told_why_and_closed(server_with) -> None:
    server: TestClient = server_with(per_ip=TIGHT)
    code = new_room(server)
    tabs = [Client(server, code) for _ in range(3)]
    with server.websocket_connect("/ws") as ws:
        frame = json.loads(ws.receive_text())
        assert frame["type"] == "error" and frame["code"] == "too_many_connections", frame
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 1013
    tabs[0].close()
    Client(server, code)  # a closed tab frees its place


def test_sockets_of_one_address_share_the_frame_allowance(server_with) -> None:
    server: TestClient = server_with(per_ip=TIGHT)
    code = new_room(server)
    first, second = Client(server, code), Client(server, code)  # 2 hellos of the 12 frames
    answers = [first.request({"type": "rename", "name": "x"}).get("code", "ack") for _ in range(6)]
    answers += [
        second.request({"type": "rename", "name": "y"}).get("code", "ack") for _ in range(6)
    ]
    # Neither socket reached its own 30-frame burst: the address's 12 ran out for both.
    assert answers.count("not_joined") == 10 and answers[-2:] == ["rate_limited"] * 2, answers


def test_an_address_making_rooms_too_fast_gets_429_and_no_room(server_with) -> None:
    server: TestClient = server_with(per_ip=TIGHT)
    new_room(server)
    new_room(server)
    before = server.get("/api/rooms?open=true").json()
    answer = server.post("/api/rooms", json={"game": "decrypto", "public": True})
    assert answer.status_code == 429 and answer.json()["error"]["code"] == "rate_limited"
    assert server.get("/api/rooms?open=true").json() == before
    quick = server.post("/api/quick-join", json={"name": "Ann"})  # would make a public room
    assert quick.status_code == 429 and quick.json()["error"]["code"] == "rate_limited"
    assert server.get("/api/rooms?open=true").json() == before


def test_with_every_limit_off_no_address_is_even_remembered() -> None:
    guard = IpGuard(OFF, Clock())
    guard.admit("a")
    guard.frame("a")
    guard.new_room("a")
    guard.release("a")
    assert guard.tracked() == 0


def test_half_sent_requests_share_the_open_socket_cap() -> None:
    guard = IpGuard(IpLimits(sockets=2, connect_burst=10, connects_per_s=1), Clock())
    assert guard.admit_pending("a") and guard.admit_pending("a")
    assert not guard.admit_pending("a")  # two requests on their way fill the cap of 2
    assert refused(guard.admit, "a") == "too_many_connections"  # and leave no socket room
    guard.release_pending("a")  # one finished (its socket is admitted on its own)
    guard.admit("a")
    assert guard.admit_pending("a")  # over the cap by open sockets: still let through ...
    guard.release_pending("a")
    assert refused(guard.admit, "a") == "too_many_connections"  # ... to be told why
    assert IpGuard(OFF, Clock()).admit_pending("a")
