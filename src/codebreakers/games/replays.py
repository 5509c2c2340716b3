"""Replays: a finished game's record as the steps one viewpoint saw, each with its view.

A replay is built from the record the way `records.replay` checks one (every action parsed and
applied again), and every step's view is the rules' own `views_json` for the chosen viewer, so
a replay can show nothing that seat did not see at that moment. A step is kept only when the
viewer's view changed: an action it could not see (the enemy's drafts and proposals, another
seat's notes) leaves no step, so neither what it was nor when it happened shows.

Only finished games are replayed: while a game runs, its record is a secret for most seats.
The work is bounded (`MAX_ACTIONS`, `MAX_CHAT`, `MAX_TEXT`), since an uploaded record is
untrusted input; nothing here keeps anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from codebreakers.games.base import JSON, GameRules, Viewer
from codebreakers.games.records import CHANNELS, RecordError, folding, visible_chat

MAX_ACTIONS = 5000  # a long Decrypto game with drafts typed slowly holds ~1,000
MAX_CHAT = 2000
MAX_TEXT = 500  # a chat line's text (the server refuses longer ones: chat_too_long)
MAX_NAME = 64
SPECTATOR = "spectator"  # a spectator without secrets
EVERYTHING = "all"  # an open spectator: every secret, as everyone sees them at the end


class NotOver(RecordError):
    """The record's game did not end: its replay would hand out secrets still in play."""


class TooLong(RecordError):
    """The record holds more actions or chat lines than a replay takes."""


class BadViewpoint(RecordError):
    """The viewpoint asked for is not a seat of the game, `spectator` or `all`."""


@dataclass(frozen=True, slots=True)
class Step:
    """What the viewer saw after `actions` actions of the record, from time `at` on."""

    actions: int
    at: float
    view: bytes  # the viewer's view, JSON (docs/views.md)


@dataclass(frozen=True, slots=True)
class Replay:
    game: str
    teams: dict[str, list[str]]  # the setup's seats, team by team in table order
    viewpoint: str
    actions: int  # in the whole record
    steps: list[Step]
    chat: list[JSON]  # lines the viewer may read: channel, seat, name, text, at
    outcome: JSON | None


def viewpoints(teams: Mapping[str, Sequence[str]]) -> list[str]:
    """Every viewpoint a replay of this game offers: each seat, a spectator, everything."""
    return [seat for seats in teams.values() for seat in seats] + [SPECTATOR, EVERYTHING]


def viewer_for(viewpoint: str, teams: Mapping[str, Sequence[str]]) -> Viewer:
    if viewpoint == SPECTATOR:
        return Viewer(None)
    if viewpoint == EVERYTHING:
        return Viewer(None, open_spectator=True)
    if viewpoint in viewpoints(teams):
        return Viewer(viewpoint)
    raise BadViewpoint(f"viewpoint {viewpoint[:40]!r}: a seat of the game, spectator or all")


def _teams(setup: Mapping[str, Any]) -> dict[str, list[str]]:
    teams = setup.get("teams")
    if not isinstance(teams, Mapping) or not all(
        isinstance(seats, list) and all(isinstance(s, str) for s in seats)
        for seats in teams.values()
    ):
        raise RecordError('"setup.teams" must map each team to a list of seat ids')
    return {str(team): list(seats) for team, seats in teams.items()}


def _chat(lines: object) -> list[Mapping[str, Any]]:
    """An untrusted record's chat, checked line by line (the replay shows it as text)."""
    if not isinstance(lines, list):
        raise RecordError('"chat" must be a list')
    if len(lines) > MAX_CHAT:
        raise TooLong(f"a replay takes at most {MAX_CHAT} chat lines")
    for index, line in enumerate(lines):
        ok = (
            isinstance(line, Mapping)
            and line.get("channel") in CHANNELS
            and isinstance(line.get("text"), str)
            and len(line["text"]) <= MAX_TEXT
            and isinstance(line.get("name", ""), str)
            and len(line.get("name", "")) <= MAX_NAME
            and isinstance(line.get("seat"), str | None)
            and isinstance(line.get("at"), int | float)
            and not isinstance(line.get("at"), bool)
        )
        if not ok:
            raise RecordError(f"chat line {index}: needs channel, text, seat and at", index)
    return lines


def build_replay(
    rules: GameRules[Any],
    setup: Mapping[str, Any],
    actions: Sequence[object],
    chat: object,
    viewpoint: str,
) -> Replay:
    """Fold the record and keep what `viewpoint` saw; RecordError (or one of its kinds above)
    says why a record can't be replayed. `chat` is the record's: lines with `channel` "all" or
    "team", `seat`, `name`, `text` and `at`."""
    if len(actions) > MAX_ACTIONS:
        raise TooLong(f"a replay takes at most {MAX_ACTIONS} actions")
    teams = _teams(setup)
    viewer = viewer_for(viewpoint, teams)
    lines = _chat(chat)
    steps: list[Step] = []
    state = None
    now = setup.get("now")
    for applied, (entry, state) in enumerate(folding(rules, setup, actions)):
        view = rules.views_json(state, [viewer])[0]
        if steps and steps[-1].view == view:
            continue
        at = entry["at"] if entry else now if isinstance(now, int | float) else 0.0
        steps.append(Step(applied, float(at), view))
    if state is None or not rules.is_over(state):
        raise NotOver("the game of this record is not over")
    shown = [
        {
            "channel": line["channel"],
            "seat": line.get("seat"),
            "name": line.get("name", ""),
            "text": line["text"],
            "at": line["at"],
        }
        for line in visible_chat(rules, state, lines, viewer)
    ]
    return Replay(rules.name, teams, viewpoint, len(actions), steps, shown, rules.outcome(state))
