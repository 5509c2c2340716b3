"""What a finished game meant for each seat: won, drawn or lost, and the figures profiles show.

Each game computes its `GameResults` from its final state (`GameRules.results`), a pure
function of the game record: the server records them when the game ends (ratings and
profiles read them, never the engine), and a record folded again gives the same results.
Figures are whole counts under stable keys, so a profile sums them over many games.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec


class Result(StrEnum):
    """Stable stored and wire values."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


class SeatResult(msgspec.Struct, frozen=True):
    side: str  # the seat's team (Decrypto) or side (Mastermind), as the game names it
    result: Result
    figures: dict[str, int]  # stable keys of the game's own (decrypto/results.py, ...)


class GameResults(msgspec.Struct, frozen=True):
    variant: str  # what profiles count games by: "teams" or "three_player"; "super", ...
    seats: dict[str, SeatResult]  # every seat of the game

    def ranks(self) -> dict[str, int]:
        """Side -> its place (0 first; a draw puts every side first), for the rating model."""
        place = {Result.WIN: 0, Result.DRAW: 0, Result.LOSS: 1}
        return {seat.side: place[seat.result] for seat in self.seats.values()}


def result_of(side: int, winner: int | None) -> Result:
    """A side's result when `winner` won (None: nobody did)."""
    if winner is None:
        return Result.DRAW
    return Result.WIN if side == winner else Result.LOSS
