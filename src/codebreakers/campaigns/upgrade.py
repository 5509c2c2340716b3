"""Upgrade campaign: a database made by the oldest migration, filled with real games, upgraded.

The store's own test (tests/store/test_store_migrations.py) upgrades a few hand-made rows; this
campaign fills a revision-0001 database with games actually played through the engine (random
legal tables of every size, some finished, some cut off mid-game), lets the new version open it
(which migrates to head), then folds every game's upgraded log and compares it with the engine's
own state: the same view for every seat and an open spectator, the same outcome, the same live
games; and a live game takes its next action (and refuses a retried one) after the upgrade.
Each game's room is stored as the server wrote rooms then (no schema version) and must decode
after the upgrade as the server's typed room (server/rooms/model.py), seated as before.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

from codebreakers.campaigns import report
from codebreakers.campaigns.killable_nodes import postgres_database
from codebreakers.games.base import Viewer
from codebreakers.games.decrypto import RULES
from codebreakers.games.records import fold
from codebreakers.server.rooms import model
from codebreakers.sim.random_decrypto import play, teams_for
from codebreakers.store import dialects, migrate, open_store
from codebreakers.store.base import ActionRow, AppendResult

JSON = dict[str, Any]
OLDEST = "0001"
_J = sa.JSON().with_variant(JSONB(), "postgresql")
# The tables as revision 0001 made them (frozen here, like a migration, never from schema.py).
ROOMS = sa.table(
    "rooms",
    *(sa.column(c) for c in ("code", "game", "version", "public", "waiting")),
    *(sa.column(c) for c in ("created_at", "updated_at")),
    sa.column("data", _J),
)
GAMES = sa.table(
    "games",
    *(sa.column(c) for c in ("id", "room_code", "game", "created_at", "over")),
    sa.column("setup", _J),
    sa.column("outcome", _J),
)
ACTIONS = sa.table(
    "actions",
    *(sa.column(c) for c in ("game_id", "version", "seat", "client_action_id", "at")),
    sa.column("action", _J),
)


def _games(count: int, seed: int) -> list[JSON]:
    """Played games: setup, the stored actions (cut short for about a third), the final state."""
    rng = random.Random(seed)
    made = []
    for i in range(count):
        teams, three = teams_for(rng.choice([3, 4, 5, 6, 7, 8]))
        options = {"three_player": three, "order": rng.choice(["simultaneous", "classic"])}
        setup: JSON = {"options": options, "teams": teams, "seed": rng.getrandbits(62), "now": 1e9}
        played = play(setup, random.Random(setup["seed"]))
        cut = rng.randrange(1, len(played.actions)) if rng.random() < 0.35 else None
        actions = played.actions[:cut]
        state = fold(RULES, setup, actions).state
        made.append({"id": f"g{i}", "room": f"R{i:05d}", "setup": setup, "actions": actions,
                     "state": state})  # fmt: skip
    return made


def _old_room(g: JSON, over: bool) -> JSON:
    """The game's room as the server stored rooms before they carried a schema version (and
    before the `rematch` list): every seat a person, in team order."""
    teams = g["setup"]["teams"]
    seats = [seat for team in teams.values() for seat in team]
    return {
        "game": "decrypto", "options": g["setup"]["options"], "public": False,
        "status": "over" if over else "playing", "host": seats[0],
        "seats": {team: [*members, None] for team, members in teams.items()},
        "sizes": {team: [1, len(members) + 1] for team, members in teams.items()},
        "players": {seat: {"name": f"Player {seat}", "kind": "human", "level": None,
                           "token_hash": f"hash-{seat}", "ids": [f"join-{seat}"]}
                    for seat in seats},
        "next_player": len(seats) + 1, "game_id": g["id"], "games_played": 1,
        "base_url": "http://localhost:8000",
    }  # fmt: skip


def _fill(conn: sa.Connection, games: list[JSON]) -> None:
    for g in games:
        over = RULES.is_over(g["state"])
        conn.execute(
            sa.insert(ROOMS).values(
                code=g["room"], game="decrypto", data=_old_room(g, over), version=1,
                public=False, waiting=False, created_at=1.0, updated_at=2.0,
            )
        )  # fmt: skip
        conn.execute(
            sa.insert(GAMES).values(
                id=g["id"], room_code=g["room"], game="decrypto", setup=g["setup"],
                created_at=1.0, over=over, outcome=RULES.outcome(g["state"]) if over else None,
            )
        )  # fmt: skip
        rows = [
            {"game_id": g["id"], "version": v, "seat": a["seat"], "client_action_id": f"c{v}",
             "action": a["action"], "at": a["at"]}
            for v, a in enumerate(g["actions"], start=1)
        ]  # fmt: skip
        if rows:
            conn.execute(sa.insert(ACTIONS), rows)


def _same(state_a: Any, state_b: Any, seats: list[str]) -> bool:
    eyes = [Viewer(s) for s in seats] + [Viewer(None, True), Viewer(None)]
    return all(RULES.view(state_a, v) == RULES.view(state_b, v) for v in eyes)


async def campaign(url: str, count: int, seed: int) -> JSON:
    games = _games(count, seed)
    runner = dialects.runner(url)
    await runner.open()
    try:
        await runner.schema_change(migrate.upgrade, OLDEST)
        await runner.write(_fill, games)
    finally:
        await runner.close()
    store = open_store(url)
    started = time.monotonic()
    await store.open()  # the new version: migrates to head
    upgraded_s = time.monotonic() - started
    lost = differ = rooms_unreadable = 0
    try:
        for g in games:
            if not await _room_reads(store, g):
                rooms_unreadable += 1
            row = await store.load_game(g["id"])
            if row is None or len(row.actions) != len(g["actions"]):
                lost += 1
                continue
            entries = [{"seat": a.seat, "action": a.action, "at": a.at} for a in row.actions]
            state = fold(RULES, row.setup, entries).state
            seats = [s for team in g["setup"]["teams"].values() for s in team]
            over = RULES.is_over(state)
            outcome_ok = not over or row.outcome == RULES.outcome(state)
            if not _same(state, g["state"], seats) or row.over != over or not outcome_ok:
                differ += 1
        live = sorted(g["id"] for g in games if not RULES.is_over(g["state"]))
        live_ok = sorted(await store.live_games()) == live
        writable = await _still_writable(store, games)
        revision = await store_revision(url)
    finally:
        await store.close()
    return {
        "campaign": "upgrade",
        "from": OLDEST,
        "to": revision,
        "games": len(games),
        "live_games": len(live),
        "actions": sum(len(g["actions"]) for g in games),
        "upgrade_seconds": round(upgraded_s, 2),
        "lost": lost,
        "differ": differ,
        "rooms_unreadable": rooms_unreadable,
        "live_games_listed_right": live_ok,
        "live_game_takes_next_action": writable,
    }


async def _room_reads(store: Any, g: JSON) -> bool:
    """Whether the game's room, stored before the upgrade, decodes as a typed room with its
    game, seats and players as they were."""
    row = await store.load_room(g["room"])
    try:
        room = model.load(row.data) if row is not None else None
    except msgspec.ValidationError:
        return False
    teams = g["setup"]["teams"]
    return (
        room is not None
        and room.game_id == g["id"]
        and all(
            room.seats[team][: len(members)] == tuple(members) for team, members in teams.items()
        )
        and sorted(room.players) == sorted(s for team in teams.values() for s in team)
    )


async def _still_writable(store: Any, games: list[JSON]) -> bool:
    g = next((g for g in games if not RULES.is_over(g["state"])), None)
    if g is None:
        return True
    v = len(g["actions"])
    new = ActionRow(v + 1, "w1", "after-upgrade", {"type": "note", "number": 1, "text": "x"}, 2e9)
    retried = ActionRow(v + 2, g["actions"][-1]["seat"], f"c{v}", {"type": "review_done"}, 2e9)
    return (
        await store.append_action(g["id"], new) is AppendResult.APPENDED
        and await store.append_action(g["id"], retried) is AppendResult.DUPLICATE
    )


async def store_revision(url: str) -> str | None:
    runner = dialects.runner(url)
    await runner.open()
    try:
        return await runner.read(migrate.current_revision)
    finally:
        await runner.close()


def failures(summary: JSON) -> list[str]:
    bad = [k for k in ("lost", "differ", "rooms_unreadable") if summary[k]]
    bad += [k for k in ("live_games_listed_right", "live_game_takes_next_action") if not summary[k]]
    return bad


def run(args: argparse.Namespace) -> int:
    count = args.games or 300

    def go(url: str) -> JSON:
        return asyncio.run(campaign(url, count, args.seed))

    if args.db and args.db.startswith(("postgresql", "postgres:")):
        with postgres_database(args.db) as url:
            summary = go(url)
    else:
        with tempfile.TemporaryDirectory(prefix="cb-upgrade-") as tmp:
            summary = go(args.db or f"sqlite:///{Path(tmp) / 'old.db'}")
    summary["db"] = (args.db or "sqlite").split(":", 1)[0]
    return report(summary, failures(summary), args.json)
