"""The bot's decisions from views: determinism, weighing teammates, straight face, tie-break."""

from __future__ import annotations

from typing import Any

import numpy as np

from codebreakers.bots.decoder import Reading
from codebreakers.bots.decrypto_bot import DecryptoBot
from codebreakers.bots.lexicon import Lexicon
from codebreakers.bots.registry import make_bot
from codebreakers.bots.tiebreak import guess_keywords, near_miss
from codebreakers.games.base import Applied, Rejection, Viewer
from codebreakers.games.decrypto import RULES

TEAMS = {"white": ["w1", "w2"], "black": ["b1", "b2"]}


def _game(seed: int) -> Any:
    state = RULES.new_game({"options": {"words": "en"}, "teams": TEAMS, "seed": seed, "now": 0.0})
    assert not isinstance(state, Rejection)
    return state


def _encryptor(state: Any) -> str:
    view = RULES.view(state, Viewer("w1"))
    return next(w["seat"] for w in view["waiting_for"] if w["task"] == "transmit")


def test_same_seed_and_view_same_move() -> None:
    state = _game(11)
    seat = _encryptor(state)
    view = RULES.view(state, Viewer(seat))
    one = make_bot("decrypto", level="hard", lang="en", seed=5, seat=seat).decide(view)
    two = make_bot("decrypto", level="hard", lang="en", seed=5, seat=seat).decide(view)
    again = make_bot("decrypto", level="hard", lang="en", seed=5, seat=seat).decide(view)
    assert one == two == again
    assert one is not None and one.action["type"] == "transmit" and one.chat is None


def test_a_new_seed_may_write_other_clues() -> None:
    state = _game(11)
    seat = _encryptor(state)
    view = RULES.view(state, Viewer(seat))
    moves = {
        tuple(
            make_bot("decrypto", level="easy", lang="en", seed=s, seat=seat)
            .decide(view)
            .action["clues"]
        )  # type: ignore[union-attr]
        for s in range(6)
    }
    assert len(moves) > 1


def test_decoder_proposes_then_locks_and_encryptor_keeps_quiet() -> None:
    state = _game(3)
    for seat in ("w1", "b1", "w2", "b2"):
        move = make_bot("decrypto", level="hard", lang="en", seed=1, seat=seat).decide(
            RULES.view(state, Viewer(seat))
        )
        if move is not None and move.action["type"] == "transmit":
            applied = RULES.apply(state, seat, RULES.parse_action(move.action), 1.0)
            assert isinstance(applied, Applied)
            state = applied.state
    view = RULES.view(state, Viewer("w1"))
    white = view["rounds"][-1]["transmissions"]["white"]
    encryptor, decider = white["encryptor"], white["decider"]
    bot = make_bot("decrypto", level="hard", lang="en", seed=1, seat=decider)
    propose = bot.decide(RULES.view(state, Viewer(decider)))
    assert propose is not None and propose.action["type"] == "propose"
    assert propose.action["target"] == "own" and propose.chat and "I read" in propose.chat
    applied = RULES.apply(state, decider, RULES.parse_action(propose.action), 2.0)
    assert isinstance(applied, Applied)
    lock = bot.decide(RULES.view(applied.state, Viewer(decider)))
    assert lock is not None and lock.action == {
        "type": "lock",
        "target": "own",
        "code": propose.action["code"],
    }
    truth = RULES.view(state, Viewer(None, open_spectator=True))["rounds"][-1]["transmissions"]
    assert lock.action["code"] == truth["white"]["code"]  # a bot reads its bot partner right
    quiet = make_bot("decrypto", level="hard", lang="en", seed=1, seat=encryptor).decide(
        RULES.view(applied.state, Viewer(encryptor))
    )
    assert quiet is None or quiet.action.get("target") != "own"


def test_decider_follows_a_teammate_when_unsure() -> None:
    unsure = Reading([1, 2, 3], 0.4, np.array([0.4, 0.35] + [0.25 / 22] * 22))
    sure = Reading([1, 2, 3], 0.95, np.array([0.95, 0.01] + [0.04 / 22] * 22))
    teammate = {"w2": [1, 2, 4]}  # the second code in ALL_CODES order
    assert DecryptoBot._weigh(unsure, teammate, "w1") == [1, 2, 4]
    assert DecryptoBot._weigh(sure, teammate, "w1") == [1, 2, 3]


def test_tiebreak_guesses_from_clue_history(lexicons: dict[str, Lexicon]) -> None:
    lex = lexicons["en"]
    history = {1: ["waves", "whale", "tide"], 2: ["keys", "chopin"], 3: [], 4: ["snow", "ski"]}
    guesses = guess_keywords(lex, history, ["bread", "doctor", "castle", "rocket"], True)
    assert len(guesses) == 4 and len(set(guesses)) == 4
    assert not {"bread", "doctor", "castle", "rocket"} & set(guesses)
    assert near_miss(lex, "oceans", "ocean")
    assert not near_miss(lex, "piano", "ocean")


def test_bots_in_worker_threads_agree() -> None:
    """The server runs bots in worker threads: shared model and caches give the same moves."""
    from concurrent.futures import ThreadPoolExecutor

    state = _game(23)
    seat = _encryptor(state)
    view = RULES.view(state, Viewer(seat))

    def move(_: int) -> Any:
        return make_bot("decrypto", level="normal", lang="en", seed=9, seat=seat).decide(view)

    with ThreadPoolExecutor(max_workers=4) as pool:
        moves = list(pool.map(move, range(8)))
    assert all(m == moves[0] for m in moves)
