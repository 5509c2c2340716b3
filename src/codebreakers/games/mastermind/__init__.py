"""Super Mastermind's rules engine and computer codebreaker: pure, no clock, no global random.

`RULES` fulfils `codebreakers.games.base.GameRules`; docs/mastermind.md is its contract with the
server, the browser client and the bots, and lists every code in `REJECTION_CODES`.
"""

from codebreakers.games.mastermind.rejections import REJECTION_CODES
from codebreakers.games.mastermind.rules import MastermindRules
from codebreakers.games.mastermind.state import TEAMS, GameState

RULES = MastermindRules()

__all__ = ["REJECTION_CODES", "RULES", "TEAMS", "GameState", "MastermindRules"]
