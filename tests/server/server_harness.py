"""Helpers for driving the server through real WebSocket frames with Starlette's TestClient."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from codebreakers.bots.base import BotMove
from codebreakers.bus import open_bus
from codebreakers.games.registry import RULES_BY_NAME
from codebreakers.server.ops.config import Ports
from codebreakers.store import open_store


def make_ports(db: Path, **extra: Any) -> Ports:
    """Ports on a fresh SQLite file; `extra` adds or replaces any (the rules too)."""
    ports: dict[str, Any] = {"rules": RULES_BY_NAME, **extra}
    return Ports(store=open_store(f"sqlite:///{db}"), bus=open_bus(None), **ports)


class Client:
    """One browser tab: a socket that records every frame it receives, raw and parsed."""

    _ids = itertools.count(1)

    def __init__(self, http: TestClient, code: str, **hello: Any) -> None:
        self.ws = http.websocket_connect("/ws").__enter__()
        OPEN.append(self)
        self.raw: list[str] = []
        self.errors: list[str] = []  # codes of errors not answering a message (id null)
        self.send({"type": "hello", "room": code, **hello})
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.chat: list[dict[str, Any]] = []
        self.welcome = self.expect("welcome")
        self.room = self.expect("room")["room"]
        self.expect("chat")  # the last frame answering hello (after the view, if any)
        self.you: str | None = self.welcome["you"]
        self.token: str | None = hello.get("token")

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(frame))

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        self.raw.append(text)
        frame = json.loads(text)
        if frame["type"] == "view":
            self.view, self.version = frame["view"], frame["version"]
        elif frame["type"] == "room":
            self.room = frame["room"]
        elif frame["type"] == "chat":
            self.chat.extend(frame["lines"])
        return frame

    def expect(self, kind: str) -> dict[str, Any]:
        """Read frames until one of `kind` arrives (pushes in between are recorded)."""
        while True:
            frame = self.recv()
            if frame["type"] == kind:
                return frame
            if frame["type"] == "error" and kind != "error":
                if frame["id"] is not None:
                    raise AssertionError(f"expected {kind}, got {frame}")
                self.errors.append(frame["code"])

    def request(self, frame: dict[str, Any]) -> dict[str, Any]:
        """Send a message with a fresh id and return its ack or error."""
        frame = {"id": f"c{next(self._ids)}", **frame}
        self.send(frame)
        while True:
            got = self.recv()
            if got["type"] in ("ack", "error") and got.get("id") == frame["id"]:
                return got

    def ok(self, frame: dict[str, Any]) -> dict[str, Any]:
        got = self.request(frame)
        assert got["type"] == "ack", got
        return got

    def join(self, name: str) -> str:
        self.send({"type": "join", "id": f"j{next(self._ids)}", "name": name})
        joined = self.expect("joined")
        self.you, self.token = joined["you"], joined["token"]
        self.expect("ack")
        return joined["you"]

    def drain_until_version(self, version: int) -> None:
        while self.version < version:
            self.recv()

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
            self.ws.__exit__(None, None, None)


# Sockets still open at the end of a test, closed by the `server` fixture so the app can stop.
OPEN: list[Client] = []


def new_room(http: TestClient, game: str = "decrypto", **options: Any) -> str:
    answer = http.post("/api/rooms", json={"game": game, "options": options})
    assert answer.status_code == 201, answer.text
    return answer.json()["code"]


def join_all(http: TestClient, code: str, names: Sequence[str] = "ABCD") -> list[Client]:
    """One tab per name in the room, each joined as a player under that name."""
    clients = [Client(http, code) for _ in names]
    for client, name in zip(clients, names, strict=True):
        client.join(name)
    return clients


def start_game(http: TestClient, **options: Any) -> tuple[str, list[Client], Table]:
    """A new room with four players whose game the first one started; every tab holds its
    first view."""
    code = new_room(http, **options)
    clients = join_all(http, code)
    clients[0].ok({"type": "start"})
    table = Table(clients)
    table.sync(0)
    return code, clients, table


def wrong(code: list[int]) -> list[int]:
    """A code that differs from `code` (its digits rotated)."""
    return code[1:] + code[:1]


class Table:
    """Seated clients of one game, driven by the `waiting_for` list of their views.

    The White team always misdecodes its own transmission and nobody intercepts, so a game ends
    after round 2 with Black the winner (two miscommunication tokens for White).
    """

    def __init__(self, clients: list[Client]) -> None:
        self.by_seat = {c.you: c for c in clients}
        self.codes: dict[tuple[int, str], list[int]] = {}
        self.last: tuple[Client, dict[str, Any]] | None = None  # the last action sent, as sent
        self.clue_count = 0

    def sync(self, version: int) -> None:
        for client in self.by_seat.values():
            client.drain_until_version(version)

    def any_view(self) -> dict[str, Any]:
        view = next(iter(self.by_seat.values())).view
        assert view is not None
        return view

    def step(self) -> dict[str, Any]:
        """Perform the first waited-for task and sync every client; returns the ack."""
        view = self.any_view()
        task = view["waiting_for"][0]
        client = self.by_seat[task["seat"]]
        assert client.view is not None
        rnd = client.view["round"]
        team = client.view["you"]["team"]
        enemy = "black" if team == "white" else "white"
        if task["task"] == "transmit":
            mine = client.view["rounds"][-1]["transmissions"][team]
            self.codes[(rnd, team)] = mine["code"]
            clues = [f"zq{self.clue_count + i}x" for i in range(3)]
            self.clue_count += 3
            action = {"type": "transmit", "clues": clues}
        elif task["task"] == "lock_own":
            code = self.codes[(rnd, team)]
            action = {
                "type": "lock",
                "target": "own",
                "code": wrong(code) if team == "white" else code,
            }
        else:
            assert task["task"] == "lock_enemy", task
            action = {"type": "lock", "target": "enemy", "code": wrong(self.codes[(rnd, enemy)])}
        ack = client.ok({"type": "act", "action": action})
        self.last = (client, {"type": "act", "id": ack["id"], "action": action})
        self.sync(ack["version"])
        return ack

    def play_out(self, limit: int = 100) -> None:
        for _ in range(limit):
            if self.any_view()["phase"] == "over":
                return
            self.step()
        raise AssertionError("the game did not end")


class Clock:
    """A clock tests move forward by hand."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def poke_timers(http: TestClient, code: str) -> None:
    """Re-arm the room's timer (as after any change) so a moved clock takes effect."""
    node = http.app.state.node  # type: ignore[attr-defined]

    async def rearm() -> None:
        hub = node.hubs[code]
        hub.on_game_change(hub)

    http.portal.call(rearm)  # type: ignore[union-attr]


class ScriptedBot:
    """A test double for `codebreakers.bots`: does whatever its seat is waited for, plainly."""

    def __init__(self, seat: str) -> None:
        self.seat = seat

    def decide(self, view: dict[str, Any]) -> BotMove | None:
        task = next((t["task"] for t in view["waiting_for"] if t["seat"] == self.seat), None)
        team = view["you"]["team"]
        if task == "transmit":
            n = view["round"]
            clues = [f"{self.seat}r{n}c{i}" for i in range(3)]
            return BotMove({"type": "transmit", "clues": clues})  # then muted: it says nothing
        if task in ("lock_own", "lock_enemy"):
            target = "own" if task == "lock_own" else "enemy"
            lock = {"type": "lock", "target": target, "code": [1, 2, 3]}
            return BotMove(lock, chat="done", channel="all")
        if task == "guess_keywords":
            return BotMove({"type": "guess_keywords", "words": ["a", "b", "c", team]})
        if task == "review":
            return BotMove({"type": "review_done"})
        return None


def make_scripted(game: str, *, level: str, lang: str, seed: int, seat: str) -> ScriptedBot:
    assert game == "decrypto" and level in ("easy", "normal", "hard") and lang == "en"
    return ScriptedBot(seat)


SCRIPTED_BOTS = {"make_bot": make_scripted, "bot_games": frozenset({"decrypto"})}  # ports


def host_watching_four_bots(http: TestClient) -> Client:
    """A new room whose host has left its seat and put a scripted bot in each of the four."""
    host = Client(http, new_room(http))
    host.join("Host")
    host.ok({"type": "leave_seat"})
    for team in ("white", "black"):
        for index in (0, 1):
            host.ok({"type": "add_bot", "team": team, "index": index, "level": "easy"})
    return host


def watch_until_over(client: Client, timeout_s: float = 30.0) -> None:
    """Read pushes until the client's view says the game is over."""
    deadline = time.monotonic() + timeout_s
    while client.view is None or client.view["phase"] != "over":
        client.recv()
        assert time.monotonic() < deadline
