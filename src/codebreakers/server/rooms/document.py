"""Rooms as plain JSON documents and the pure operations on them: players, seats, host, bots.

A room is stored as one JSON document (the store's `RoomRow.data`) replaced under a version
check, so every operation here is a pure function `(data, ...) -> new data` that raises
`Refused` and changes nothing when the request isn't allowed. No I/O, no clock: the caller
passes `now`, ids and token hashes in.

Document shape (typed in model.py, which the server moves these operations to next):
    {"schema": 1, "game": "decrypto", "options": {...}, "public": bool,
     "status": "waiting" | "playing" | "over", "host": pid | None,
     "seats": {team: [pid | None, ...]},          # slots in table order, max size per team
     "sizes": {team: [min, max]},
     "players": {pid: {"name", "kind": "human" | "bot", "level", "token_hash", "ids": [...]}},
     "next_player": int, "game_id": str | None, "games_played": int,
     "rematch": [pid, ...]}                       # ready for another game, once one is over
"""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Mapping
from typing import Any

from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.rooms.model import SCHEMA
from codebreakers.server.rooms.tokens import same_hash

JSON = dict[str, Any]

MAX_PLAYERS = 64
MAX_NAME = 32
REMEMBERED_IDS = 32
BOT_NAMES = ("Turing", "Rejewski", "Friedman", "Driscoll", "Vigenère", "Babbage", "Playfair")


def new_room(game: str, options: JSON, sizes: Mapping[str, tuple[int, int]], public: bool) -> JSON:
    return {
        "schema": SCHEMA,
        "game": game,
        "options": options,
        "public": public,
        "status": "waiting",
        "host": None,
        "seats": {team: [None] * hi for team, (_lo, hi) in sizes.items()},
        "sizes": {team: [lo, hi] for team, (lo, hi) in sizes.items()},
        "players": {},
        "next_player": 1,
        "game_id": None,
        "games_played": 0,
    }


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


def name_free(data: JSON, name: str, actor: str | None = None) -> bool:
    """Whether no player of the room but `actor` goes by `name` (as `name_key` sees it)."""
    key = name_key(name)
    return all(pid == actor or name_key(p["name"]) != key for pid, p in data["players"].items())


def _require_free_name(data: JSON, name: str, actor: str | None) -> None:
    """Refused when another player of the room goes by the same name: at a table, names are
    how players tell each other apart in chat and at the seats."""
    if not name_free(data, name, actor):
        raise Refused(ErrorCode.NAME_TAKEN, "another player in this room has that name")


def _bot_name(data: JSON) -> str:
    """The first cryptographer's name no player of the room goes by (a person may have taken
    one), numbered once all are taken."""
    for round_ in range(1, MAX_PLAYERS + 2):
        for base in BOT_NAMES:
            name = base if round_ == 1 else f"{base} {round_}"
            if name_free(data, name):
                return name
    raise AssertionError("a room holds fewer players than bot names")


def seat_of(data: JSON, pid: str) -> tuple[str, int] | None:
    for team, slots in data["seats"].items():
        if pid in slots:
            return team, slots.index(pid)
    return None


def team_of(data: JSON, pid: str) -> str | None:
    seat = seat_of(data, pid)
    return seat[0] if seat else None


def player_for_token(data: JSON, hashed: str) -> str | None:
    """The player holding the token with this hash (compared in constant time), if any."""
    found = None
    for pid, player in data["players"].items():
        if player.get("token_hash") and same_hash(player["token_hash"], hashed):
            found = pid
    return found


def seen_id(data: JSON, pid: str, action_id: str) -> bool:
    """Whether this player's room operation with this id was already applied (a retry)."""
    player = data["players"].get(pid)
    return player is not None and action_id in player["ids"]


def _remember(data: JSON, pid: str, action_id: str) -> None:
    ids = data["players"][pid]["ids"]
    ids.append(action_id)
    del ids[:-REMEMBERED_IDS]


def _require_host(data: JSON, actor: str) -> None:
    if data["host"] != actor:
        raise Refused(ErrorCode.NOT_HOST, "only the host may do this")


def _require_no_game(data: JSON) -> None:
    if data["status"] == "playing":
        raise Refused(ErrorCode.GAME_RUNNING, "not while a game runs")


def _require_player(data: JSON, pid: str) -> JSON:
    player = data["players"].get(pid)
    if player is None:
        raise Refused(ErrorCode.NO_SUCH_PLAYER, f"no player {pid!r} in this room")
    return player  # type: ignore[no-any-return]


def _check_slot(data: JSON, team: str, index: int) -> None:
    slots = data["seats"].get(team)
    if slots is None or not 0 <= index < len(slots):
        raise Refused(ErrorCode.NO_SUCH_SEAT, f"no seat {index} in team {team!r}")


def _unseat(data: JSON, pid: str) -> None:
    seat = seat_of(data, pid)
    if seat:
        data["seats"][seat[0]][seat[1]] = None


def _first_free_slot(data: JSON) -> tuple[str, int] | None:
    """The first free slot of the team with fewest players (earliest team on a tie)."""
    best: tuple[int, str, int] | None = None
    for team, slots in data["seats"].items():
        if None in slots:
            filled = sum(1 for s in slots if s is not None)
            if best is None or filled < best[0]:
                best = (filled, team, slots.index(None))
    return (best[1], best[2]) if best else None


def _new_player(data: JSON, name: str, kind: str, level: str | None, hashed: str | None) -> str:
    if len(data["players"]) >= MAX_PLAYERS:
        raise Refused(ErrorCode.ROOM_FULL, f"a room holds at most {MAX_PLAYERS} players")
    pid = f"p{data['next_player']}"
    data["next_player"] += 1
    data["players"][pid] = {
        "name": name,
        "kind": kind,
        "level": level,
        "token_hash": hashed,
        "ids": [],
    }
    return pid


def join(
    data: JSON, name: str, hashed: str, action_id: str, watch: bool = False
) -> tuple[JSON, str]:
    """A newcomer becomes a player: seated in a free slot before the start, else (or when it
    asked to `watch`) a spectator."""
    name = clean_name(name)
    _require_free_name(data, name, None)
    data = copy.deepcopy(data)
    pid = _new_player(data, name, "human", None, hashed)
    if data["status"] == "waiting" and not watch:
        slot = _first_free_slot(data)
        if slot:
            data["seats"][slot[0]][slot[1]] = pid
    if data["host"] is None:
        data["host"] = pid
    _remember(data, pid, action_id)
    return data, pid


def rename(data: JSON, actor: str, name: str, action_id: str) -> JSON:
    name = clean_name(name)
    _require_free_name(data, name, actor)
    data = copy.deepcopy(data)
    _require_player(data, actor)["name"] = name
    _remember(data, actor, action_id)
    return data


def take_seat(data: JSON, actor: str, team: str, index: int, action_id: str) -> JSON:
    _require_no_game(data)
    _check_slot(data, team, index)
    occupant = data["seats"][team][index]
    if occupant not in (None, actor):
        raise Refused(ErrorCode.SEAT_TAKEN, "that seat is taken")
    data = copy.deepcopy(data)
    _unseat(data, actor)
    data["seats"][team][index] = actor
    _remember(data, actor, action_id)
    return data


def leave_seat(data: JSON, actor: str, action_id: str) -> JSON:
    _require_no_game(data)
    data = copy.deepcopy(data)
    _unseat(data, actor)
    _remember(data, actor, action_id)
    return data


def move(data: JSON, actor: str, player: str, team: str | None, index: int, action_id: str) -> JSON:
    """Host: put `player` in a slot, swapping with its occupant (how a team is reordered)."""
    _require_host(data, actor)
    _require_no_game(data)
    _require_player(data, player)
    data = copy.deepcopy(data)
    origin = seat_of(data, player)
    if team is None:
        _unseat(data, player)
    else:
        _check_slot(data, team, index)
        occupant = data["seats"][team][index]
        _unseat(data, player)
        data["seats"][team][index] = player
        if occupant not in (None, player) and origin:
            data["seats"][origin[0]][origin[1]] = occupant
    _remember(data, actor, action_id)
    return data


def remove(data: JSON, actor: str, player: str, action_id: str) -> JSON:
    """Host: remove a player or bot; its token stops working. Seats are frozen during a game."""
    _require_host(data, actor)
    _require_player(data, player)
    if data["status"] == "playing" and seat_of(data, player):
        raise Refused(ErrorCode.GAME_RUNNING, "a seated player can't be removed while a game runs")
    data = copy.deepcopy(data)
    _unseat(data, player)
    del data["players"][player]
    if data["host"] == player:
        data["host"] = next(
            (p for p, info in data["players"].items() if info["kind"] == "human"), None
        )
    if actor in data["players"]:
        _remember(data, actor, action_id)
    return data


def add_bot(
    data: JSON, actor: str, team: str, index: int, level: str, action_id: str
) -> tuple[JSON, str]:
    _require_host(data, actor)
    _require_no_game(data)
    _check_slot(data, team, index)
    if data["seats"][team][index] is not None:
        raise Refused(ErrorCode.SEAT_TAKEN, "that seat is taken")
    data = copy.deepcopy(data)
    pid = _new_player(data, _bot_name(data), "bot", level, None)
    data["seats"][team][index] = pid
    _remember(data, actor, action_id)
    return data, pid


def set_options(
    data: JSON, actor: str, options: JSON, sizes: Mapping[str, tuple[int, int]], action_id: str
) -> JSON:
    """Host: new (already validated) options; seats beyond a team's new size become spectators."""
    _require_host(data, actor)
    _require_no_game(data)
    data = copy.deepcopy(data)
    old = data["seats"]
    seated = [p for slots in old.values() for p in slots if p is not None]
    data["seats"] = {}
    for team, (_lo, hi) in sizes.items():
        keep = [p for p in old.get(team, []) if p is not None][:hi]
        data["seats"][team] = keep + [None] * (hi - len(keep))
    placed = {p for slots in data["seats"].values() for p in slots}
    for pid in seated:  # players of a team that no longer exists take any free slot
        if pid not in placed and (slot := _first_free_slot(data)):
            data["seats"][slot[0]][slot[1]] = pid
    data["sizes"] = {team: [lo, hi] for team, (lo, hi) in sizes.items()}
    data["options"] = options
    _remember(data, actor, action_id)
    return data


def set_public(data: JSON, actor: str, public: bool, action_id: str) -> JSON:
    _require_host(data, actor)
    data = copy.deepcopy(data)
    data["public"] = public
    _remember(data, actor, action_id)
    return data


def transfer_host(data: JSON, actor: str, player: str, action_id: str) -> JSON:
    _require_host(data, actor)
    if _require_player(data, player)["kind"] != "human":
        raise Refused(ErrorCode.NOT_A_HUMAN, "a bot can't host")
    data = copy.deepcopy(data)
    data["host"] = player
    _remember(data, actor, action_id)
    return data


def start(
    data: JSON, actor: str, game_id: str, action_id: str
) -> tuple[JSON, dict[str, list[str]]]:
    """Host: begin a game with the seated players; returns the room and the game's teams."""
    _require_host(data, actor)
    _require_no_game(data)
    return _begin(data, actor, game_id, action_id)


def play_again(data: JSON, actor: str, action_id: str) -> JSON:
    """A seated player, after a game: ready for another (the first one proposes it). The new
    game waits for every seated human; bots are always ready (see `rematch_due`)."""
    if data["status"] != "over":
        raise Refused(ErrorCode.GAME_NOT_OVER, "a rematch comes after the game")
    if seat_of(data, actor) is None:
        raise Refused(ErrorCode.NOT_SEATED, "take a seat to play again")
    data = copy.deepcopy(data)
    data["rematch"] = sorted({*data.get("rematch", []), actor})
    _remember(data, actor, action_id)
    return data


def rematch_due(data: JSON) -> bool:
    """A rematch was proposed and every seated human is ready, in teams of allowed sizes."""
    ready = data.get("rematch")
    if data["status"] != "over" or not ready:
        return False
    humans = [
        p
        for slots in data["seats"].values()
        for p in slots
        if p and data["players"][p]["kind"] == "human"
    ]
    sizes_ok = all(
        lo <= sum(p is not None for p in data["seats"][team]) <= hi
        for team, (lo, hi) in data["sizes"].items()
    )
    return bool(humans) and sizes_ok and all(p in ready for p in humans)


def rematch(
    data: JSON, actor: str, game_id: str, action_id: str
) -> tuple[JSON, dict[str, list[str]]]:
    """Host, after a game: the same seats and options, a new game (new keywords) at once."""
    _require_host(data, actor)
    if data["status"] != "over":
        raise Refused(ErrorCode.GAME_NOT_OVER, "a rematch comes after the game")
    return _begin(data, actor, game_id, action_id)


def agreed_rematch(
    data: JSON, actor: str, game_id: str, action_id: str
) -> tuple[JSON, dict[str, list[str]]]:
    """Once `rematch_due`: the same options and whoever is seated now, a new game; whoever
    left the seats after the game watches it."""
    if not rematch_due(data):
        raise Refused(ErrorCode.GAME_NOT_OVER, "a rematch starts once every seated player is ready")
    return _begin(data, actor, game_id, action_id)


def _begin(
    data: JSON, actor: str, game_id: str, action_id: str
) -> tuple[JSON, dict[str, list[str]]]:
    teams = {team: [p for p in slots if p is not None] for team, slots in data["seats"].items()}
    for team, (lo, hi) in data["sizes"].items():
        if not lo <= len(teams[team]) <= hi:
            raise Refused(ErrorCode.TEAMS_INCOMPLETE, f"team {team} needs {lo} to {hi} players")
    data = copy.deepcopy(data)
    data["status"] = "playing"
    data["rematch"] = []
    data["game_id"] = game_id
    data["games_played"] += 1
    _remember(data, actor, action_id)
    return data, teams


def finish(data: JSON) -> JSON:
    data = copy.deepcopy(data)
    data["status"] = "over"
    return data


def free_seats(data: JSON) -> int:
    return sum(1 for slots in data["seats"].values() for p in slots if p is None)


def public_options(options: JSON) -> JSON:
    """Options as anyone but the host sees them. A host's custom word list holds both teams'
    keywords (docs/rules-choices.md), so only its size leaves the server: the host pasted it,
    and no one else needs more than the size to know what kind of game it makes."""
    custom = options.get("custom_words")
    if custom is None:
        return options
    return {**options, "custom_words": None, "custom_word_count": len(custom)}


def describe(
    data: JSON, code: str, connected: set[str], url: str, version: int, host: bool = False
) -> JSON:
    """The description: everything anyone may know about the room, listed field by field; with
    `host`, the host's own copy, which alone carries the options as set (its custom words)
    while no game runs: the host edits them then, and during a game the list would sit in the
    host's frames beside the enemy's keywords."""
    editable = data["status"] != "playing"
    players = []
    for pid, info in data["players"].items():
        seat = seat_of(data, pid)
        players.append(
            {
                "id": pid,
                "name": info["name"],
                "kind": info["kind"],
                "level": info["level"],
                "connected": info["kind"] == "bot" or pid in connected,
                "team": seat[0] if seat else None,
                "index": seat[1] if seat else None,
            }
        )
    return {
        "code": code,
        "game": data["game"],
        "options": data["options"] if host and editable else public_options(data["options"]),
        "public": data["public"],
        "status": data["status"],
        "host": data["host"],
        "teams": {team: list(slots) for team, slots in data["seats"].items()},
        "team_sizes": {team: list(size) for team, size in data["sizes"].items()},
        "players": players,
        "game_id": data["game_id"],
        "games_played": data["games_played"],
        "rematch": list(data.get("rematch", [])),
        "version": version,
        "url": url,
    }


def listing(data: JSON, code: str, created_at: float) -> JSON:
    """A public room's line in the open-tables list."""
    return {
        "code": code,
        "game": data["game"],
        "options": public_options(data["options"]),
        "players": len(data["players"]),
        "free_seats": free_seats(data),
        "created_at": created_at,
    }
