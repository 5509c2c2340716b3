"""The pure operations on a room: players, seats, host, bots, options, start and rematch.

A room is stored as one document replaced under a version check (its typed shape, and how it
is stored, in `model.py`), so every operation here is a pure function `(room, ...) -> new room`
that raises `Refused` and changes nothing when the request isn't allowed: rooms are frozen
Structs, and an operation builds the new one with `msgspec.structs.replace`. No I/O, no clock:
the caller passes ids and token hashes in. What clients see of a room is `description.py`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from msgspec.structs import replace

from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.rooms.model import (
    JSON,
    Player,
    PlayerKind,
    Room,
    RoomStatus,
    Seats,
    Sizes,
)
from codebreakers.server.rooms.tokens import same_hash

MAX_PLAYERS = 64
MAX_NAME = 32
REMEMBERED_IDS = 32
BOT_NAMES = ("Turing", "Rejewski", "Friedman", "Driscoll", "Vigenère", "Babbage", "Playfair")
Teams = dict[str, list[str]]  # team -> its players in table order: a game's setup


def new_room(
    game: str, options: JSON, sizes: Mapping[str, tuple[int, int]], public: bool, base_url: str = ""
) -> Room:
    return Room(
        game=game,
        options=options,
        public=public,
        status=RoomStatus.WAITING,
        host=None,
        seats={team: (None,) * hi for team, (_lo, hi) in sizes.items()},
        sizes=_sizes(sizes),
        players={},
        next_player=1,
        game_id=None,
        games_played=0,
        base_url=base_url,
    )


def _sizes(sizes: Mapping[str, tuple[int, int]]) -> Sizes:
    return {team: (lo, hi) for team, (lo, hi) in sizes.items()}


# Categories a name may not hold: controls, format characters (soft hyphen, zero-width ones,
# bidirectional overrides), unassigned and private ones, and the line and paragraph separators
# (U+2028, U+2029), which break a name shown on one line as surely as a newline.
_REFUSED_IN_NAMES = ("C", "Zl", "Zp")
# Characters drawn as nothing that are none of those: variation selectors, the combining
# grapheme joiner, Hangul fillers. Allowed in a name (emoji need selectors), not compared.
_INVISIBLE = frozenset(
    ["\u034f", "\u115f", "\u1160", "\u3164", "\uffa0", *map(chr, range(0xFE00, 0xFE10))]
)


def clean_name(name: str) -> str:
    """A display name trimmed and checked: 1-32 characters, something visible, none of the
    refused categories."""
    name = unicodedata.normalize("NFC", name).strip()
    if (
        not 1 <= len(name) <= MAX_NAME
        or any(unicodedata.category(c).startswith(_REFUSED_IN_NAMES) for c in name)
        or not name_key(name)
    ):
        raise Refused(ErrorCode.BAD_NAME, f"a name has 1 to {MAX_NAME} printable characters")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: compatibility forms folded (NFKC: full-width letters,
    ligatures), case folded, invisible characters dropped, runs of spaces made one."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join("".join(c for c in folded if c not in _INVISIBLE).split())


def name_free(room: Room, name: str, actor: str | None = None) -> bool:
    """Whether no player of the room but `actor` goes by `name` (as `name_key` sees it)."""
    key = name_key(name)
    return all(pid == actor or name_key(p.name) != key for pid, p in room.players.items())


def _require_free_name(room: Room, name: str, actor: str | None) -> None:
    """Refused when another player of the room goes by the same name: at a table, names are
    how players tell each other apart in chat and at the seats."""
    if not name_free(room, name, actor):
        raise Refused(ErrorCode.NAME_TAKEN, "another player in this room has that name")


def _bot_name(room: Room) -> str:
    """The first cryptographer's name no player of the room goes by (a person may have taken
    one), numbered once all are taken."""
    for round_ in range(1, MAX_PLAYERS + 2):
        for base in BOT_NAMES:
            name = base if round_ == 1 else f"{base} {round_}"
            if name_free(room, name):
                return name
    raise AssertionError("a room holds fewer players than bot names")


def seat_of(room: Room, pid: str) -> tuple[str, int] | None:
    for team, slots in room.seats.items():
        if pid in slots:
            return team, slots.index(pid)
    return None


def team_of(room: Room, pid: str) -> str | None:
    seat = seat_of(room, pid)
    return seat[0] if seat else None


def is_human(room: Room, pid: str) -> bool:
    player = room.players.get(pid)
    return player is not None and player.kind is PlayerKind.HUMAN


def player_for_token(room: Room, hashed: str) -> str | None:
    """The player holding the token with this hash (compared in constant time), if any."""
    found = None
    for pid, player in room.players.items():
        if player.token_hash and same_hash(player.token_hash, hashed):
            found = pid
    return found


def player_of_profile(room: Room, profile_id: str) -> str | None:
    """The person this profile joined the room as: the seated one if it joined more than once
    (a spectator first, say), else the first; None when the profile never joined."""
    mine = [
        pid
        for pid, player in room.players.items()
        if player.kind is PlayerKind.HUMAN and player.profile_id == profile_id
    ]
    seated = [pid for pid in mine if seat_of(room, pid) is not None]
    return next(iter(seated or mine), None)


def rekey(room: Room, pid: str, hashed: str) -> Room:
    """The player's seat token replaced by the one with this hash (the old one stops working)."""
    player = _require_player(room, pid)
    return replace(room, players={**room.players, pid: replace(player, token_hash=hashed)})


def seen_id(room: Room, pid: str, action_id: str) -> bool:
    """Whether this player's room operation with this id was already applied (a retry)."""
    player = room.players.get(pid)
    return player is not None and action_id in player.ids


def _remembered(room: Room, pid: str, action_id: str) -> Room:
    """The room with `action_id` among the last REMEMBERED_IDS of `pid`'s operations."""
    player = room.players[pid]
    ids = (*player.ids, action_id)[-REMEMBERED_IDS:]
    return replace(room, players={**room.players, pid: replace(player, ids=ids)})


def _require_host(room: Room, actor: str) -> None:
    if room.host != actor:
        raise Refused(ErrorCode.NOT_HOST, "only the host may do this")


def _require_no_game(room: Room) -> None:
    if room.status is RoomStatus.PLAYING:
        raise Refused(ErrorCode.GAME_RUNNING, "not while a game runs")


def _require_player(room: Room, pid: str) -> Player:
    player = room.players.get(pid)
    if player is None:
        raise Refused(ErrorCode.NO_SUCH_PLAYER, f"no player {pid!r} in this room")
    return player


def _check_slot(room: Room, team: str, index: int) -> None:
    slots = room.seats.get(team)
    if slots is None or not 0 <= index < len(slots):
        raise Refused(ErrorCode.NO_SUCH_SEAT, f"no seat {index} in team {team!r}")


def _placed(seats: Seats, team: str, index: int, pid: str | None) -> Seats:
    """The seats with `pid` (None: nobody) in slot `index` of `team`."""
    slots = list(seats[team])
    slots[index] = pid
    return {**seats, team: tuple(slots)}


def _unseated(seats: Seats, pid: str) -> Seats:
    """The seats with `pid` in none of them."""
    for team, slots in seats.items():
        if pid in slots:
            return _placed(seats, team, slots.index(pid), None)
    return seats


def _first_free_slot(seats: Seats) -> tuple[str, int] | None:
    """The first free slot of the team with fewest players (earliest team on a tie)."""
    best: tuple[int, str, int] | None = None
    for team, slots in seats.items():
        if None in slots:
            filled = sum(1 for s in slots if s is not None)
            if best is None or filled < best[0]:
                best = (filled, team, slots.index(None))
    return (best[1], best[2]) if best else None


def _with_new_player(
    room: Room,
    name: str,
    kind: PlayerKind,
    level: str | None,
    hashed: str | None,
    profile_id: str | None = None,
) -> tuple[Room, str]:
    if len(room.players) >= MAX_PLAYERS:
        raise Refused(ErrorCode.ROOM_FULL, f"a room holds at most {MAX_PLAYERS} players")
    pid = f"p{room.next_player}"
    player = Player(name=name, kind=kind, level=level, token_hash=hashed, profile_id=profile_id)
    players = {**room.players, pid: player}
    return replace(room, players=players, next_player=room.next_player + 1), pid


def join(
    room: Room,
    name: str,
    hashed: str,
    action_id: str,
    watch: bool = False,
    profile_id: str | None = None,
) -> tuple[Room, str]:
    """A newcomer becomes a player: seated in a free slot before the start, else (or when it
    asked to `watch`) a spectator; `profile_id` is the joining browser's profile."""
    name = clean_name(name)
    _require_free_name(room, name, None)
    room, pid = _with_new_player(room, name, PlayerKind.HUMAN, None, hashed, profile_id)
    if room.status is RoomStatus.WAITING and not watch:
        slot = _first_free_slot(room.seats)
        if slot:
            room = replace(room, seats=_placed(room.seats, *slot, pid))
    if room.host is None:
        room = replace(room, host=pid)
    return _remembered(room, pid, action_id), pid


def rename(room: Room, actor: str, name: str, action_id: str) -> Room:
    name = clean_name(name)
    _require_free_name(room, name, actor)
    player = _require_player(room, actor)
    room = replace(room, players={**room.players, actor: replace(player, name=name)})
    return _remembered(room, actor, action_id)


def take_seat(room: Room, actor: str, team: str, index: int, action_id: str) -> Room:
    _require_no_game(room)
    _check_slot(room, team, index)
    occupant = room.seats[team][index]
    if occupant not in (None, actor):
        raise Refused(ErrorCode.SEAT_TAKEN, "that seat is taken")
    seats = _placed(_unseated(room.seats, actor), team, index, actor)
    return _remembered(replace(room, seats=seats), actor, action_id)


def leave_seat(room: Room, actor: str, action_id: str) -> Room:
    _require_no_game(room)
    return _remembered(replace(room, seats=_unseated(room.seats, actor)), actor, action_id)


def move(room: Room, actor: str, player: str, team: str | None, index: int, action_id: str) -> Room:
    """Host: put `player` in a slot, swapping with its occupant (how a team is reordered)."""
    _require_host(room, actor)
    _require_no_game(room)
    _require_player(room, player)
    origin = seat_of(room, player)
    seats = _unseated(room.seats, player)
    if team is not None:
        _check_slot(room, team, index)
        occupant = room.seats[team][index]
        seats = _placed(seats, team, index, player)
        if occupant not in (None, player) and origin:
            seats = _placed(seats, *origin, occupant)
    return _remembered(replace(room, seats=seats), actor, action_id)


def remove(room: Room, actor: str, player: str, action_id: str) -> Room:
    """Host: remove a player or bot; its token stops working. Seats are frozen during a game."""
    _require_host(room, actor)
    _require_player(room, player)
    if room.status is RoomStatus.PLAYING and seat_of(room, player):
        raise Refused(ErrorCode.GAME_RUNNING, "a seated player can't be removed while a game runs")
    players = {pid: info for pid, info in room.players.items() if pid != player}
    host = room.host
    if host == player:
        host = next((pid for pid, info in players.items() if info.human), None)
    room = replace(room, seats=_unseated(room.seats, player), players=players, host=host)
    return _remembered(room, actor, action_id) if actor in players else room


def add_bot(
    room: Room, actor: str, team: str, index: int, level: str, action_id: str
) -> tuple[Room, str]:
    _require_host(room, actor)
    _require_no_game(room)
    _check_slot(room, team, index)
    if room.seats[team][index] is not None:
        raise Refused(ErrorCode.SEAT_TAKEN, "that seat is taken")
    room, pid = _with_new_player(room, _bot_name(room), PlayerKind.BOT, level, None)
    room = replace(room, seats=_placed(room.seats, team, index, pid))
    return _remembered(room, actor, action_id), pid


def set_options(
    room: Room, actor: str, options: JSON, sizes: Mapping[str, tuple[int, int]], action_id: str
) -> Room:
    """Host: new (already validated) options; seats beyond a team's new size become spectators."""
    _require_host(room, actor)
    _require_no_game(room)
    old = room.seats
    seated = [p for slots in old.values() for p in slots if p is not None]
    seats: Seats = {}
    for team, (_lo, hi) in sizes.items():
        keep = [p for p in old.get(team, ()) if p is not None][:hi]
        seats[team] = (*keep, *[None] * (hi - len(keep)))
    placed = {p for slots in seats.values() for p in slots}
    for pid in seated:  # players of a team that no longer exists take any free slot
        if pid not in placed and (slot := _first_free_slot(seats)):
            seats = _placed(seats, *slot, pid)
    room = replace(room, seats=seats, sizes=_sizes(sizes), options=options)
    return _remembered(room, actor, action_id)


def set_public(room: Room, actor: str, public: bool, action_id: str) -> Room:
    _require_host(room, actor)
    return _remembered(replace(room, public=public), actor, action_id)


def transfer_host(room: Room, actor: str, player: str, action_id: str) -> Room:
    _require_host(room, actor)
    if not _require_player(room, player).human:
        raise Refused(ErrorCode.NOT_A_HUMAN, "a bot can't host")
    return _remembered(replace(room, host=player), actor, action_id)


def start(room: Room, actor: str, game_id: str, action_id: str) -> tuple[Room, Teams]:
    """Host: begin a game with the seated players; returns the room and the game's teams."""
    _require_host(room, actor)
    _require_no_game(room)
    return _begin(room, actor, game_id, action_id)


def play_again(room: Room, actor: str, action_id: str) -> Room:
    """A seated player, after a game: ready for another (the first one proposes it). The new
    game waits for every seated human; bots are always ready (see `rematch_due`)."""
    if room.status is not RoomStatus.OVER:
        raise Refused(ErrorCode.GAME_NOT_OVER, "a rematch comes after the game")
    if seat_of(room, actor) is None:
        raise Refused(ErrorCode.NOT_SEATED, "take a seat to play again")
    room = replace(room, rematch=tuple(sorted({*room.rematch, actor})))
    return _remembered(room, actor, action_id)


def rematch_due(room: Room) -> bool:
    """A rematch was proposed and every seated human is ready, in teams of allowed sizes."""
    ready = room.rematch
    if room.status is not RoomStatus.OVER or not ready:
        return False
    humans = [p for slots in room.seats.values() for p in slots if p and is_human(room, p)]
    sizes_ok = all(
        lo <= sum(p is not None for p in room.seats[team]) <= hi
        for team, (lo, hi) in room.sizes.items()
    )
    return bool(humans) and sizes_ok and all(p in ready for p in humans)


def rematch(room: Room, actor: str, game_id: str, action_id: str) -> tuple[Room, Teams]:
    """Host, after a game: the same seats and options, a new game (new keywords) at once."""
    _require_host(room, actor)
    if room.status is not RoomStatus.OVER:
        raise Refused(ErrorCode.GAME_NOT_OVER, "a rematch comes after the game")
    return _begin(room, actor, game_id, action_id)


def agreed_rematch(room: Room, actor: str, game_id: str, action_id: str) -> tuple[Room, Teams]:
    """Once `rematch_due`: the same options and whoever is seated now, a new game; whoever
    left the seats after the game watches it."""
    if not rematch_due(room):
        raise Refused(ErrorCode.GAME_NOT_OVER, "a rematch starts once every seated player is ready")
    return _begin(room, actor, game_id, action_id)


def _begin(room: Room, actor: str, game_id: str, action_id: str) -> tuple[Room, Teams]:
    teams = {team: [p for p in slots if p is not None] for team, slots in room.seats.items()}
    for team, (lo, hi) in room.sizes.items():
        if not lo <= len(teams[team]) <= hi:
            raise Refused(ErrorCode.TEAMS_INCOMPLETE, f"team {team} needs {lo} to {hi} players")
    room = replace(
        room,
        status=RoomStatus.PLAYING,
        rematch=(),
        game_id=game_id,
        previous_game_id=room.game_id,
        games_played=room.games_played + 1,
    )
    return _remembered(room, actor, action_id), teams


def finish(room: Room) -> Room:
    return replace(room, status=RoomStatus.OVER)


def free_seats(room: Room) -> int:
    return sum(1 for slots in room.seats.values() for p in slots if p is None)
