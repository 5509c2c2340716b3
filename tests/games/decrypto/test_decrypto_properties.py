"""Property tests: random legal play, in every variant, keeps the rules' promises."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from codebreakers.games.base import Viewer
from codebreakers.games.decrypto import RULES, GameState
from codebreakers.games.records import fold
from codebreakers.sim.random_decrypto import play, teams_for

# Keywords that cannot appear in anything else a view holds (random clues are hex digits).
SECRET_WORDS = [
    f"secret{name}"
    for name in ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india")
]


@st.composite
def games(draw: st.DrawFn) -> tuple[dict[str, Any], float, int]:
    players = draw(st.sampled_from([3, 4, 5, 6, 7, 8]))
    teams, three = teams_for(players)
    options = {
        "words": "custom",
        "custom_words": SECRET_WORDS,
        "three_player": three,
        "order": draw(st.sampled_from(["simultaneous", "classic"])),
        "sand_timer": draw(st.booleans()),
        "clue_limit_s": draw(st.sampled_from([None, 60])),
        "decide_limit_s": draw(st.sampled_from([None, 30])),
    }
    seed = draw(st.integers(min_value=10**12, max_value=2**62))
    skill = draw(st.sampled_from([0.0, 0.5, 0.8, 1.0]))
    setup = {"options": options, "teams": teams, "seed": seed, "now": 1_700_000_000.0}
    return setup, skill, draw(st.integers(0, 2**32))


def viewers(state: GameState) -> list[Viewer]:
    seats = [Viewer(seat) for seat in state.table.all_seats]
    return [*seats, Viewer(None), Viewer(None, open_spectator=True)]


def check_view(state: GameState, viewer: Viewer, seed: int) -> None:
    """The serialised view holds no keyword, code, draft or answer the viewer may not see."""
    data = json.dumps(RULES.view(state, viewer))
    assert str(seed) not in data and '"seed"' not in data
    view = json.loads(data)
    everything = viewer.open_spectator or state.phase == "over"
    team = view["you"]["team"]
    text = data
    if view["tiebreak"] is not None:
        view["tiebreak"]["guesses"] = None  # guesses are free text: they may name keywords
        text = json.dumps(view)
    for index, name in enumerate(("white", "black")):
        if not everything and team != name:
            assert not any(word in text for word in state.table.keywords[index])
    for rnd in view["rounds"]:
        for name, t in rnd["transmissions"].items():
            if t is None or everything:
                continue
            writer = viewer.seat == t["encryptor"]
            if t["status"] != "revealed":
                assert t["code"] is None or writer
                assert t["decode"]["code"] is None or team == name
                assert t["interception"]["code"] is None or team not in (None, name)
            assert t["draft"] is None or writer
            assert t["decode"]["proposals"] is None or team == name
            assert t["interception"]["proposals"] is None or team not in (None, name)


@settings(max_examples=30, deadline=None)
@given(games())
def test_random_legal_play_keeps_the_rules_promises(
    game: tuple[dict[str, Any], float, int],
) -> None:
    setup, skill, rng_seed = game
    last_tokens: list[tuple[tuple[int, int], tuple[int, int]]] = []
    max_rounds = 5 if setup["options"]["three_player"] else 8

    def after_each(state: GameState) -> None:
        assert state.current.number <= max_rounds
        if last_tokens:
            for before, now in zip(last_tokens[-1], state.tokens, strict=True):
                assert now[0] >= before[0] and now[1] >= before[1]
        last_tokens.append(state.tokens)
        for viewer in viewers(state):
            check_view(state, viewer, setup["seed"])

    played = play(setup, random.Random(rng_seed), skill=skill, after_each=after_each)
    assert RULES.is_over(played.state)
    outcome = RULES.outcome(played.state)
    assert outcome is not None and outcome["rounds"] <= max_rounds
    # A game is its log: folding the actions gives the same state.
    assert fold(RULES, setup, played.actions).state == played.state


@settings(max_examples=60, deadline=None)
@given(games())
def test_garbage_actions_change_nothing(game: tuple[dict[str, Any], float, int]) -> None:
    """Well-formed actions from random seats: applied, or refused with a known code."""
    from codebreakers.games.base import Rejection
    from codebreakers.games.decrypto import REJECTION_CODES

    setup, _, rng_seed = game
    rng = random.Random(rng_seed)
    state = RULES.new_game(setup)
    assert isinstance(state, GameState)
    seats = [*state.table.all_seats, "system", "visitor"]
    kinds = [
        {"type": "transmit", "clues": ["sun", "sea", "sky"]},
        {"type": "draft", "clues": ["sun", "", ""]},
        {"type": "propose", "target": "own", "code": [1, 2, 3]},
        {"type": "lock", "target": "enemy", "code": [2, 1, 4]},
        {"type": "lock", "target": "own", "code": [3, 4, 1]},
        {"type": "guess_keywords", "words": ["a", "b", "c", "d"]},
        {"type": "accept_guess", "number": 2, "accept": True},
        {"type": "review_done"},
        {"type": "timeout"},
    ]
    now = 1_700_000_000.0
    for _ in range(60):
        now += rng.choice([1, 40])
        action = RULES.parse_action(rng.choice(kinds))
        assert not isinstance(action, Rejection)
        result = RULES.apply(state, rng.choice(seats), action, now)
        if isinstance(result, Rejection):
            assert result.code in REJECTION_CODES
        else:
            state = result.state


@settings(max_examples=30, deadline=None)
@given(games())
def test_the_serialised_view_is_the_view(game: tuple[dict[str, Any], float, int]) -> None:
    """What a server sends (`views_json`: finished rounds kept encoded, the common part built
    once per kind of viewer) is exactly the view, for every viewer in any order, all at once or
    one at a time, and again for earlier states once later ones moved the cache on."""
    setup, skill, rng_seed = game
    order = random.Random(rng_seed)
    history: list[GameState] = []

    def same(state: GameState) -> None:
        eyes = viewers(state)
        order.shuffle(eyes)
        for viewer, frame in zip(eyes, RULES.views_json(state, eyes), strict=True):
            assert msgspec.json.decode(frame) == RULES.view(state, viewer)
        alone = order.choice(eyes)
        (frame,) = RULES.views_json(state, [alone])
        assert msgspec.json.decode(frame) == RULES.view(state, alone)

    def after_each(state: GameState) -> None:
        history.append(state)
        same(state)

    play(setup, random.Random(rng_seed), skill=skill, after_each=after_each)
    for state in order.sample(history, min(5, len(history))):
        same(state)
