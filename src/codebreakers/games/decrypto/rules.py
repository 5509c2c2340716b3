"""`DecryptoRules`: the GameRules contract (games/base.py), wired to the modules implementing it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from codebreakers.games.base import JSON, SYSTEM_SEAT, Action, Applied, Rejection, Viewer
from codebreakers.games.decrypto.actions import (
    AcceptGuess,
    Draft,
    GuessKeywords,
    Lock,
    Note,
    Propose,
    ReviewDone,
    Timeout,
    Transmit,
)
from codebreakers.games.decrypto.clues import TranslationCheck
from codebreakers.games.decrypto.deal import new_game, team_sizes
from codebreakers.games.decrypto.ending import outcome_json
from codebreakers.games.decrypto.options import check_options, to_options
from codebreakers.games.decrypto.parse import load_action, parse_action
from codebreakers.games.decrypto.play import draft, lock, note, propose, transmit
from codebreakers.games.decrypto.rejections import RejectionCode, reject
from codebreakers.games.decrypto.results import results
from codebreakers.games.decrypto.state import OVER, ROUND, TEAMS, GameState
from codebreakers.games.decrypto.tiebreak import accept_guess, guess_keywords, review_done
from codebreakers.games.decrypto.timers import next_deadline, timeout
from codebreakers.games.decrypto.view import build_view, views_json
from codebreakers.games.results import GameResults


class DecryptoRules:
    """Decrypto as the server, the bots and the simulations see it.

    `translation_check` is the optional hook behind the "looks like a translation" clue warning;
    the engine itself ships no dictionary, so without a hook that warning never appears.
    """

    name = "decrypto"
    # Actions only their author may see, even after the game (records.export_record drops them).
    private_actions = frozenset({"note"})

    def __init__(self, translation_check: TranslationCheck | None = None) -> None:
        self.translation_check = translation_check

    def check_options(self, options: Mapping[str, Any]) -> JSON | Rejection:
        return check_options(options)

    def team_sizes(self, options: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
        checked = check_options(options)
        if isinstance(checked, Rejection):
            checked = check_options({})
            assert not isinstance(checked, Rejection)
        return team_sizes(to_options(checked))

    def new_game(self, setup: Mapping[str, Any]) -> GameState | Rejection:
        return new_game(setup)

    def parse_action(self, raw: Any) -> Action | Rejection:
        return parse_action(raw)

    def load_action(self, stored: Mapping[str, Any]) -> Action:
        return load_action(stored)

    def apply(
        self, state: GameState, seat: str, action: Action, now: float
    ) -> Applied[GameState] | Rejection:
        if state.phase == OVER:
            return reject(RejectionCode.GAME_OVER)
        if isinstance(action, Timeout):
            if seat != SYSTEM_SEAT:
                return reject(RejectionCode.SYSTEM_ONLY)
            return timeout(state, now)
        team = state.table.team_of.get(seat)
        if team is None:
            return reject(RejectionCode.NOT_A_PLAYER)
        match action:
            case Draft():
                return draft(state, seat, team, action, now)
            case Transmit():
                return transmit(state, seat, team, action, now)
            case Propose():
                return propose(state, seat, team, action, now)
            case Lock():
                return lock(state, seat, team, action, now)
            case Note():
                return note(state, seat, team, action, now)
            case GuessKeywords():
                return guess_keywords(state, seat, team, action, now)
            case AcceptGuess():
                return accept_guess(state, seat, team, action, now)
            case ReviewDone():
                return review_done(state, seat, team, action, now)
        raise TypeError(f"not a Decrypto action: {action!r}")

    def view(self, state: GameState, viewer: Viewer) -> JSON:
        return build_view(state, viewer, self._can_team_chat(state, viewer), self.translation_check)

    def views_json(self, state: GameState, viewers: Sequence[Viewer]) -> list[bytes]:
        return views_json(
            state, viewers, partial(self._can_team_chat, state), self.translation_check
        )

    def _can_team_chat(self, state: GameState, viewer: Viewer) -> bool:
        return viewer.seat is not None and self.can_chat(state, viewer.seat, "team")

    def next_deadline(self, state: GameState) -> float | None:
        return next_deadline(state)

    def is_over(self, state: GameState) -> bool:
        return state.phase == OVER

    def outcome(self, state: GameState) -> JSON | None:
        return outcome_json(state.outcome) if state.outcome is not None else None

    def results(self, state: GameState) -> GameResults | None:
        return results(state)

    def can_chat(self, state: GameState, seat: str, channel: str) -> bool:
        """All chat is open to everyone and team chat to teammates, except to a straight-faced
        encryptor: from the moment its clues are public until its team has locked the decode it
        may write in no channel, since its teammates read all chat too (RULES.md "A round",
        step 3)."""
        team = state.table.team_of.get(seat)
        if channel not in ("all", "team") or (channel == "team" and team is None):
            return False
        if team is None or state.phase != ROUND:
            return True
        t = state.current.transmissions[team]
        return t is None or t.encryptor != seat or t.read_at is None or t.decode.locked

    def slow_view_work(self, state: GameState) -> Callable[[], None] | None:
        """The translation warnings of the current drafts the check doesn't hold yet (every
        other view part is quick: tens of microseconds). A slow check (the server's, which runs
        a sentence encoder) says what it holds with `known(clue, keywords)`; the work asks it
        the rest, in a worker thread, so that building the views then only reads answers."""
        check = self.translation_check
        known = getattr(check, "known", None)
        if check is None or known is None or state.phase != ROUND:
            return None
        asked = [
            (clue, state.table.keywords[t.team])
            for t in state.current.transmissions
            if t is not None and t.draft is not None and t.clues is None
            for clue in t.draft
            if clue and not known(clue, state.table.keywords[t.team])
        ]
        if not asked:
            return None

        def work() -> None:
            for clue, keywords in asked:
                check(clue, keywords)

        return work

    def seat_team(self, state: GameState, seat: str) -> str | None:
        team = state.table.team_of.get(seat)
        return TEAMS[team] if team is not None else None
