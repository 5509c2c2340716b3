"""How a round moves on by itself: classic-order read-outs, reveals with their tokens, round ends.

Called after every transmission and lock (by a player or by a timer), so the rules for what
happens next live in one place.
"""

from __future__ import annotations

from codebreakers.games.decrypto.ending import end_round
from codebreakers.games.decrypto.state import BLACK, GameState, Round, evolve


def read_out(rnd: Round, classic: bool, now: float) -> Round:
    """Classic order: once all transmissions are written, read out the first one not revealed."""
    if not classic:
        return rnd
    written = [t for t in rnd.transmissions if t is not None]
    if any(t.clues is None for t in written):
        return rnd
    for t in written:
        if not t.revealed:
            return rnd if t.read_at is not None else rnd.with_transmission(evolve(t, read_at=now))
    return rnd


def settle(state: GameState, team: int, now: float) -> GameState:
    """Reveal `team`'s transmission once its decode and interception are locked, then go on."""
    rnd = state.current
    t = rnd.transmissions[team]
    assert t is not None
    if not t.decode.locked or (t.interception is not None and not t.interception.locked):
        return state
    t = evolve(t, revealed=True)
    tokens = [list(state.tokens[0]), list(state.tokens[1])]
    if not t.decoded:
        if state.table.options.three_player:
            tokens[BLACK][0] += 1  # the solo player gets a ⚪ for the pair's miscommunication
        else:
            tokens[team][1] += 1
    if t.intercepted:
        tokens[1 - team][0] += 1
    rnd = read_out(rnd.with_transmission(t), state.table.options.classic, now)
    state = state.with_round(
        rnd, tokens=((tokens[0][0], tokens[0][1]), (tokens[1][0], tokens[1][1]))
    )
    if all(x is None or x.revealed for x in rnd.transmissions):
        return end_round(state, now)
    return state
