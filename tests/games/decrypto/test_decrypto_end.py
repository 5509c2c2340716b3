"""The end of the game: checked at round end only, every tie case, and the tie-breaks."""

from __future__ import annotations

from typing import Any

from decrypto_table import Table

from codebreakers.games.base import Viewer
from codebreakers.games.decrypto import RULES


def outcome(table: Table) -> dict[str, Any]:
    result = RULES.outcome(table.state)
    assert result is not None and RULES.is_over(table.state)
    return result


def test_two_interceptions_win() -> None:
    table = Table()
    table.play_round()
    table.play_round(intercepted=(True, False))
    table.play_round(intercepted=(True, False))
    result = outcome(table)
    assert result["winner"] == "white" and result["reason"] == "interceptions"
    assert result["tie"] is None and result["rounds"] == 3
    assert result["points"] == {"white": 2, "black": 0}


def test_two_miscommunications_lose() -> None:
    table = Table()
    table.play_round(decoded=(False, True))
    table.play_round(decoded=(False, True))
    result = outcome(table)
    assert result["winner"] == "black" and result["reason"] == "miscommunications"


def test_the_end_is_checked_only_when_the_round_ends() -> None:
    table = Table()
    table.play_round(decoded=(False, False))
    table.transmit("white")
    table.transmit("black")
    table.decode("white", right=False)
    table.decode("black", right=False)
    table.intercept("black")  # White's transmission is revealed: White has 2 ⚫ ...
    assert table.tokens("white") == (0, 2)
    assert table.state.phase == "round" and not RULES.is_over(table.state)
    table.intercept("white")  # ... and at the round's end Black has 2 ⚫ too: a tie.
    assert table.state.phase == "tiebreak_guess"
    assert table.state.tiebreak is not None and table.state.tiebreak.cause == "both_defeat"


def test_both_reach_victory_is_a_tie_broken_by_points() -> None:
    table = Table()
    table.play_round(decoded=(True, False))
    table.play_round(intercepted=(True, True))
    table.play_round(intercepted=(True, True))
    result = outcome(table)
    assert result["winner"] == "white" and result["reason"] == "points"
    assert result["tie"] == {
        "cause": "both_victory",
        "reached": {"white": ["victory"], "black": ["victory"]},
    }
    assert result["points"] == {"white": 2, "black": 1}


def test_one_team_reaching_victory_and_defeat_at_once_is_a_tie() -> None:
    table = Table()
    table.play_round(decoded=(False, True))
    table.play_round(decoded=(True, False), intercepted=(True, False))
    table.play_round(decoded=(False, True), intercepted=(True, False))
    # White: 2 ⚪ and 2 ⚫ (0 points); Black: 1 ⚫ (-1 point).
    result = outcome(table)
    assert result["tie"]["cause"] == "victory_and_defeat"
    assert result["tie"]["reached"] == {"white": ["victory", "defeat"], "black": []}
    assert result["winner"] == "white" and result["reason"] == "points"


def test_a_win_for_a_team_that_also_forces_the_other_down() -> None:
    """White reaches victory while Black reaches defeat: only White is favoured."""
    table = Table()
    table.play_round(decoded=(True, False))
    table.play_round(intercepted=(True, False))
    table.play_round(decoded=(True, False), intercepted=(True, False))
    result = outcome(table)
    assert result["winner"] == "white" and result["reason"] == "interceptions"
    assert result["tie"] is None and result["rounds"] == 3
    assert table.tokens("black") == (0, 2)


def test_round_eight_reached_is_a_tie() -> None:
    table = Table()
    for _ in range(7):
        table.play_round()
    assert table.state.current.number == 8
    table.play_round(intercepted=(False, True))
    result = outcome(table)
    assert result["winner"] == "black" and result["reason"] == "points"
    assert result["tie"]["cause"] == "max_rounds" and result["rounds"] == 8


def tied_after_round_eight() -> Table:
    table = Table()
    for _ in range(8):
        table.play_round()
    assert table.state.phase == "tiebreak_guess"
    return table


def test_keyword_guessing_breaks_an_even_tie() -> None:
    table = tied_after_round_eight()
    white_keywords, black_keywords = table.state.table.keywords
    guess = {"type": "guess_keywords", "words": [w.upper() + " " for w in black_keywords]}
    decider = table.decider("white")
    assert decider == "w1"  # round 8 of a pair: w2 encrypts, w1 decides
    table.refuse("w2", guess, "not_decider")
    table.do(decider, guess)
    table.refuse(decider, guess, "already_guessed")
    # White's guesses are not shown to Black before Black has guessed.
    assert table.view("b1")["tiebreak"]["guesses"]["white"] is None
    assert table.view(decider)["tiebreak"]["guesses"]["white"] is not None
    near = [white_keywords[0] + "s", "nothing", white_keywords[2], "x"]
    table.do(table.decider("black"), {"type": "guess_keywords", "words": near})
    assert table.state.phase == "tiebreak_review"
    view = table.view("b2")
    assert view["tiebreak"]["matches"] == {
        "white": [True, True, True, True],
        "black": [False, False, True, False],
    }
    assert view["teams"]["white"]["keywords"] is None  # still secret during the review
    # White (the owner of the keywords Black guessed) accepts the plural as a near miss.
    table.refuse("b1", {"type": "accept_guess", "number": 3, "accept": False}, "exact_match")
    table.do("w2", {"type": "accept_guess", "number": 1, "accept": True})
    table.do("w1", {"type": "review_done"})
    table.refuse("w2", {"type": "accept_guess", "number": 2, "accept": True}, "already_reviewed")
    table.refuse("w2", {"type": "review_done"}, "already_reviewed")
    table.do("b1", {"type": "review_done"})
    result = outcome(table)
    assert result["winner"] == "white" and result["reason"] == "keywords"
    assert result["keyword_hits"] == {"white": 4, "black": 2}
    assert result["tie"]["cause"] == "max_rounds"


def test_an_even_keyword_count_is_a_shared_victory() -> None:
    table = tied_after_round_eight()
    white_keywords, black_keywords = table.state.table.keywords
    table.do(
        table.decider("white"), {"type": "guess_keywords", "words": [black_keywords[0], "", "", ""]}
    )
    table.do(table.decider("black"), {"type": "guess_keywords", "words": ["a", "b", "c", "d"]})
    table.do("w1", {"type": "accept_guess", "number": 4, "accept": True})
    table.do("w1", {"type": "accept_guess", "number": 3, "accept": True})
    table.do("w2", {"type": "accept_guess", "number": 3, "accept": False})  # taken back
    table.do("w2", {"type": "review_done"})
    table.do("b2", {"type": "review_done"})
    result = outcome(table)
    assert result["winner"] is None and result["reason"] == "shared"
    assert result["keyword_hits"] == {"white": 1, "black": 1}
    assert RULES.view(table.state, Viewer("b1"))["teams"]["white"]["keywords"] == list(
        white_keywords
    )


def test_nothing_is_accepted_after_the_game() -> None:
    table = Table()
    table.play_round(decoded=(False, True))
    table.play_round(decoded=(False, True))
    table.refuse("w1", {"type": "note", "number": 1, "text": "x"}, "game_over")
    table.refuse("system", {"type": "timeout"}, "game_over")
    assert RULES.next_deadline(table.state) is None


def test_a_guess_matches_whatever_the_hyphens_spaces_and_invisible_characters() -> None:
    """ "arc en ciel", "arcenciel" and a full-width or soft-hyphenated spelling all name
    "arc-en-ciel": exact matches count without the owners' review."""
    words = ["arc-en-ciel", "sous-marin", "pomme de terre", "chat", "chien", "lune", "mer", "ciel"]
    table = Table(custom_words=words)
    for _ in range(8):
        table.play_round()
    assert table.state.phase == "tiebreak_guess"
    _, black_keywords = table.state.table.keywords
    spellings = [
        lambda w: w.replace("-", " "),
        lambda w: w.replace("-", "").replace(" ", ""),
        lambda w: "\u00ad".join(w),
        lambda w: "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in w),
    ]
    guess = [spell(word) for spell, word in zip(spellings, black_keywords, strict=True)]
    table.do(table.decider("white"), {"type": "guess_keywords", "words": guess})
    table.do(table.decider("black"), {"type": "guess_keywords", "words": ["", "", "", ""]})
    assert table.view("b1")["tiebreak"]["matches"]["white"] == [True, True, True, True]
