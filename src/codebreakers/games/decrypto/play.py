"""The actions of a round: drafting and transmitting clues, proposing and locking answers, notes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codebreakers.games.base import JSON, Applied, Rejection
from codebreakers.games.decrypto import rejections as R
from codebreakers.games.decrypto.clues import check_clues, clue_key
from codebreakers.games.decrypto.codes import Code
from codebreakers.games.decrypto.progress import read_out, settle
from codebreakers.games.decrypto.state import (
    ROUND,
    TEAMS,
    Answer,
    Clues,
    GameState,
    Transmission,
    evolve,
)

Action = Mapping[str, Any]


def _own_writing(state: GameState, seat: str, team: int) -> Transmission | Rejection:
    if state.phase != ROUND:
        return R.reject(R.WRONG_PHASE, state.phase)
    t = state.current.transmissions[team]
    if t is None or t.encryptor != seat:
        return R.reject(R.NOT_ENCRYPTOR)
    if t.clues is not None:
        return R.reject(R.ALREADY_TRANSMITTED)
    return t


def draft(
    state: GameState, seat: str, team: int, action: Action, now: float
) -> Applied[GameState] | Rejection:
    t = _own_writing(state, seat, team)
    if isinstance(t, Rejection):
        return t
    clues: Clues = (action["clues"][0], action["clues"][1], action["clues"][2])
    return Applied(state.with_round(state.current.with_transmission(evolve(t, draft=clues))))


def send(
    state: GameState, t: Transmission, clues: Clues, now: float, events: list[JSON]
) -> GameState:
    """Make `t` transmitted with `clues` (already checked); public now, or once read out."""
    classic = state.table.options.classic
    t = evolve(t, clues=clues, draft=None, transmitted_at=now, read_at=None if classic else now)
    rnd = read_out(state.current.with_transmission(t), classic, now)
    events.append({"type": "transmitted", "round": rnd.number, "team": TEAMS[t.team]})
    used = state.used_clues | {clue_key(clue) for clue in clues if clue}
    return state.with_round(rnd, used_clues=used)


def transmit(
    state: GameState, seat: str, team: int, action: Action, now: float
) -> Applied[GameState] | Rejection:
    t = _own_writing(state, seat, team)
    if isinstance(t, Rejection):
        return t
    clues: Clues = (action["clues"][0], action["clues"][1], action["clues"][2])
    if not all(clues):
        return R.reject(R.BLANK_CLUE, f"clue {[bool(c) for c in clues].index(False) + 1}")
    refused = check_clues(clues, state.table.keywords[team], state.used_clues)
    if refused is not None:
        return refused
    events: list[JSON] = []
    return Applied(send(state, t, clues, now, events), tuple(events))


def answerable(state: GameState, team: int, own: bool) -> Transmission | Rejection:
    """The transmission `team` may answer now (its own for a decode, the enemy's to intercept)."""
    if state.phase != ROUND:
        return R.reject(R.WRONG_PHASE, state.phase)
    rnd = state.current
    t = rnd.transmissions[team if own else 1 - team]
    if t is None:
        return R.reject(R.NOT_TRANSMITTED, "that team does not transmit")
    answer = t.answer(own)
    if answer is None:
        return R.reject(R.NO_INTERCEPTION, "no interception in round 1")
    if t.read_at is None:
        return R.reject(R.NOT_TRANSMITTED)
    if answer.locked:
        return R.reject(R.ALREADY_LOCKED)
    if not own and not state.table.options.classic:
        mine = rnd.transmissions[team]
        if mine is not None and not mine.decode.locked:
            return R.reject(R.OWN_DECODE_FIRST)
    return t


def propose(
    state: GameState, seat: str, team: int, action: Action, now: float
) -> Applied[GameState] | Rejection:
    own = action["target"] == "own"
    t = answerable(state, team, own)
    if isinstance(t, Rejection):
        return t
    if own and seat == t.encryptor:
        return R.reject(R.ENCRYPTOR_CANNOT_DECODE)
    answer = t.answer(own)
    assert answer is not None
    code: Code = (action["code"][0], action["code"][1], action["code"][2])
    proposals = (*(p for p in answer.proposals if p[0] != seat), (seat, code))
    t = t.with_answer(own, Answer(proposals, answer.locked, answer.code, answer.locked_at))
    event = {
        "type": "proposed",
        "round": state.current.number,
        "team": TEAMS[team],
        "target": action["target"],
        "seat": seat,
    }
    return Applied(state.with_round(state.current.with_transmission(t)), (event,))


def lock_answer(
    state: GameState, t: Transmission, own: bool, code: Code | None, now: float, events: list[JSON]
) -> GameState:
    """Lock an answer (None: no answer) and reveal the transmission if it was the last one."""
    answer = t.answer(own)
    assert answer is not None
    t = t.with_answer(own, Answer(answer.proposals, True, code, now))
    answering = t.team if own else 1 - t.team
    events.append(
        {
            "type": "locked",
            "round": state.current.number,
            "team": TEAMS[answering],
            "target": "own" if own else "enemy",
        }
    )
    return settle(state.with_round(state.current.with_transmission(t)), t.team, now, events)


def lock(
    state: GameState, seat: str, team: int, action: Action, now: float
) -> Applied[GameState] | Rejection:
    own = action["target"] == "own"
    t = answerable(state, team, own)
    if isinstance(t, Rejection):
        return t
    if seat != state.table.decider(team, state.current.number):
        return R.reject(R.NOT_DECIDER)
    code: Code = (action["code"][0], action["code"][1], action["code"][2])
    events: list[JSON] = []
    return Applied(lock_answer(state, t, own, code, now, events), tuple(events))


def note(
    state: GameState, seat: str, team: int, action: Action, now: float
) -> Applied[GameState] | Rejection:
    notes = list(state.notes.get(seat, ("", "", "", "")))
    notes[action["number"] - 1] = action["text"]
    return Applied(evolve(state, notes={**state.notes, seat: tuple(notes)}))
