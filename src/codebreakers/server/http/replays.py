"""Replays over HTTP: a finished game's steps as one viewpoint saw them (docs/replays.md).

`GET /api/games/{game_id}/replay?as=VIEWPOINT` replays a stored game, `POST /api/replay?as=...`
a record the browser uploads (a file dropped on the page; untrusted, bounded, stored nowhere).
The views are the engine's (`games/replays.py`), built in a worker thread, a few at a time per
node, because a long game folds thousands of actions. A running game is refused
(`game_not_over`): its record holds secrets still in play. After the game everything on the
table is public (docs/records.md), so a finished game's replay needs no seat token; team chat
stays with its team, so a stored game's replay carries the all-chat lines only.
"""

from __future__ import annotations

import gzip
from collections.abc import Mapping, Sequence
from typing import Any

import anyio
import msgspec

from codebreakers.games.base import GameRules
from codebreakers.games.records import PartialRecord, RecordError, check_envelope
from codebreakers.games.replays import (
    SPECTATOR,
    BadViewpoint,
    NotOver,
    Replay,
    TooLong,
    build_replay,
    viewpoints,
)
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.ops.config import Ports
from codebreakers.server.rooms import model

MAX_RECORD_BYTES = 2 * 1024 * 1024  # the longest replayable record (MAX_ACTIONS) is ~1 MB
_BUILDING = anyio.CapacityLimiter(2)  # replays built at once per node (2 cores)


class Seat(msgspec.Struct):
    seat: str
    team: str
    name: str | None  # None: not known (an uploaded record without chat from that seat)
    bot: bool


class StepOut(msgspec.Struct):
    actions: int  # actions of the record applied at this step
    at: float
    view: msgspec.Raw


class ReplayOut(msgspec.Struct):
    """The response, field by field (docs/replays.md)."""

    game: str
    game_id: str | None  # None for an uploaded record
    viewpoint: str
    viewpoints: list[str]
    seats: list[Seat]
    actions: int
    outcome: dict[str, Any] | None
    steps: list[StepOut]
    chat: list[dict[str, Any]]


_encode = msgspec.json.Encoder().encode


def _body(
    replay: Replay, game_id: str | None, names: Mapping[str, str], bots: frozenset[str]
) -> bytes:
    seats = [
        Seat(seat, team, names.get(seat), seat in bots)
        for team, members in replay.teams.items()
        for seat in members
    ]
    steps = [StepOut(s.actions, s.at, msgspec.Raw(s.view)) for s in replay.steps]
    out = ReplayOut(
        replay.game,
        game_id,
        replay.viewpoint,
        viewpoints(replay.teams),
        seats,
        replay.actions,
        replay.outcome,
        steps,
        replay.chat,
    )
    return _encode(out)


def _refusal(error: RecordError) -> Refused:
    if isinstance(error, NotOver):
        return Refused(ErrorCode.GAME_NOT_OVER, str(error))
    if isinstance(error, TooLong):
        return Refused(ErrorCode.REPLAY_TOO_LONG, str(error))
    if isinstance(error, BadViewpoint):
        return Refused(ErrorCode.BAD_VIEWPOINT, str(error))
    if isinstance(error, PartialRecord):
        return Refused(ErrorCode.RECORD_PARTIAL, str(error))
    return Refused(ErrorCode.BAD_RECORD, str(error))


async def _build(
    rules: GameRules[Any],
    setup: Mapping[str, Any],
    actions: Sequence[object],
    chat: object,
    viewpoint: str,
    gzipped: bool,
    game_id: str | None,
    names: Mapping[str, str],
    bots: frozenset[str] = frozenset(),
) -> bytes:
    """The response body (gzipped when asked: a long game's views are megabytes of JSON that
    repeat themselves), built off the event loop."""

    def work() -> bytes:
        replay = build_replay(rules, setup, actions, chat, viewpoint)
        shown = {**{line["seat"]: line["name"] for line in replay.chat if line["seat"]}, **names}
        body = _body(replay, game_id, shown, bots)
        return gzip.compress(body, compresslevel=5) if gzipped else body

    try:
        return await anyio.to_thread.run_sync(work, limiter=_BUILDING)
    except RecordError as error:
        raise _refusal(error) from None


async def stored_replay(ports: Ports, game_id: str, viewpoint: str | None, gzipped: bool) -> bytes:
    """A stored game's replay; refused while it runs."""
    store = ports.store
    game = await store.load_game(game_id)
    if game is None or game.game not in ports.rules:
        raise Refused(ErrorCode.GAME_NOT_FOUND, "no game has this id")
    if not game.over:
        raise Refused(ErrorCode.GAME_NOT_OVER, "a game is replayed once it is over")
    room = await store.load_room(game.room_code)
    players = model.load(room.data).players if room is not None else {}
    names = {pid: p.name for pid, p in players.items()}
    bots = frozenset(pid for pid, p in players.items() if not p.human)
    chat = [
        {"channel": "all", "seat": line.seat, "name": line.name, "text": line.text, "at": line.at}
        for line in await store.chat_of_game(game_id)
        if line.channel == "all"
    ]
    actions = [{"seat": a.seat, "action": a.action, "at": a.at} for a in game.actions]
    return await _build(
        ports.rules[game.game],
        game.setup,
        actions,
        chat,
        viewpoint or SPECTATOR,
        gzipped,
        game_id,
        names,
        bots,
    )


async def uploaded_replay(body: bytes, viewpoint: str | None, gzipped: bool) -> bytes:
    """An uploaded record's replay: checked like `codebreakers replay FILE`, kept nowhere."""
    try:
        doc = msgspec.json.decode(body)
    except msgspec.DecodeError as exc:
        raise Refused(ErrorCode.BAD_JSON, str(exc)) from None
    except RecursionError:
        raise Refused(ErrorCode.BAD_JSON, "nested too deeply") from None
    try:
        rules, setup, actions = check_envelope(doc)
    except RecordError as error:
        raise _refusal(error) from None
    chat = doc.get("chat", [])
    return await _build(rules, setup, actions, chat, viewpoint or SPECTATOR, gzipped, None, {})
