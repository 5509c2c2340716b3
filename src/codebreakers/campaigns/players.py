"""Human-like scripted players: each reads only its own tab's view and does its seat's tasks.

A table of these is what a campaign needs around the damage: a game that keeps moving, every
action sent with an id and acknowledged, side moves (proposals, private notes, chat) in between,
and a host who asks for a rematch so games keep starting while the campaign runs. Teammates
share their encryptor's code the way people do out loud, so games last several rounds.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

import httpx

from codebreakers.campaigns.client import Tab
from codebreakers.games.decrypto.codes import ALL_CODES

JSON = dict[str, Any]
CONSONANTS = "bcdfghjklmnpqrstvwxz"
SKILL = 0.8  # how often a decider locks its own team's code right
REMATCH_GIVE_UP_S = 120.0  # a host refused this long has found a room stuck after its game


def junk_word(rng: random.Random, length: int = 7) -> str:
    """A clue no keyword can clash with (no vowels)."""
    return "".join(rng.choice(CONSONANTS) for _ in range(length))


@dataclass
class Ledger:
    """What the clients were promised: every acknowledged action and every finished game."""

    acked: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (game, seat, id) -> v
    chat_acked: dict[tuple[str, str], str] = field(default_factory=dict)  # (room, id) -> text
    outcomes: dict[str, JSON] = field(default_factory=dict)  # game id -> outcome seen
    rooms: dict[str, set[str]] = field(default_factory=dict)  # room -> game ids played there
    refused: dict[str, int] = field(default_factory=dict)  # error code -> count
    stuck_rematches: list[str] = field(default_factory=list)  # rooms that never started again
    actions_sent: int = 0

    def refuse(self, code: str) -> None:
        self.refused[code] = self.refused.get(code, 0) + 1


@dataclass
class Table:
    """One room: humans (tabs) and bots, the host is the first tab."""

    code: str
    tabs: list[Tab]
    ledger: Ledger
    rng: random.Random
    codes: dict[tuple[str, int, str], list[int]] = field(default_factory=dict)
    chat_every: float = 0.05
    games_done: int = 0
    rematching: bool = False  # the host is asking for the next game

    def seat_task(self, tab: Tab) -> JSON | None:
        view = tab.view
        if view is None or view["phase"] == "over" or tab.you is None:
            return None
        return next((w for w in view["waiting_for"] if w["seat"] == tab.you), None)

    def build(self, tab: Tab, task: JSON) -> JSON:
        view = tab.view
        assert view is not None and tab.game_id is not None
        team = view["you"]["team"]
        rnd = view["round"]
        kind = task["task"]
        mine = view["rounds"][-1]["transmissions"][team] if view["rounds"] else None
        if kind == "transmit":
            assert mine is not None
            self.codes[(tab.game_id, rnd, team)] = mine["code"]
            return {"type": "transmit", "clues": [junk_word(self.rng) for _ in range(3)]}
        if kind == "lock_own":
            known = self.codes.get((tab.game_id, rnd, team))
            right = known is not None and self.rng.random() < SKILL
            code = known if right else list(self.rng.choice(ALL_CODES))
            return {"type": "lock", "target": "own", "code": code}
        if kind == "lock_enemy":
            return {"type": "lock", "target": "enemy", "code": list(self.rng.choice(ALL_CODES))}
        if kind == "guess_keywords":
            return {"type": "guess_keywords", "words": [junk_word(self.rng) for _ in range(4)]}
        return {"type": "review_done"}

    def side_move(self, tab: Tab) -> JSON | None:
        """Now and then something no one waits for: a private note or a proposal."""
        view = tab.view
        if view is None or view["phase"] != "round" or self.rng.random() > 0.15:
            return None
        if self.rng.random() < 0.5:
            text = f"note {junk_word(self.rng, 5)}"
            return {"type": "note", "number": self.rng.randint(1, 4), "text": text}
        return None

    async def act(self, tab: Tab, action: JSON) -> None:
        game_id = tab.game_id
        assert game_id is not None and tab.you is not None
        msg_id = tab.new_id()
        self.ledger.actions_sent += 1
        answer = await tab.request({"type": "act", "action": action}, msg_id)
        if answer["type"] == "ack":
            self.ledger.acked[(game_id, tab.you, msg_id)] = answer["version"]
        else:
            self.ledger.refuse(answer["code"])

    async def say(self, tab: Tab) -> None:
        msg_id = tab.new_id()
        text = f"chat {junk_word(self.rng, 6)}"
        answer = await tab.request({"type": "chat", "channel": "all", "text": text}, msg_id)
        if answer["type"] == "ack":
            self.ledger.chat_acked[(self.code, msg_id)] = text
        else:
            self.ledger.refuse(answer["code"])

    def done(self, tab: Tab, keep_going: asyncio.Event) -> bool:
        """Whether `tab`, whose game is over, may stop: the campaign says stop and the host
        is not starting another game, nor holds a newer one (a tab that stopped on the last
        game's end while the host's rematch came would leave the new game one player short)."""
        host = self.tabs[0]
        if keep_going.is_set():
            return False
        return tab is host or (not self.rematching and host.game_id == tab.game_id)

    async def play_seat(self, tab: Tab, keep_going: asyncio.Event) -> None:
        """Do this tab's tasks until the game is over and the campaign says stop."""
        while True:
            view = tab.view
            if view is not None and view["phase"] == "over" and tab.game_id is not None:
                self.ledger.outcomes.setdefault(tab.game_id, view["outcome"])
                if self.done(tab, keep_going):
                    return
                if tab is self.tabs[0] and keep_going.is_set():
                    if not await self.rematch(tab):
                        return
                    continue
            task = self.seat_task(tab)
            if task is not None:
                await asyncio.sleep(self.rng.uniform(0.0, 0.15))  # a human's pause
                if self.seat_task(tab) == task:
                    await self.act(tab, self.build(tab, task))
                continue
            side = self.side_move(tab)
            if side is not None:
                await self.act(tab, side)
            elif self.rng.random() < self.chat_every:
                await self.say(tab)
            await tab.wait_change(0.5)

    async def rematch(self, tab: Tab) -> bool:
        """Ask for the next game until it comes: a host who sees the last view may ask before
        the room itself is over (game_not_over), so a refusal is asked again, not waited on;
        False (the room counted stuck) when no game came in REMATCH_GIVE_UP_S."""
        before = tab.game_id
        self.games_done += 1
        loop = asyncio.get_running_loop()
        give_up = loop.time() + REMATCH_GIVE_UP_S
        self.rematching = True
        try:
            while tab.game_id == before:
                if loop.time() > give_up:
                    self.ledger.stuck_rematches.append(self.code)
                    return False
                answer = await tab.request({"type": "rematch"})
                if answer["type"] != "ack":
                    self.ledger.refuse(answer["code"])
                for _ in range(4):
                    if tab.game_id != before:
                        break
                    await tab.wait_change(0.5)
        finally:
            self.rematching = False
        assert tab.game_id is not None
        self.ledger.rooms.setdefault(self.code, set()).add(tab.game_id)
        return True


async def identity_cookie(http: str) -> str:
    """A new browser's `Cookie` header: the identity `GET /api/me` gives on a first visit."""
    async with httpx.AsyncClient() as client:
        answer = await client.get(f"{http}/api/me", timeout=30)
    answer.raise_for_status()
    return "; ".join(f"{name}={value}" for name, value in answer.cookies.items())


async def open_table(
    http: str,
    urls: list[str],
    ledger: Ledger,
    rng: random.Random,
    humans: int = 4,
    bots: int = 0,
    options: JSON | None = None,
    profiles: bool = False,
    cookies: list[str] | None = None,
) -> Table:
    """Create a room, seat `humans` tabs and `bots` bots (2 v 2 and up), and start the game;
    with `profiles`, each tab is a browser that visited `GET /api/me` first, and its socket
    carries the identity cookie it was given; with `cookies`, tab i is the browser holding
    cookies[i] (players who come back)."""
    async with httpx.AsyncClient() as client:
        created = await client.post(
            f"{http}/api/rooms", json={"game": "decrypto", "options": options or {}}, timeout=30
        )
    created.raise_for_status()
    code = created.json()["code"]
    tabs = []
    for i in range(humans):
        tab = Tab(urls, code, name=f"{code}-{i}", rng=random.Random(rng.getrandbits(64)))
        if cookies is not None:
            tab.cookie = cookies[i]
        elif profiles:
            tab.cookie = await identity_cookie(http)
        await tab.open()
        await tab.join(f"Player {i + 1}")
        tabs.append(tab)
    host = tabs[0]
    added = 0
    while added < bots:  # another node's join may not have reached the host's tab yet
        assert host.room_doc is not None
        teams = host.room_doc["teams"]
        team = min(teams, key=lambda t: sum(s is not None for s in teams[t]))
        slot = {"team": team, "index": teams[team].index(None), "level": "easy"}
        answer = await host.request({"type": "add_bot", **slot})
        if answer["type"] == "ack":
            added += 1
        elif answer["code"] == "seat_taken":
            await host.wait_change(0.2)
        else:
            raise RuntimeError(f"add_bot refused: {answer}")
    answer = await host.request({"type": "start"})
    if answer["type"] != "ack":
        raise RuntimeError(f"start refused: {answer}")
    for tab in tabs:
        while tab.game_id is None:
            await tab.wait_change(0.5)
    table = Table(code, tabs, ledger, rng)
    assert host.game_id is not None
    ledger.rooms.setdefault(code, set()).add(host.game_id)
    return table
