"""Game records: a game is `setup + ordered actions`, exported as one JSON document and replayed.

A record holds the seed, and the seed deals every secret (Decrypto's keywords and codes), so a
record of a game still being played is exported in full only to an open spectator; anyone else
gets a *partial* record: no seed, no actions, just the view that seat already has
(docs/records.md). Replaying checks every action again, as if it came from a browser, and names
the first one the rules refuse.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from codebreakers.games.base import JSON, GameRules, Rejection, Viewer
from codebreakers.games.registry import RULES_BY_NAME

FORMAT = "codebreakers-record"
VERSION = 1
CHANNELS = ("all", "team")


class RecordError(ValueError):
    """A record that cannot be replayed; `index` is the first bad action's (0-based), if any."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class PartialRecord(RecordError):
    """A record exported during the game: it holds a view, not the actions."""


@dataclass(frozen=True, slots=True)
class Replayed:
    """A record folded back into its game: the rules, the final state, the actions applied."""

    rules: GameRules[Any]
    state: Any
    actions: int


def build_record(
    game: str,
    setup: Mapping[str, Any],
    actions: Sequence[Mapping[str, Any]],
    chat: Sequence[Mapping[str, Any]] = (),
) -> JSON:
    """The full record document (every action, every chat line, the seed)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "complete": True,
        "setup": dict(setup),
        "actions": [{"seat": a["seat"], "action": a["action"], "at": a["at"]} for a in actions],
        "chat": [dict(line) for line in chat],
    }


def rules_for(game: object) -> GameRules[Any]:
    rules = RULES_BY_NAME.get(game) if isinstance(game, str) else None
    if rules is None:
        raise RecordError(f"unknown game {game!r}; known: {', '.join(sorted(RULES_BY_NAME))}")
    return rules


def check_envelope(doc: object) -> tuple[GameRules[Any], Mapping[str, Any], list[Any]]:
    """The rules, setup and actions of a record document, its format checked (not its moves)."""
    if not isinstance(doc, Mapping):
        raise RecordError("a record is a JSON object")
    if doc.get("format") != FORMAT:
        raise RecordError(f'"format" must be "{FORMAT}"')
    if doc.get("version") != VERSION:
        raise RecordError(f"unsupported version {doc.get('version')!r}; this build reads {VERSION}")
    rules = rules_for(doc.get("game"))
    if doc.get("complete") is False:
        raise PartialRecord("a partial record (exported during the game) cannot be replayed")
    setup, actions = doc.get("setup"), doc.get("actions")
    if not isinstance(setup, Mapping):
        raise RecordError('"setup" must be an object')
    if not isinstance(actions, list):
        raise RecordError('"actions" must be a list')
    return rules, setup, actions


def _reason(rejection: Rejection) -> str:
    return f"{rejection.code}: {rejection.detail}" if rejection.detail else rejection.code


def _describe(index: int, entry: Mapping[str, Any]) -> str:
    action = entry.get("action")
    kind = action.get("type") if isinstance(action, Mapping) else None
    return f"action {index} (seat {entry.get('seat')!r}, type {kind!r})"


def folding(
    rules: GameRules[Any], setup: Mapping[str, Any], actions: Sequence[object]
) -> Iterator[tuple[Mapping[str, Any], Any]]:
    """The states a record goes through: the first one with `{}`, then each action checked
    (parsed and applied as if it came from a browser) with the state after it."""
    state = rules.new_game(setup)
    if isinstance(state, Rejection):
        raise RecordError(f"setup refused: {_reason(state)}")
    yield {}, state
    for index, entry in enumerate(actions):
        if not isinstance(entry, Mapping) or set(entry) != {"seat", "action", "at"}:
            raise RecordError(f"action {index}: needs exactly seat, action and at", index)
        seat, at = entry["seat"], entry["at"]
        if not isinstance(seat, str) or not isinstance(at, int | float) or isinstance(at, bool):
            raise RecordError(f"{_describe(index, entry)}: seat must be text, at a time", index)
        action = rules.parse_action(entry["action"])
        if isinstance(action, Rejection):
            raise RecordError(f"{_describe(index, entry)}: {_reason(action)}", index)
        applied = rules.apply(state, seat, action, float(at))
        if isinstance(applied, Rejection):
            raise RecordError(f"{_describe(index, entry)} refused: {_reason(applied)}", index)
        state = applied.state
        yield entry, state


def fold(rules: GameRules[Any], setup: Mapping[str, Any], actions: Sequence[object]) -> Replayed:
    """`state == fold(setup, actions)`: every action parsed and applied in order."""
    *_, (_, state) = folding(rules, setup, actions)
    return Replayed(rules, state, len(actions))


def replay(doc: object) -> Replayed:
    """Check a record document and fold it; RecordError names what is wrong."""
    rules, setup, actions = check_envelope(doc)
    return fold(rules, setup, actions)


def visible_chat(
    rules: GameRules[Any], state: Any, chat: Sequence[Mapping[str, Any]], viewer: Viewer
) -> list[JSON]:
    """All-chat lines, and team-chat lines of the viewer's own team (open spectators: all)."""
    if viewer.open_spectator:
        return [dict(line) for line in chat]
    team = rules.seat_team(state, viewer.seat) if viewer.seat is not None else None
    return [
        dict(line)
        for line in chat
        if line.get("channel") == "all"
        or (team is not None and rules.seat_team(state, str(line.get("seat"))) == team)
    ]


def export_record(
    game_name: str,
    setup: Mapping[str, Any],
    actions: Sequence[Mapping[str, Any]],
    chat: Sequence[Mapping[str, Any]],
    viewer: Viewer,
) -> JSON:
    """The record `viewer` may take away.

    Over, or for an open spectator: the full, replayable record (minus other seats' private
    actions, such as Decrypto notes, and other teams' team chat). During the game, for anyone
    else: a partial record with the teams and the viewer's own view, and no seed or actions.
    """
    rules = rules_for(game_name)
    state = fold(rules, setup, actions).state
    if viewer.seat is not None and rules.seat_team(state, viewer.seat) is not None:
        viewer = Viewer(viewer.seat)  # a seated player is never an open spectator
    lines = visible_chat(rules, state, chat, viewer)
    if rules.is_over(state) or viewer.open_spectator:
        private: frozenset[str] = getattr(rules, "private_actions", frozenset())
        kept = [
            a for a in actions if a["action"].get("type") not in private or a["seat"] == viewer.seat
        ]
        return build_record(game_name, setup, kept, lines)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game_name,
        "complete": False,
        "setup": {"teams": setup.get("teams")},
        "actions": None,
        "view": rules.view(state, viewer),
        "chat": lines,
    }
