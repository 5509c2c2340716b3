"""A Decrypto table of six players, driven through the real protocol at the benchmark's pace.

Set-up is what six browsers do: the room is created over HTTP, each player opens a socket, says
`hello` and `join`s (the server seats joiners alternately in the two teams), and the first
player, the host, starts the game. Then each call to `act` makes one move the game waits for,
as the seat it waits for (`waiting_for` in the view): encryptors transmit made-up clue words
(new each time, so never reused and never a keyword), a teammate proposes and the decider locks
the right code (as a team that reads its encryptor well: the load generator peeks at the
encryptor's view, which is what keeps games going for eight rounds like real ones), the enemy
proposes and locks an interception at random; every eighth move is a chat line; a finished game
is rematched by the host.

Only the host's latest view is decoded, once per move (and the encryptor's once per round);
every other frame is read by its prefix (`frames.py`).
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from typing import Any

import httpx
import msgspec

from codebreakers.bench import frames
from codebreakers.bench.sockets import BenchSocket, Shared, open_socket

CHAT_EVERY = 8
SETUP_TIMEOUT_S = 120.0
TASK_ORDER = {"transmit": 0, "lock_own": 1, "lock_enemy": 2, "guess_keywords": 3, "review": 4}
_SYLLABLES = ("ka", "lo", "mi", "zu", "re", "ta", "vo", "ni", "pe", "shu")
_decode = msgspec.json.decode
_encode = msgspec.json.Encoder().encode

JSON = dict[str, Any]


def made_up_word(n: int) -> str:
    """A pronounceable non-word, different for every n ("kalo", "zumi", ...)."""
    return "".join(_SYLLABLES[int(d)] for d in str(n)) + "x"


class _Expectation:
    """What must reach the table's members for the action in flight to be done."""

    __slots__ = ("chat_token", "done", "game_id", "kind", "msg_id", "old_game", "seen", "t0")

    def __init__(self, kind: str, msg_id: str) -> None:
        self.kind = kind
        self.msg_id = msg_id
        self.done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.t0 = 0.0
        self.game_id: str | None = None  # act: the game whose version the ack gave
        self.old_game: str | None = None  # start/rematch: every member must leave this game
        self.chat_token: str | None = None
        self.seen = 0  # chat: members that received the line

    def finish(self, ok: bool) -> None:
        if not self.done.done():
            self.done.set_result(ok)


class DecryptoTable:
    def __init__(self, shared: Shared, number: int, seats: int) -> None:
        self.shared = shared
        self.stats = shared.stats
        self.number = number
        self.seats = seats
        self.rng = random.Random(number)
        self.room = ""
        self.sockets: list[BenchSocket] = []
        self.player_ids: list[str] = []
        self.index_of: dict[str, int] = {}
        self.game: list[str | None] = [None] * seats  # per member: game id of its latest view
        self.version: list[int] = [-1] * seats  # per member: version of its latest view
        self.last_view: list[str] = [""] * seats  # per member: its latest view frame, undecoded
        self._ids = itertools.count(1)
        self._moves = 0
        self._proposed: set[tuple[str | None, int, str, bool]] = set()
        self._codes: dict[tuple[str | None, int, str], list[int]] = {}
        self._want: _Expectation | None = None
        self._want_version: int | None = None
        self._setup_waiters: dict[str, asyncio.Future[str]] = {}
        self._clues_game: str | None = None  # the game whose clues `_clues_used` holds
        self._clues_used: set[str] = set()

    @property
    def players(self) -> int:
        return len(self.sockets)

    # ----- set-up -------------------------------------------------------------------------

    async def open(self, player_index: int) -> None:
        url = self.shared.url_for(player_index)
        async with httpx.AsyncClient(base_url=url, timeout=SETUP_TIMEOUT_S) as http:
            answer = await http.post("/api/rooms", json={"game": "decrypto", "options": {}})
        answer.raise_for_status()
        self.room = answer.json()["code"]
        for seat in range(self.seats):
            await self._join(seat, self.shared.url_for(player_index + seat))
        await self._request(0, {"type": "start"}, "start", SETUP_TIMEOUT_S, record=False)

    async def _join(self, seat: int, url: str) -> None:
        ws = await self._open(seat, url)
        self.sockets.append(ws)
        msg_id = self._next_id(seat)
        joined = asyncio.get_running_loop().create_future()
        self._setup_waiters[msg_id] = joined
        ws.send(_encode({"type": "hello", "room": self.room}).decode())
        ws.send(_encode({"type": "join", "id": msg_id, "name": f"Bench {seat + 1}"}).decode())
        you = _decode(await asyncio.wait_for(joined, SETUP_TIMEOUT_S))["you"]
        self.player_ids.append(you)
        self.index_of[you] = seat

    async def _open(self, seat: int, url: str) -> BenchSocket:
        """The seat's socket (the in-process harness of tests/server opens another kind)."""
        return await open_socket(url, "/ws", self.shared, lambda f: self._on_frame(seat, f))

    def _next_id(self, seat: int) -> str:
        return f"b{self.number}-{seat}-{next(self._ids)}"

    # ----- frames -------------------------------------------------------------------------

    def _on_frame(self, seat: int, frame: str) -> None:
        self.stats.push(frame)
        if frame.startswith(frames.VIEW):
            self.game[seat], self.version[seat] = frames.view_head(frame)
            self.last_view[seat] = frame
            self._check()
        elif frame.startswith(frames.ACK):
            msg_id, version = frames.ack_head(frame)
            want = self._want
            if want is not None and msg_id == want.msg_id and want.kind not in ("chat",):
                self._want_version = version
                want.game_id = self.game[seat]
                self._check()
        elif frame.startswith(frames.CHAT):
            want = self._want
            if want is not None and want.chat_token is not None and want.chat_token in frame:
                want.seen += 1
                if want.seen == self.seats:
                    want.finish(True)
        elif frame.startswith(frames.JOINED):
            waiter = self._setup_waiters.pop(_decode(frame)["id"], None)
            if waiter is not None and not waiter.done():
                waiter.set_result(frame)
        elif frame.startswith(frames.ERROR):
            self._on_error(frame)

    def _on_error(self, frame: str) -> None:
        error = _decode(frame)
        self.stats.error(error["code"])
        waiter = self._setup_waiters.pop(error.get("id") or "", None)
        if waiter is not None and not waiter.done():
            waiter.set_exception(RuntimeError(f"set-up refused: {error['code']}"))
        want = self._want
        if want is not None and error.get("id") == want.msg_id:
            want.finish(False)

    def _check(self) -> None:
        """Finish the action in flight once every member holds the view it caused."""
        want = self._want
        if want is None:
            return
        if want.kind in ("start", "rematch"):
            if all(g is not None and g != want.old_game for g in self.game):
                want.finish(True)
            return
        version = self._want_version
        if version is None or want.chat_token is not None:
            return
        game = want.game_id
        if all(g == game for g in self.game) and min(self.version) >= version:
            want.finish(True)

    # ----- moves --------------------------------------------------------------------------

    async def act(self, timeout: float) -> None:
        self._moves += 1
        if self._moves % CHAT_EVERY == 0:
            await self._chat(timeout)
            return
        view = _decode(self.last_view[0])["view"]
        if view["phase"] == "over":
            await self._request(0, {"type": "rematch"}, "rematch", timeout)
            return
        move = self._next_move(view)
        if move is None:
            await self._chat(timeout)
            return
        seat, action, kind = move
        await self._request(seat, {"type": "act", "action": action}, kind, timeout)

    def _next_move(self, view: JSON) -> tuple[int, JSON, str] | None:
        tasks = sorted(view["waiting_for"], key=lambda t: TASK_ORDER.get(t["task"], 9))
        if not tasks:
            return None
        task = tasks[self._moves % len(tasks)] if tasks[0]["task"] == "review" else tasks[0]
        seat = self.index_of[task["seat"]]
        kind = task["task"]
        if kind == "transmit":
            return seat, {"type": "transmit", "clues": self._fresh_clues(3)}, "transmit"
        if kind in ("lock_own", "lock_enemy"):
            return self._answer(view, task["seat"], kind == "lock_own")
        if kind == "guess_keywords":
            guess = [made_up_word(self.rng.randrange(10**6)) for _ in range(4)]
            return seat, {"type": "guess_keywords", "words": guess}, "guess_keywords"
        return seat, {"type": "review_done"}, "review"

    def _fresh_clues(self, count: int) -> list[str]:
        """Made-up words never given before in this game: random draws from a million collide
        about once in a thousand games, which the server refuses as `clue_reused`."""
        if self._clues_game != self.game[0]:
            self._clues_game, self._clues_used = self.game[0], set()
        clues: list[str] = []
        while len(clues) < count:
            word = made_up_word(self.rng.randrange(10**6))
            if word not in self._clues_used:
                self._clues_used.add(word)
                clues.append(word)
        return clues

    def _answer(self, view: JSON, decider: str, own: bool) -> tuple[int, JSON, str]:
        """A proposal by a teammate first, then the decider's lock."""
        teams = view["teams"]
        team = next(name for name, t in teams.items() if decider in t["seats"])
        sender = team if own else next(name for name in teams if name != team)
        rnd = view["rounds"][-1]["number"]
        transmission = view["rounds"][-1]["transmissions"][sender]
        target = "own" if own else "enemy"
        code = self._own_code(sender, rnd, transmission["encryptor"]) if own else None
        code = code or self.rng.sample([1, 2, 3, 4], 3)
        key = (self.game[0], rnd, team, own)
        if key not in self._proposed:
            self._proposed.add(key)
            others = [
                s for s in teams[team]["seats"] if s not in (decider, transmission["encryptor"])
            ]
            proposer = others[0] if others else decider
            action = {"type": "propose", "target": target, "code": code}
            return self.index_of[proposer], action, "propose"
        return self.index_of[decider], {"type": "lock", "target": target, "code": code}, "lock"

    def _own_code(self, team: str, rnd: int, encryptor: str) -> list[int] | None:
        key = (self.game[0], rnd, team)
        if key not in self._codes:
            view = _decode(self.last_view[self.index_of[encryptor]])["view"]
            transmission = view["rounds"][-1]["transmissions"][team]
            self._codes[key] = transmission["code"]
        return self._codes[key]

    async def _chat(self, timeout: float) -> None:
        """A line in all chat by the next member in turn whose own view says it may write (the
        server's rule, `you.can_team_chat`: not an encryptor keeping a straight face), so the
        load generator is never refused `chat_not_allowed`."""
        first = self._moves // CHAT_EVERY
        turns = [(first + i) % self.seats for i in range(self.seats)]
        seat = next((s for s in turns if self._may_chat(s)), turns[0])
        token = f"#{self.number}.{self._moves}"
        message = {"type": "chat", "channel": "all", "text": f"nice one {token}"}
        await self._request(seat, message, "chat", timeout, chat_token=token)

    def _may_chat(self, seat: int) -> bool:
        frame = self.last_view[seat]
        return not frame or bool(_decode(frame)["view"]["you"]["can_team_chat"])

    async def _request(
        self,
        seat: int,
        message: JSON,
        kind: str,
        timeout: float,
        *,
        chat_token: str | None = None,
        record: bool = True,
    ) -> None:
        msg_id = self._next_id(seat)
        want = _Expectation(kind, msg_id)
        want.chat_token = chat_token
        want.old_game = self.game[0]
        self._want, self._want_version = want, None
        measuring = record and self.stats.measuring
        text = _encode({**message, "id": msg_id}).decode()
        want.t0 = time.perf_counter()
        self.sockets[seat].send(text)
        if measuring:
            self.stats.actions += 1
        try:
            ok = await asyncio.wait_for(want.done, timeout)
        except TimeoutError:
            if not record:
                raise
            if measuring:
                self.stats.incomplete += 1
            return
        finally:
            self._want = None
        if ok and measuring:
            self.stats.action_done(kind, time.perf_counter() - want.t0)

    def close(self) -> None:
        for ws in self.sockets:
            ws.close()
