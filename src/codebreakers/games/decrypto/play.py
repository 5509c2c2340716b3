"""The actions of a round: drafting and transmitting clues, proposing and locking answers, notes."""

from __future__ import annotations

from codebreakers.games.base import Applied, Rejection
from codebreakers.games.decrypto.actions import Draft, Lock, Note, Propose, Transmit
from codebreakers.games.decrypto.clues import check_clues, clue_key
from codebreakers.games.decrypto.codes import Code
from codebreakers.games.decrypto.progress import read_out, settle
from codebreakers.games.decrypto.rejections import RejectionCode, reject
from codebreakers.games.decrypto.state import (
    ROUND,
    Answer,
    Clues,
    GameState,
    Transmission,
    evolve,
)


def _own_writing(state: GameState, seat: str, team: int) -> Transmission | Rejection:
    if state.phase != ROUND:
        return reject(RejectionCode.WRONG_PHASE, state.phase)
    t = state.current.transmissions[team]
    if t is None or t.encryptor != seat:
        return reject(RejectionCode.NOT_ENCRYPTOR)
    if t.clues is not None:
        return reject(RejectionCode.ALREADY_TRANSMITTED)
    return t


def draft(
    state: GameState, seat: str, team: int, action: Draft, now: float
) -> Applied[GameState] | Rejection:
    t = _own_writing(state, seat, team)
    if isinstance(t, Rejection):
        return t
    return Applied(state.with_round(state.current.with_transmission(evolve(t, draft=action.clues))))


def send(state: GameState, t: Transmission, clues: Clues, now: float) -> GameState:
    """Make `t` transmitted with `clues` (already checked); public now, or once read out."""
    classic = state.table.options.classic
    t = evolve(t, clues=clues, draft=None, transmitted_at=now, read_at=None if classic else now)
    rnd = read_out(state.current.with_transmission(t), classic, now)
    used = state.used_clues | {clue_key(clue) for clue in clues if clue}
    return state.with_round(rnd, used_clues=used)


def transmit(
    state: GameState, seat: str, team: int, action: Transmit, now: float
) -> Applied[GameState] | Rejection:
    t = _own_writing(state, seat, team)
    if isinstance(t, Rejection):
        return t
    clues = action.clues
    if not all(clues):
        return reject(RejectionCode.BLANK_CLUE, f"clue {[bool(c) for c in clues].index(False) + 1}")
    refused = check_clues(clues, state.table.keywords[team], state.used_clues)
    if refused is not None:
        return refused
    return Applied(send(state, t, clues, now))


def answerable(state: GameState, team: int, own: bool) -> Transmission | Rejection:
    """The transmission `team` may answer now (its own for a decode, the enemy's to intercept)."""
    if state.phase != ROUND:
        return reject(RejectionCode.WRONG_PHASE, state.phase)
    rnd = state.current
    t = rnd.transmissions[team if own else 1 - team]
    if t is None:
        return reject(RejectionCode.NOT_TRANSMITTED, "that team does not transmit")
    answer = t.answer(own)
    if answer is None:
        return reject(RejectionCode.NO_INTERCEPTION, "no interception in round 1")
    if t.read_at is None:
        return reject(RejectionCode.NOT_TRANSMITTED)
    if answer.locked:
        return reject(RejectionCode.ALREADY_LOCKED)
    if not own and not state.table.options.classic:
        mine = rnd.transmissions[team]
        if mine is not None and not mine.decode.locked:
            return reject(RejectionCode.OWN_DECODE_FIRST)
    return t


def propose(
    state: GameState, seat: str, team: int, action: Propose, now: float
) -> Applied[GameState] | Rejection:
    own = action.target == "own"
    t = answerable(state, team, own)
    if isinstance(t, Rejection):
        return t
    if own and seat == t.encryptor:
        return reject(RejectionCode.ENCRYPTOR_CANNOT_DECODE)
    answer = t.answer(own)
    assert answer is not None
    proposals = (*(p for p in answer.proposals if p[0] != seat), (seat, action.code))
    t = t.with_answer(own, Answer(proposals, answer.locked, answer.code, answer.locked_at))
    return Applied(state.with_round(state.current.with_transmission(t)))


def lock_answer(
    state: GameState, t: Transmission, own: bool, code: Code | None, now: float
) -> GameState:
    """Lock an answer (None: no answer) and reveal the transmission if it was the last one."""
    answer = t.answer(own)
    assert answer is not None
    t = t.with_answer(own, Answer(answer.proposals, True, code, now))
    return settle(state.with_round(state.current.with_transmission(t)), t.team, now)


def lock(
    state: GameState, seat: str, team: int, action: Lock, now: float
) -> Applied[GameState] | Rejection:
    own = action.target == "own"
    t = answerable(state, team, own)
    if isinstance(t, Rejection):
        return t
    if seat != state.table.decider(team, state.current.number):
        return reject(RejectionCode.NOT_DECIDER)
    return Applied(lock_answer(state, t, own, action.code, now))


def note(
    state: GameState, seat: str, team: int, action: Note, now: float
) -> Applied[GameState] | Rejection:
    notes = list(state.notes.get(seat, ("", "", "", "")))
    notes[action.number - 1] = action.text
    return Applied(evolve(state, notes={**state.notes, seat: tuple(notes)}))
