"""Options, seating, the deal from the seed, and the encryptor/decider rotation."""

from __future__ import annotations

import pytest
from decrypto_table import WORDS, Table, make_setup

from codebreakers.games.base import Rejection
from codebreakers.games.decrypto import REJECTION_CODES, RULES, GameState
from codebreakers.games.decrypto.codes import ALL_CODES
from codebreakers.games.decrypto.words import load_pool


def test_defaults_are_filled_in() -> None:
    checked = RULES.check_options({})
    assert checked == {
        "words": "en",
        "custom_words": None,
        "order": "simultaneous",
        "three_player": False,
        "sand_timer": False,
        "clue_limit_s": None,
        "decide_limit_s": None,
        "open_spectators": False,
        "rated": False,
    }


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"colour": "red"}, "unknown_option"),
        ({"words": "de"}, "invalid_option"),
        ({"words": 3}, "invalid_option"),
        ({"order": "random"}, "invalid_option"),
        ({"three_player": "yes"}, "invalid_option"),
        ({"sand_timer": 1}, "invalid_option"),
        ({"open_spectators": None}, "invalid_option"),
        ({"rated": 1}, "invalid_option"),
        ({"clue_limit_s": 5}, "invalid_option"),
        ({"clue_limit_s": 3601}, "invalid_option"),
        ({"decide_limit_s": 12.5}, "invalid_option"),
        ({"decide_limit_s": True}, "invalid_option"),
        ({"custom_words": WORDS}, "invalid_option"),
        ({"words": "custom"}, "invalid_custom_words"),
        ({"words": "custom", "custom_words": ["a", "b", "c"]}, "invalid_custom_words"),
        (
            {"words": "custom", "custom_words": ["Apple", "apple", *WORDS[1:7]]},
            "invalid_custom_words",
        ),
        ({"words": "custom", "custom_words": "apple,river"}, "invalid_custom_words"),
        ({"words": "custom", "custom_words": WORDS}, "invalid_custom_words"),  # 12: too few
    ],
)
def test_bad_options_are_refused(options: dict[str, object], code: str) -> None:
    result = RULES.check_options(options)
    assert isinstance(result, Rejection)
    assert result.code == code
    assert code in REJECTION_CODES


def test_a_stored_setup_with_a_short_list_still_deals() -> None:
    """Games dealt before a host's list needed 24 words replay: a deal takes 8."""
    state = RULES.new_game(make_setup())
    assert isinstance(state, GameState)
    assert set(state.table.keywords[0] + state.table.keywords[1]) <= set(WORDS)


def test_options_are_accepted_and_custom_words_normalised() -> None:
    checked = RULES.check_options(
        {
            "words": "custom",
            "custom_words": ["  Apple ", *WORDS[1:], *(f"word{i}" for i in range(12))],
            "order": "classic",
            "clue_limit_s": 120,
            "decide_limit_s": 60,
            "sand_timer": True,
        }
    )
    assert not isinstance(checked, Rejection)
    assert checked["custom_words"][0] == "Apple"
    for lang in ("fr", "ru", "ko"):
        assert not isinstance(RULES.check_options({"words": lang}), Rejection)


def test_team_sizes() -> None:
    assert RULES.team_sizes({}) == {"white": (2, 4), "black": (2, 4)}
    assert RULES.team_sizes({"three_player": True}) == {"white": (2, 2), "black": (1, 1)}


@pytest.mark.parametrize(
    ("white", "black"), [(2, 2), (2, 3), (3, 2), (4, 4), (2, 4), (4, 3), (3, 3)]
)
def test_team_sizes_from_two_to_four_unequal_allowed(white: int, black: int) -> None:
    table = Table(white, black)
    assert [len(s) for s in table.state.table.seats] == [white, black]


@pytest.mark.parametrize(
    "teams",
    [
        {"white": ["w1"], "black": ["b1", "b2"]},
        {"white": ["w1", "w2", "w3", "w4", "w5"], "black": ["b1", "b2"]},
        {"white": ["w1", "w2"], "black": ["w1", "b2"]},
        {"white": ["w1", "w2"]},
        {"white": ["w1", 2], "black": ["b1", "b2"]},
        {"white": ["w1", "system"], "black": ["b1", "b2"]},
        {"white": ["w1", ""], "black": ["b1", "b2"]},
    ],
)
def test_bad_seating_is_refused(teams: dict[str, list[object]]) -> None:
    setup = make_setup() | {"teams": teams}
    result = RULES.new_game(setup)
    assert isinstance(result, Rejection) and result.code == "invalid_teams"


def test_three_player_needs_a_pair_and_a_solo() -> None:
    setup = make_setup(three_player=True) | {
        "teams": {"white": ["w1", "w2"], "black": ["b1", "b2"]}
    }
    result = RULES.new_game(setup)
    assert isinstance(result, Rejection) and result.code == "invalid_teams"


@pytest.mark.parametrize(
    "change", [{"seed": "7"}, {"seed": None}, {"now": "soon"}, {"now": True}, {"options": []}]
)
def test_bad_setup_is_refused(change: dict[str, object]) -> None:
    result = RULES.new_game(make_setup() | change)
    assert isinstance(result, Rejection)
    assert result.code in ("invalid_setup", "invalid_option")


def test_the_deal_comes_from_the_seed() -> None:
    first, again, other = Table(seed=11).state, Table(seed=11).state, Table(seed=12).state
    assert first == again
    assert first.table.keywords != other.table.keywords or first.table.codes != other.table.codes
    white, black = first.table.keywords
    assert len(set(white) | set(black)) == 8
    assert set(white) | set(black) <= set(WORDS)
    assert len(first.table.codes) == 8
    assert all(code in ALL_CODES for pair in first.table.codes for code in pair)


def test_pool_words_are_dealt() -> None:
    state = RULES.new_game(make_setup() | {"options": {"words": "ko"}})
    assert isinstance(state, GameState)
    assert set(state.table.keywords[0] + state.table.keywords[1]) <= set(load_pool("ko"))


def test_codes_are_uniform_over_the_24_codes() -> None:
    seen: dict[tuple[int, ...], int] = {}
    for seed in range(400):
        state = RULES.new_game(make_setup(seed=seed))
        assert isinstance(state, GameState)
        for pair in state.table.codes:
            for code in pair:
                seen[code] = seen.get(code, 0) + 1
    assert len(ALL_CODES) == 24 and set(seen) == set(ALL_CODES)
    assert min(seen.values()) > 6400 / 24 * 0.7


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        # (encryptor, decider) index for rounds 1..5
        (2, [(0, 1), (1, 0), (0, 1), (1, 0), (0, 1)]),
        (3, [(0, 2), (1, 0), (2, 1), (0, 2), (1, 0)]),
        (4, [(0, 2), (1, 3), (2, 0), (3, 1), (0, 2)]),
    ],
)
def test_encryptor_rotation_and_decider_across_the_table(
    size: int, expected: list[tuple[int, int]]
) -> None:
    table = Table(size, 2).state.table
    seats = table.seats[0]
    for number, (encryptor, decider) in enumerate(expected, start=1):
        assert table.encryptor(0, number) == seats[encryptor]
        assert table.decider(0, number) == seats[decider]


def test_roles_follow_the_rounds() -> None:
    table = Table(3, 2)
    table.play_round()
    t = table.t("white")
    assert (t.encryptor, t.decider) == ("w2", "w1")
    assert (table.t("black").encryptor, table.t("black").decider) == ("b2", "b1")
