"""What a game's end writes, worked out the same way for both databases.

The adapters run this inside the finishing transaction: `rated_sides` says whose ratings to
lock and read, `settle` turns the results, the seated players and their skills into the rows
to write. Bots and people without a profile take part but are neither recorded nor rated;
a game is rated only when the room asked for it and every side has a profile to rate (humans
on both sides), and not when one profile holds seats on both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from codebreakers import skill
from codebreakers.games.results import GameResults
from codebreakers.store.ratings.base import ResultRow, StatsRow


@dataclass(frozen=True, slots=True)
class Seated:
    """A `game_players` row, as far as results go."""

    seat: str
    profile_id: str | None
    human: bool


@dataclass(frozen=True, slots=True)
class Settlement:
    results: list[ResultRow]
    skills: dict[str, skill.Skill]  # the rated profiles' new skills


def _profiles(players: Sequence[Seated]) -> dict[str, str]:
    """seat -> profile of the seats people with a profile played."""
    return {p.seat: p.profile_id for p in players if p.human and p.profile_id is not None}


def rated_sides(
    results: GameResults, players: Sequence[Seated], rated: bool
) -> dict[str, list[str]] | None:
    """side -> the profiles rated on it (sorted), or None when the game is not rated."""
    if not rated:
        return None
    profiles = _profiles(players)
    sides: dict[str, list[str]] = {r.side: [] for r in results.seats.values()}
    for seat, result in results.seats.items():
        if seat in profiles:
            sides[result.side].append(profiles[seat])
    everyone = [p for side in sides.values() for p in side]
    if len(sides) < 2 or any(not side for side in sides.values()):
        return None
    if len(set(everyone)) != len(everyone):
        return None
    return {side: sorted(ids) for side, ids in sides.items()}


def settle(
    game_id: str,
    game: str,
    results: GameResults,
    players: Sequence[Seated],
    sides: Mapping[str, list[str]] | None,
    skills: Mapping[str, skill.Skill],
    now: float,
) -> Settlement:
    """The result rows and new skills; `skills` holds the current skill of every profile in
    `sides` (a newcomer's is `skill.Skill()`)."""
    new: dict[str, skill.Skill] = {}
    if sides is not None:
        names = list(sides)
        ranks = results.ranks()
        rated = skill.rate(
            [[skills[p] for p in sides[s]] for s in names], [ranks[s] for s in names]
        )
        for side, after in zip(names, rated, strict=True):
            new.update(zip(sides[side], after, strict=True))
    rows = [
        ResultRow(
            game_id=game_id,
            seat=seat,
            profile_id=profile_id,
            game=game,
            variant=results.variant,
            side=results.seats[seat].side,
            result=results.seats[seat].result.value,
            figures=results.seats[seat].figures,
            rated=profile_id in new,
            rating=new[profile_id].shown if profile_id in new else None,
            finished_at=now,
        )
        for seat, profile_id in sorted(_profiles(players).items())
        if seat in results.seats
    ]
    return Settlement(rows, new)


def added_stats(rows: Sequence[ResultRow]) -> dict[tuple[str, str], StatsRow]:
    """What one game's result rows add to each profile's totals in the game's variant, keyed
    (profile, variant): one entry per profile even when it held two seats of a side."""
    added: dict[tuple[str, str], StatsRow] = {}
    for r in rows:
        key = (r.profile_id, r.variant)
        was = added.get(key) or StatsRow(r.game, r.variant, 0, 0, 0, 0, {})
        one = StatsRow(r.game, r.variant, 1, int(r.result == "win"), int(r.result == "draw"),
                       int(r.result == "loss"), r.figures)  # fmt: skip
        added[key] = plus(was, one)
    return added


def plus(a: StatsRow, b: StatsRow) -> StatsRow:
    """Two totals of the same game and variant, added."""
    figures = dict(a.figures)
    for name, value in b.figures.items():
        figures[name] = figures.get(name, 0) + value
    return StatsRow(a.game, a.variant, a.games + b.games, a.wins + b.wins,
                    a.draws + b.draws, a.losses + b.losses, figures)  # fmt: skip
