"""A whole Decrypto game played over the real server's WebSocket by four scripted tabs, no
browser: for the screens that need a finished game (a replay) without playing one through pages.

White always misdecodes its own transmission and nobody intercepts, so the game ends after
round 2 with Black the winner. Ann writes in her team's chat and in all chat once the game has
started ("our plan", "nice clues") and in all chat after the end ("gg"). The keywords come
from a custom list of animal names and the clues are made-up words, none of them part of any
interface text, markup or JSON key, so a test can look for them in a page.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

_ids = itertools.count(1)
ANIMALS = [
    "aardvark",
    "quokka",
    "narwhal",
    "axolotl",
    "pangolin",
    "okapi",
    "wombat",
    "capybara",
    "ocelot",
    "tapir",
    "meerkat",
    "lemur",
    "ibex",
    "gazelle",
    "jackal",
    "marmot",
    "mongoose",
    "platypus",
    "porcupine",
    "walrus",
    "wapiti",
    "zebu",
    "dugong",
    "kinkajou",
]


class Tab:
    """One player's socket: the latest view, and every frame it got."""

    def __init__(self, url: str, code: str, name: str, identity: str | None = None) -> None:
        """`identity`: the secret of a browser's identity cookie (docs/identity.md), if any."""
        ws_url = url.replace("http", "ws", 1) + "/ws"
        cookie = {"Cookie": f"cb_id={identity}"} if identity else None
        self.ws: ClientConnection = connect(
            ws_url,
            origin=url,  # type: ignore[arg-type]
            legacy=True,
            additional_headers=cookie,
        )
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.send({"type": "hello", "room": code})
        self.until(lambda f: f["type"] == "chat")
        self.send({"type": "join", "id": f"j{next(_ids)}", "name": name})
        self.you: str = self.until(lambda f: f["type"] == "joined")["you"]

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send(json.dumps(frame))

    def until(self, done: Any) -> dict[str, Any]:
        while True:
            frame = json.loads(self.ws.recv(timeout=30))
            if frame["type"] == "view":
                self.view, self.version = frame["view"], frame["version"]
            if done(frame):
                return frame

    def wait_version(self, version: int) -> None:
        while self.version < version:
            self.until(lambda _f: True)

    def request(self, frame: dict[str, Any]) -> dict[str, Any]:
        frame = {"id": f"r{next(_ids)}", **frame}
        self.send(frame)
        answer = self.until(lambda f: f["type"] in ("ack", "error") and f.get("id") == frame["id"])
        assert answer["type"] == "ack", answer
        return answer


@dataclass
class FinishedGame:
    code: str  # the room's
    game_id: str
    seats: dict[str, str]  # player name -> seat id
    teams: dict[str, str]  # seat id -> team
    keywords: dict[str, list[str]]  # team -> its keywords
    clues: list[list[str]] = field(default_factory=list)  # every transmission, in order


def start_socket_game(
    url: str, names: tuple[str, ...], identities: tuple[str, ...] = (), public: bool = False
) -> tuple[str, list[Tab]]:
    """A new room with a tab per name (with the browser identity of the same place in
    `identities`, if any), seated, its game started by the first."""
    options = {"words": "custom", "custom_words": ANIMALS}
    body = {"game": "decrypto", "options": options, "public": public}
    code: str = httpx.post(f"{url}/api/rooms", json=body).json()["code"]
    held = list(identities) + [None] * (len(names) - len(identities))
    tabs = [Tab(url, code, name, identity) for name, identity in zip(names, held, strict=True)]
    tabs[0].request({"type": "start"})
    return code, tabs


def play_finished_game(
    url: str,
    names: tuple[str, ...] = ("Ann", "Bob", "Cid", "Dee"),
    identities: tuple[str, ...] = (),
    public: bool = False,
) -> FinishedGame:
    code, tabs = start_socket_game(url, names, identities, public)
    tabs[0].request({"type": "chat", "channel": "team", "text": "our plan"})
    tabs[0].request({"type": "chat", "channel": "all", "text": "nice clues"})
    by_seat = {tab.you: tab for tab in tabs}
    codes: dict[tuple[int, str], list[int]] = {}
    clues: list[list[str]] = []
    words = itertools.count(1)
    version = 0
    while True:
        for tab in tabs:
            tab.wait_version(version)
        view = tabs[0].view
        assert view is not None
        if view["phase"] == "over":
            break
        task = view["waiting_for"][0]
        tab = by_seat[task["seat"]]
        assert tab.view is not None
        rnd, team = tab.view["round"], tab.view["you"]["team"]
        enemy = "black" if team == "white" else "white"
        if task["task"] == "transmit":
            codes[(rnd, team)] = tab.view["rounds"][-1]["transmissions"][team]["code"]
            sent = [f"zq{next(words)}x" for _ in range(3)]
            clues.append(sent)
            action: dict[str, Any] = {"type": "transmit", "clues": sent}
        elif task["task"] == "lock_own":
            mine = codes[(rnd, team)]
            action = {
                "type": "lock",
                "target": "own",
                "code": mine[1:] + mine[:1] if team == "white" else mine,
            }
        else:
            theirs = codes[(rnd, enemy)]
            action = {"type": "lock", "target": "enemy", "code": theirs[1:] + theirs[:1]}
        version = tab.request({"type": "act", "action": action})["version"]
    final = tabs[0].view
    tabs[0].request({"type": "chat", "channel": "all", "text": "gg"})
    game = FinishedGame(
        code=code,
        game_id=_game_id(url, code),
        seats={name: tab.you for name, tab in zip(names, tabs, strict=True)},
        teams={tab.you: tab.view["you"]["team"] for tab in tabs if tab.view},
        keywords={t: final["teams"][t]["keywords"] for t in ("white", "black")},
        clues=clues,
    )
    for tab in tabs:
        tab.ws.close()
    return game


def _game_id(url: str, code: str) -> str:
    game_id: str = httpx.get(f"{url}/api/rooms/{code}").json()["game_id"]
    return game_id
