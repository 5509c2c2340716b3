"""The contract every game's rules fulfil, so the server, the store and the bots stay game-agnostic.

A game is `setup + ordered actions`: `new_game(setup)` builds the first state and
`apply(state, seat, action, now)` folds one action in. Both are pure: randomness comes from
`setup["seed"]`, time from the `now` argument (seconds since the epoch, from the server's clock).
Actions are typed documents (`Action`, a msgspec Struct per kind, one tagged union per game):
untrusted JSON becomes one at the edge (`parse_action`), a stored one again with `load_action`,
and `Action.to_json()` is the JSON a game log stores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import msgspec

from codebreakers.games.results import GameResults

JSON = dict[str, Any]
S = TypeVar("S")

# The seat id the server uses for actions that no player sends (timeouts).
SYSTEM_SEAT = "system"

_to_json = msgspec.json.Encoder().encode
_from_json = msgspec.json.Decoder().decode


class Action(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """A well-formed game action; each game's kinds subclass it with `tag="kind"`.

    The JSON form (`to_json`, and msgspec's encoding) is `{"type": kind, **fields}`, the shape
    stored game logs and golden records hold.
    """

    # For the decoder (games/actions.py): field name -> (rejection code, detail) when the
    # field is missing or mistyped, and the exact field sets a kind with optional fields takes.
    field_errors: ClassVar[Mapping[str, tuple[str, str]]] = {}
    shapes: ClassVar[tuple[frozenset[str], ...] | None] = None

    def to_json(self) -> JSON:
        """The action as stored: plain JSON values (lists, not tuples)."""
        result: JSON = _from_json(_to_json(self))
        return result


@dataclass(frozen=True, slots=True)
class Rejection:
    """Expected illegal play: a stable, documented code the client translates, plus a detail.

    `code` is a member of the game's `RejectionCode` (a StrEnum: equal to, and serialised as,
    its string value)."""

    code: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Applied(Generic[S]):
    """The state after one action: the only thing the server keeps of an applied action (the
    action itself goes to the log, and what changed reaches clients as views)."""

    state: S


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a seat id, or None for a spectator (open spectators see every secret)."""

    seat: str | None
    open_spectator: bool = False


class GameRules(Protocol[S]):
    """What the server needs of a game; implemented once per game as a module-level object."""

    name: str

    def check_options(self, options: Mapping[str, Any]) -> JSON | Rejection:
        """Validated options with defaults filled in, or why they are refused."""
        ...

    def team_sizes(self, options: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
        """Team name -> (minimum, maximum) players, in seating order of the teams."""
        ...

    def new_game(self, setup: Mapping[str, Any]) -> S | Rejection:
        """First state from `{"options", "teams": {team: [seat ids]}, "seed", "now"}`."""
        ...

    def parse_action(self, raw: Any) -> Action | Rejection:
        """Untrusted JSON -> one of this game's actions, its text normalised and its sizes
        bounded, or a rejection with a stable code (malformed input is not illegal play)."""
        ...

    def load_action(self, stored: Mapping[str, Any]) -> Action:
        """A stored action (`Action.to_json()` of one checked when it was first applied) back
        as a typed action, without the edge's checks again; a row that isn't one is a bug."""
        ...

    def apply(self, state: S, seat: str, action: Action, now: float) -> Applied[S] | Rejection:
        """Apply one action by `seat` (or SYSTEM_SEAT for a timeout) at time `now`."""
        ...

    def view(self, state: S, viewer: Viewer) -> JSON:
        """Everything `viewer` may see, built by listing it (never by deleting secrets)."""
        ...

    def views_json(self, state: S, viewers: Sequence[Viewer]) -> list[bytes]:
        """`view(state, viewer)` serialised as JSON (UTF-8) for each of `viewers`, in order:
        what a server sends after a change. A game may build once what viewers share, and
        keep parts encoded."""
        ...

    def slow_view_work(self, state: S) -> Callable[[], None] | None:
        """The parts of this state's views too slow to build on a server's event loop and not
        built yet, as a function to run first in a worker thread; None when there are none."""
        ...

    def next_deadline(self, state: S) -> float | None:
        """When a `{"type": "timeout"}` action by SYSTEM_SEAT becomes applicable, if ever."""
        ...

    def is_over(self, state: S) -> bool: ...

    def outcome(self, state: S) -> JSON | None:
        """Winner (team name or None for a draw) and how it was decided, once over."""
        ...

    def results(self, state: S) -> GameResults | None:
        """Each seat's result and figures once over (games/results.py), None before."""
        ...

    def can_chat(self, state: S, seat: str, channel: str) -> bool:
        """Whether `seat` may write in `channel` ("team" or "all") right now."""
        ...

    def seat_team(self, state: S, seat: str) -> str | None: ...
