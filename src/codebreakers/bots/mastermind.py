"""The Mastermind computer player as a server bot: the engine's `computer_move` behind `Bot`.

The engine owns the play (random code as maker, honest keys with manual marking, the solver's
guess as breaker; docs/mastermind.md, "The computer player"); this adapter only fits it to the
protocol the server drives seats through. It plays one strength: the level, language and seed
the server passes are ignored (make_bot's signature is shared with Decrypto), since the
code a computer maker draws comes from the match seed inside the engine.
"""

from __future__ import annotations

from codebreakers.bots.base import JSON, BotMove
from codebreakers.games.mastermind.computer import computer_move


class MastermindBot:
    """Stateless: everything it needs is in the view, so a restarted server's bot plays on."""

    __slots__ = ()

    def decide(self, view: JSON) -> BotMove | None:
        action = computer_move(view)
        return None if action is None else BotMove(action)
