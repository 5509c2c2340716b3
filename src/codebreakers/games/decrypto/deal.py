"""A new game from its setup: seating checked, keywords and every round's codes dealt from the seed.

The deal draws from one `random.Random(seed)` in a fixed order (8 keywords: White's 1-4, then
Black's 1-4; then for each round, White's code then Black's, as indexes into `ALL_CODES`), so a
record's seed deals the same game on every replay (docs/records.md).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from codebreakers.games.base import Rejection
from codebreakers.games.decrypto.codes import ALL_CODES
from codebreakers.games.decrypto.options import Options, check_options, to_options
from codebreakers.games.decrypto.rejections import RejectionCode, reject
from codebreakers.games.decrypto.state import (
    BLACK,
    ROUND,
    TEAMS,
    WHITE,
    Answer,
    GameState,
    Round,
    Table,
    Transmission,
)
from codebreakers.games.decrypto.words import DEAL_WORDS, load_pool

SEAT_MAX_CHARS = 64


def team_sizes(options: Options) -> dict[str, tuple[int, int]]:
    if options.three_player:
        return {"white": (2, 2), "black": (1, 1)}
    return {"white": (2, 4), "black": (2, 4)}


def _seats(teams: object, options: Options) -> tuple[tuple[str, ...], tuple[str, ...]] | Rejection:
    if not isinstance(teams, Mapping) or set(teams) != set(TEAMS):
        return reject(RejectionCode.INVALID_TEAMS, "teams: white and black")
    sizes = team_sizes(options)
    seats: list[tuple[str, ...]] = []
    for name in TEAMS:
        members = teams[name]
        if not isinstance(members, list) or not all(
            isinstance(seat, str) and 0 < len(seat) <= SEAT_MAX_CHARS for seat in members
        ):
            return reject(RejectionCode.INVALID_TEAMS, f"{name}: a list of seat ids")
        low, high = sizes[name]
        if not low <= len(members) <= high:
            return reject(RejectionCode.INVALID_TEAMS, f"{name}: {low} to {high} players")
        seats.append(tuple(members))
    everyone = seats[0] + seats[1]
    if len(set(everyone)) != len(everyone) or "system" in everyone:
        return reject(RejectionCode.INVALID_TEAMS, "every seat id once, and never 'system'")
    return seats[0], seats[1]


def _pool(options: Options) -> tuple[str, ...]:
    if options.custom_words is not None:
        return options.custom_words
    return load_pool(options.words)


def start_round(table: Table, number: int, now: float) -> Round:
    """Round `number`: the encryptors and deciders of this round, and their codes, dealt already."""
    transmissions = tuple(
        Transmission(
            team=team,
            encryptor=table.encryptor(team, number),
            decider=table.decider(team, number),
            code=table.codes[number - 1][team],
            interception=None if number == 1 else Answer(),
        )
        if table.transmits[team]
        else None
        for team in (WHITE, BLACK)
    )
    return Round(number, now, (transmissions[0], transmissions[1]))


def new_game(setup: Mapping[str, Any]) -> GameState | Rejection:
    """The first state from `{"options", "teams", "seed", "now"}`, or why the setup is refused."""
    if not isinstance(setup, Mapping):
        return reject(RejectionCode.INVALID_SETUP, "setup must be an object")
    # A stored setup replays as dealt: a list needs only the 8 words a deal takes.
    checked = check_options(setup.get("options", {}), DEAL_WORDS)
    if isinstance(checked, Rejection):
        return checked
    options = to_options(checked)
    seed, raw_now = setup.get("seed"), setup.get("now")
    if type(seed) is not int:
        return reject(RejectionCode.INVALID_SETUP, "seed: an integer")
    if not isinstance(raw_now, int | float) or isinstance(raw_now, bool):
        return reject(RejectionCode.INVALID_SETUP, "now: seconds since the epoch")
    now = float(raw_now)
    seats = _seats(setup.get("teams"), options)
    if isinstance(seats, Rejection):
        return seats
    rng = random.Random(seed)
    dealt = rng.sample(_pool(options), 8)
    codes = tuple(
        (ALL_CODES[rng.randrange(24)], ALL_CODES[rng.randrange(24)])
        for _ in range(options.max_rounds)
    )
    table = Table(
        options=options,
        seats=seats,
        team_of={seat: team for team in (WHITE, BLACK) for seat in seats[team]},
        keywords=(tuple(dealt[:4]), tuple(dealt[4:])),
        codes=codes,
        seed=seed,
        started_at=now,
        transmits=(True, not options.three_player),
        all_seats=seats[0] + seats[1],
    )
    return GameState(
        table=table,
        phase=ROUND,
        rounds=(start_round(table, 1, now),),
        tokens=((0, 0), (0, 0)),
        notes={},
    )
