"""Decrypto's rules engine: pure functions of (state, action), no clock, no global random.

`RULES` fulfils `codebreakers.games.base.GameRules`; docs/views.md is its contract with the server,
the browser client and the bots, and lists every code in `REJECTION_CODES`.
"""

from codebreakers.games.decrypto.rejections import REJECTION_CODES
from codebreakers.games.decrypto.rules import DecryptoRules
from codebreakers.games.decrypto.state import TEAMS, GameState

RULES = DecryptoRules()

__all__ = ["REJECTION_CODES", "RULES", "TEAMS", "DecryptoRules", "GameState"]
