"""Timers as data: the deadlines a state implies, and what a `timeout` does once one has passed.

The engine never reads a clock. Deadlines are computed from times stored in the state (when the
round started, when a transmission went out, when an answer opened); the server asks
`next_deadline`, waits, and sends `{"type": "timeout"}` as SYSTEM_SEAT with its clock's `now`.
"""

from __future__ import annotations

from dataclasses import dataclass

from codebreakers.games.base import JSON, Applied, Rejection
from codebreakers.games.decrypto.clues import check_clues
from codebreakers.games.decrypto.options import SAND_TIMER_S
from codebreakers.games.decrypto.play import lock_answer, send
from codebreakers.games.decrypto.rejections import RejectionCode, reject
from codebreakers.games.decrypto.state import (
    ROUND,
    TEAMS,
    TIEBREAK_GUESS,
    TIEBREAK_REVIEW,
    Clues,
    GameState,
    Round,
    Transmission,
)
from codebreakers.games.decrypto.tiebreak import finish_review, record_guesses

_KIND_ORDER = {"clue": 0, "sand": 0, "decide": 1}


@dataclass(frozen=True, slots=True)
class Deadline:
    at: float
    kind: str  # "sand" | "clue" | "decide"
    team: int  # the team that must act
    target: str | None  # "own" | "enemy" for a lock; None for writing and the tie-break
    # The limit's whole length: a client whose estimate of the server's clock runs late (a
    # delayed message) would otherwise show more time left than the limit gives.
    seconds: float

    def to_json(self) -> JSON:
        return {
            "at": self.at,
            "kind": self.kind,
            "team": TEAMS[self.team],
            "target": self.target,
            "seconds": self.seconds,
        }


def interception_opened(rnd: Round, t: Transmission, classic: bool) -> float | None:
    """When the enemy of `t`'s team could start locking its interception, if it can yet."""
    if t.read_at is None or t.interception is None:
        return None
    if classic:
        return t.read_at
    theirs = rnd.transmissions[1 - t.team]
    if theirs is None:
        return t.read_at
    if theirs.decode.locked_at is None:
        return None
    return max(t.read_at, theirs.decode.locked_at)


def _round_deadlines(state: GameState) -> list[Deadline]:
    options = state.table.options
    rnd = state.current
    present = [t for t in rnd.transmissions if t is not None]
    writing = [t for t in present if t.clues is None]
    sent = [t.transmitted_at for t in present if t.transmitted_at is not None]
    found: list[Deadline] = []
    clue_limit = options.clue_limit_s
    if clue_limit is not None:
        found += [
            Deadline(rnd.started_at + clue_limit, "clue", t.team, None, clue_limit) for t in writing
        ]
    if options.sand_timer and writing and sent:
        found += [
            Deadline(min(sent) + SAND_TIMER_S, "sand", t.team, None, SAND_TIMER_S) for t in writing
        ]
    limit = options.decide_limit_s
    if limit is None:
        return found
    for t in present:
        if t.read_at is not None and not t.decode.locked:
            found.append(Deadline(t.read_at + limit, "decide", t.team, "own", limit))
        opened = interception_opened(rnd, t, options.classic)
        if opened is not None and t.interception is not None and not t.interception.locked:
            found.append(Deadline(opened + limit, "decide", 1 - t.team, "enemy", limit))
    return found


def deadlines(state: GameState) -> list[Deadline]:
    """Every running deadline, earliest first."""
    options = state.table.options
    limit = options.decide_limit_s
    if limit is None and options.clue_limit_s is None and not options.sand_timer:
        return []
    tb = state.tiebreak
    found: list[Deadline] = []
    if state.phase == ROUND:
        found = _round_deadlines(state)
    elif state.phase == TIEBREAK_GUESS and limit is not None and tb is not None:
        found = [
            Deadline(tb.started_at + limit, "decide", team, None, limit)
            for team in (0, 1)
            if tb.guesses[team] is None
        ]
    elif state.phase == TIEBREAK_REVIEW and limit is not None and tb is not None:
        assert tb.review_started_at is not None
        found = [
            Deadline(tb.review_started_at + limit, "decide", team, None, limit)
            for team in (0, 1)
            if not tb.reviewed[team]
        ]
    return sorted(found, key=lambda d: (d.at, _KIND_ORDER[d.kind], d.team))


def next_deadline(state: GameState) -> float | None:
    found = deadlines(state)
    return found[0].at if found else None


def forced_clues(state: GameState, t: Transmission) -> Clues:
    """What the late encryptor typed, blanks for empty slots and for clues the rules refuse."""
    typed = list(t.draft or ("", "", ""))
    for index in range(3):
        kept = [clue if i < index else "" for i, clue in enumerate(typed)]
        kept[index] = typed[index]
        if typed[index] and check_clues(kept, state.table.keywords[t.team], state.used_clues):
            typed[index] = ""
    return (typed[0], typed[1], typed[2])


def _expire(state: GameState, deadline: Deadline, now: float) -> GameState:
    """Apply one passed deadline's consequence, if the state still calls for it."""
    if state.phase == TIEBREAK_GUESS:
        assert state.tiebreak is not None
        if state.tiebreak.guesses[deadline.team] is not None:
            return state
        return record_guesses(state, deadline.team, ("", "", "", ""), now)
    if state.phase == TIEBREAK_REVIEW:
        assert state.tiebreak is not None
        if state.tiebreak.reviewed[deadline.team]:
            return state
        return finish_review(state, deadline.team)
    if state.phase != ROUND:
        return state
    if deadline.kind in ("clue", "sand"):
        t = state.current.transmissions[deadline.team]
        if t is None or t.clues is not None:
            return state
        return send(state, t, forced_clues(state, t), now)
    own = deadline.target == "own"
    t = state.current.transmissions[deadline.team if own else 1 - deadline.team]
    answer = t.answer(own) if t is not None else None
    if t is None or answer is None or answer.locked:
        return state
    code = answer.proposals[-1][1] if answer.proposals else None
    return lock_answer(state, t, own, code, now)


def timeout(state: GameState, now: float) -> Applied[GameState] | Rejection:
    """Apply every deadline that has passed at `now`, in a fixed order (writing before locking)."""
    due = [d for d in deadlines(state) if d.at <= now]
    if not due:
        return reject(RejectionCode.NO_DEADLINE_PASSED)
    number, phase = state.current.number, state.phase
    for deadline in sorted(due, key=lambda d: (_KIND_ORDER[d.kind], d.team, d.target or "")):
        if state.current.number != number or state.phase != phase:
            break  # the round or phase ended: the next one's deadlines start from now
        state = _expire(state, deadline, now)
    return Applied(state)
