"""Decrypto's results per seat: the outcome, and what players count over their games.

Figures (only transmissions whose clues were given and revealed count):
- as encryptor: `encrypted` transmissions, `encrypted_decoded` by the own team,
  `encrypted_intercepted` by the enemy;
- as decoder (a teammate of the encryptor): `decoding` transmissions, `decoded`;
- as interceptor (every member of the other team, from round 2): `intercepting`, `intercepted`.
"""

from __future__ import annotations

from codebreakers.games.decrypto.state import TEAMS, GameState
from codebreakers.games.results import GameResults, SeatResult, result_of

FIGURES = (
    "encrypted",
    "encrypted_decoded",
    "encrypted_intercepted",
    "decoding",
    "decoded",
    "intercepting",
    "intercepted",
)


def results(state: GameState) -> GameResults | None:
    """Each seat's result and figures; None while the game runs."""
    if state.outcome is None:
        return None
    table = state.table
    counts = {seat: dict.fromkeys(FIGURES, 0) for seat in table.all_seats}
    for rnd in state.rounds:
        for t in rnd.transmissions:
            if t is None or not t.revealed or t.clues is None:
                continue
            own = table.seats[t.team]
            enemy = table.seats[1 - t.team]
            mine = counts[t.encryptor]
            mine["encrypted"] += 1
            mine["encrypted_decoded"] += t.decoded
            mine["encrypted_intercepted"] += bool(t.intercepted)
            for seat in own:
                if seat != t.encryptor:
                    counts[seat]["decoding"] += 1
                    counts[seat]["decoded"] += t.decoded
            if t.intercepted is not None:
                for seat in enemy:
                    counts[seat]["intercepting"] += 1
                    counts[seat]["intercepted"] += t.intercepted
    variant = "three_player" if table.options.three_player else "teams"
    winner = state.outcome.winner
    return GameResults(
        variant,
        {
            seat: SeatResult(TEAMS[team], result_of(team, winner), counts[seat])
            for team, seats in enumerate(table.seats)
            for seat in seats
        },
    )
