"""The contract every game's rules fulfil, so the server, the store and the bots stay game-agnostic.

A game is `setup + ordered actions`: `new_game(setup)` builds the first state and
`apply(state, seat, action, now)` folds one action in. Both are pure: randomness comes from
`setup["seed"]`, time from the `now` argument (seconds since the epoch, from the server's clock).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

JSON = dict[str, Any]
S = TypeVar("S")

# The seat id the server uses for actions that no player sends (timeouts).
SYSTEM_SEAT = "system"


@dataclass(frozen=True, slots=True)
class Rejection:
    """Expected illegal play: a stable, documented code the client translates, plus a detail."""

    code: str
    detail: str = ""


def declared_codes(namespace: Mapping[str, object]) -> frozenset[str]:
    """The stable codes a rejections module declares as UPPER_CASE string constants."""
    return frozenset(
        value for name, value in namespace.items() if name.isupper() and isinstance(value, str)
    )


def checked_rejection(codes: frozenset[str], code: str, detail: str = "") -> Rejection:
    """A rejection whose code is one of `codes` (a typo there is a bug, not a rejection)."""
    assert code in codes, code
    return Rejection(code, detail)


@dataclass(frozen=True, slots=True)
class Applied(Generic[S]):
    """The state after one action and what happened, for notifications and bot chatter."""

    state: S
    events: tuple[JSON, ...] = ()


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

    def parse_action(self, raw: Any) -> JSON | Rejection:
        """Untrusted JSON -> a well-formed action dict (types, size bounds), or a rejection."""
        ...

    def apply(
        self, state: S, seat: str, action: Mapping[str, Any], now: float
    ) -> Applied[S] | Rejection:
        """Apply one parsed action by `seat` (or SYSTEM_SEAT for a timeout) at time `now`."""
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

    def can_chat(self, state: S, seat: str, channel: str) -> bool:
        """Whether `seat` may write in `channel` ("team" or "all") right now."""
        ...

    def seat_team(self, state: S, seat: str) -> str | None: ...
