"""The end of the game, checked only when a round ends, and the tie-break that may follow.

White is favoured when White reached victory (2 ⚪) or Black reached defeat (2 ⚫), and Black
likewise; a team favoured alone wins, both favoured (or round 8 over) is a tie broken by points,
then by guessing the enemy's keywords, then shared (RULES.md "End of the game").
"""

from __future__ import annotations

from codebreakers.games.base import JSON
from codebreakers.games.decrypto.clues import fold_text
from codebreakers.games.decrypto.deal import start_round
from codebreakers.games.decrypto.state import (
    BLACK,
    OVER,
    TEAMS,
    TIEBREAK_GUESS,
    WHITE,
    GameState,
    Outcome,
    Pair,
    Tiebreak,
    evolve,
)

VICTORY_TOKENS = 2
DEFEAT_TOKENS = 2


def _reached(state: GameState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    def of(team: int) -> tuple[str, ...]:
        interceptions, miscommunications = state.tokens[team]
        return ("victory",) * (interceptions >= VICTORY_TOKENS) + ("defeat",) * (
            miscommunications >= DEFEAT_TOKENS
        )

    return of(WHITE), of(BLACK)


def points(state: GameState) -> Pair:
    return (
        state.tokens[0][0] - state.tokens[0][1],
        state.tokens[1][0] - state.tokens[1][1],
    )


def _tie_cause(reached: tuple[tuple[str, ...], tuple[str, ...]]) -> str:
    if not reached[0] and not reached[1]:
        return "max_rounds"
    if any(len(team) == 2 for team in reached):
        return "victory_and_defeat"
    return "both_victory" if reached[0] == ("victory",) else "both_defeat"


def _three_player_end(state: GameState) -> Outcome | None:
    number = state.current.number
    if state.tokens[BLACK][0] >= VICTORY_TOKENS:
        return Outcome(BLACK, "solo_interceptions", points(state), number)
    if number >= state.table.options.max_rounds:
        return Outcome(WHITE, "pair_survived", points(state), number)
    return None


def _finish(state: GameState, outcome: Outcome) -> GameState:
    return evolve(state, phase=OVER, outcome=outcome)


def end_round(state: GameState, now: float) -> GameState:
    """Check the end of the game; start the next round, the tie-break, or finish."""
    number = state.current.number
    if state.table.options.three_player:
        outcome = _three_player_end(state)
    else:
        reached = _reached(state)
        white = "victory" in reached[0] or "defeat" in reached[1]
        black = "victory" in reached[1] or "defeat" in reached[0]
        if white != black:
            winner = WHITE if white else BLACK
            why = "interceptions" if "victory" in reached[winner] else "miscommunications"
            outcome = Outcome(winner, why, points(state), number, reached=reached)
        elif white or number >= state.table.options.max_rounds:
            return _tie(state, reached, now)
        else:
            outcome = None
    if outcome is not None:
        return _finish(state, outcome)
    return evolve(state, rounds=(*state.rounds, start_round(state.table, number + 1, now)))


def _tie(
    state: GameState, reached: tuple[tuple[str, ...], tuple[str, ...]], now: float
) -> GameState:
    cause = _tie_cause(reached)
    score = points(state)
    number = state.current.number
    if score[0] != score[1]:
        winner = WHITE if score[0] > score[1] else BLACK
        outcome = Outcome(winner, "points", score, number, cause, reached)
        return _finish(state, outcome)
    no = (False, False, False, False)
    tiebreak = Tiebreak(now, (None, None), (no, no), (False, False), cause=cause, reached=reached)
    return evolve(state, phase=TIEBREAK_GUESS, tiebreak=tiebreak)


def exact_matches(state: GameState, guesser: int) -> tuple[bool, ...]:
    """Which of `guesser`'s guesses equal the enemy keyword after case/accent/space folding."""
    assert state.tiebreak is not None
    guesses = state.tiebreak.guesses[guesser]
    if guesses is None:
        return (False, False, False, False)
    keywords = state.table.keywords[1 - guesser]
    return tuple(
        bool(g) and fold_text(g) == fold_text(k) for g, k in zip(guesses, keywords, strict=True)
    )


def matches(state: GameState, guesser: int) -> tuple[bool, ...]:
    """Exact matches plus the near misses the keywords' owners accepted."""
    assert state.tiebreak is not None
    accepted = state.tiebreak.accepted[guesser]
    return tuple(e or a for e, a in zip(exact_matches(state, guesser), accepted, strict=True))


def finish_tiebreak(state: GameState) -> GameState:
    """Both teams reviewed: more right guesses wins, otherwise a shared victory."""
    tb = state.tiebreak
    assert tb is not None
    hits = (sum(matches(state, WHITE)), sum(matches(state, BLACK)))
    winner = None if hits[0] == hits[1] else (WHITE if hits[0] > hits[1] else BLACK)
    outcome = Outcome(
        winner,
        "keywords" if winner is not None else "shared",
        points(state),
        state.current.number,
        tb.cause,
        tb.reached,
        hits,
    )
    return _finish(state, outcome)


def outcome_json(outcome: Outcome) -> JSON:
    def by_team(pair: tuple[object, object]) -> JSON:
        return {TEAMS[0]: pair[0], TEAMS[1]: pair[1]}

    return {
        "winner": TEAMS[outcome.winner] if outcome.winner is not None else None,
        "reason": outcome.reason,
        "points": by_team(outcome.points),
        "rounds": outcome.rounds,
        "tie": None
        if outcome.tie_cause is None
        else {
            "cause": outcome.tie_cause,
            "reached": by_team((list(outcome.reached[0]), list(outcome.reached[1]))),
        },
        "keyword_hits": by_team(outcome.keyword_hits) if outcome.keyword_hits else None,
    }
