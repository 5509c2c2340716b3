"""Decrypto's results per seat, on hand-played games: outcome and figures, counted by hand."""

from __future__ import annotations

from decrypto_table import Table

from codebreakers.games.decrypto import RULES
from codebreakers.games.records import build_record, replay
from codebreakers.games.results import Result


def fig(
    encrypted: tuple[int, int, int], decoding: tuple[int, int], intercepting: tuple[int, int]
) -> dict[str, int]:
    return {
        "encrypted": encrypted[0],
        "encrypted_decoded": encrypted[1],
        "encrypted_intercepted": encrypted[2],
        "decoding": decoding[0],
        "decoded": decoding[1],
        "intercepting": intercepting[0],
        "intercepted": intercepting[1],
    }


def test_unequal_teams_black_wins_on_two_interceptions() -> None:
    table = Table(white=3, black=2)
    assert RULES.results(table.state) is None  # not over yet
    table.play_round()
    table.play_round(intercepted=(False, True))  # black intercepts w2's code
    table.play_round(intercepted=(False, True))  # and w3's: two interceptions
    found = RULES.results(table.state)
    assert found is not None and found.variant == "teams"
    assert {seat: (r.side, r.result) for seat, r in found.seats.items()} == {
        "w1": ("white", Result.LOSS),
        "w2": ("white", Result.LOSS),
        "w3": ("white", Result.LOSS),
        "b1": ("black", Result.WIN),
        "b2": ("black", Result.WIN),
    }
    # White encrypts w1, w2, w3 in rounds 1-3; Black b1, b2, b1.
    assert {seat: r.figures for seat, r in found.seats.items()} == {
        "w1": fig((1, 1, 0), (2, 2), (2, 0)),
        "w2": fig((1, 1, 1), (2, 2), (2, 0)),
        "w3": fig((1, 1, 1), (2, 2), (2, 0)),
        "b1": fig((2, 2, 0), (1, 1), (2, 2)),
        "b2": fig((1, 1, 0), (2, 2), (2, 2)),
    }
    assert found.ranks() == {"white": 1, "black": 0}
    # The same results from the game record, folded again.
    folded = replay(build_record("decrypto", table.setup, table.actions))
    assert RULES.results(folded.state) == found


def test_three_player_pair_survives_and_the_solo_loses() -> None:
    table = Table(three_player=True)
    for _ in range(4):
        table.play_round()
    table.play_round(decoded=(False, True))  # the pair misses once in round 5
    found = RULES.results(table.state)
    assert found is not None and found.variant == "three_player"
    assert {seat: r.result for seat, r in found.seats.items()} == {
        "w1": Result.WIN,
        "w2": Result.WIN,
        "b1": Result.LOSS,
    }
    # w1 encrypts rounds 1, 3, 5 (missed in 5), w2 rounds 2, 4; the solo never transmits.
    assert found.seats["w1"].figures == fig((3, 2, 0), (2, 2), (0, 0))
    assert found.seats["w2"].figures == fig((2, 2, 0), (3, 2), (0, 0))
    assert found.seats["b1"].figures == fig((0, 0, 0), (0, 0), (4, 0))
