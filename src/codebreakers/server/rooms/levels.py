"""How strong a waiting table is: its seated people's shown ratings, for matching by skill.

A table's level is the mean shown rating, in its game, of the people seated at it with a
profile (a profile without a rating in that game counts as a newcomer, `skill.Skill().shown`);
bots and people without a profile don't count, and a table with none has no level. Quick join
prefers tables whose level is nearest the visitor's rating, within a window that widens as a
table waits, so nobody waits long for a perfect match; the open-tables list shows the level
rounded ("around 1,500").
"""

from __future__ import annotations

from collections.abc import Sequence

from codebreakers import skill
from codebreakers.server.rooms.model import Room
from codebreakers.store.ratings.base import Ratings

NEWCOMER = skill.Skill().shown
SHOWN_STEP = 50  # the listing's "around": to the nearest 50
WINDOW = 200.0  # a table accepts a visitor this far from its level at once...
WIDENING_PER_S = 20.0  # ...and this much farther for every second it has waited


def seated_profiles(room: Room) -> list[str]:
    """Profiles of the people seated at the table (not its spectators, not bots)."""
    seated = {pid for slots in room.seats.values() for pid in slots if pid is not None}
    return [
        p.profile_id
        for pid, p in room.players.items()
        if pid in seated and p.human and p.profile_id is not None
    ]


async def levels(ratings: Ratings, rooms: Sequence[Room]) -> list[float | None]:
    """Each room's level, in one read per game."""
    seated = [seated_profiles(room) for room in rooms]
    by_game: dict[str, set[str]] = {}
    for room, ids in zip(rooms, seated, strict=True):
        by_game.setdefault(room.game, set()).update(ids)
    known = {
        game: await ratings.ratings_of(sorted(ids), game) for game, ids in by_game.items() if ids
    }
    out: list[float | None] = []
    for room, ids in zip(rooms, seated, strict=True):
        shown = [known[room.game].get(p, NEWCOMER) for p in ids]
        out.append(sum(shown) / len(shown) if shown else None)
    return out


async def rating_of(ratings: Ratings, profile_id: str | None, game: str) -> float | None:
    """A visitor's shown rating in `game` (a newcomer's without one); None without a profile."""
    if profile_id is None:
        return None
    return (await ratings.ratings_of([profile_id], game)).get(profile_id, NEWCOMER)


def around(level: float | None) -> int | None:
    return None if level is None else int(round(level / SHOWN_STEP) * SHOWN_STEP)


def window(waited_s: float) -> float:
    """How far from its level a table that has waited `waited_s` takes a visitor."""
    return WINDOW + WIDENING_PER_S * max(0.0, waited_s)


def distance(level: float | None, visitor: float | None) -> float:
    """0 when either side has no rating to compare."""
    return 0.0 if level is None or visitor is None else abs(level - visitor)
