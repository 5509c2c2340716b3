"""What the server needs of a bot: given only its seat's view, the next move (or nothing to do).

Bots are ordinary players (ARCHITECTURE.md lesson 9): they see what their seat sees and send the
same actions as people, so they cannot cheat and the load generator can reuse them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class BotMove:
    """One action to send, and optionally a line the bot says in chat about it."""

    action: JSON
    chat: str | None = None
    channel: str = "team"


class Bot(Protocol):
    def decide(self, view: JSON) -> BotMove | None:
        """The move this seat wants to make now, or None when it has nothing to do.

        Deterministic for a given (seed, view); may take up to a few hundred milliseconds, so
        the server runs it off the event loop.
        """
        ...
