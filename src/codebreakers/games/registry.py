"""Game name -> rules object: how the server, the store and the replay find a game's rules."""

from __future__ import annotations

from typing import Any

from codebreakers.games.base import GameRules
from codebreakers.games.decrypto import RULES as DECRYPTO
from codebreakers.games.mastermind import RULES as MASTERMIND

RULES_BY_NAME: dict[str, GameRules[Any]] = {
    DECRYPTO.name: DECRYPTO,
    MASTERMIND.name: MASTERMIND,
}
