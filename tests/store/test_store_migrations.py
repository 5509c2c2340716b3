"""Migrations: head matches schema.py, and an older database is upgraded with every game intact."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.operations import Operations
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from codebreakers.campaigns import upgrade
from codebreakers.server.rooms import model
from codebreakers.store import dialects, migrate, open_store
from codebreakers.store.base import ActionRow, AppendResult, ChatLine, RoomRow
from codebreakers.store.ratings.open import ratings_of
from codebreakers.store.schema import metadata

pytestmark = pytest.mark.anyio

# A room as the server stored it before 0004: no schema version (and no `rematch` list yet).
STORED_BEFORE = {
    "game": "decrypto", "options": {"words": "fr"}, "public": False, "status": "waiting",
    "host": "p1", "seats": {"white": ["p1", None], "black": [None, None]},
    "sizes": {"white": [2, 2], "black": [2, 2]},
    "players": {"p1": {"name": "Ana", "kind": "human", "level": None, "token_hash": "h",
                       "ids": ["join-1"]}},
    "next_player": 2, "game_id": None, "games_played": 0, "base_url": "http://x",
}  # fmt: skip
HEAD = ScriptDirectory.from_config(migrate.alembic_config()).get_current_head()
# The tables as revision 0001 left them (frozen in the upgrade campaign, never from schema.py).
ROOMS_0001, GAMES_0001, ACTIONS_0001 = upgrade.ROOMS, upgrade.GAMES, upgrade.ACTIONS


async def run_on(url: str, work: Any, *args: Any, migrating: bool = False) -> Any:
    """Run `work(connection, *args)` in one write (or schema-change) transaction."""
    runner = dialects.runner(url)
    await runner.open()
    try:
        if migrating:
            return await runner.schema_change(work, *args)
        return await runner.write(work, *args)
    finally:
        await runner.close()


def test_revisions_form_one_line_from_0001_to_head() -> None:
    scripts = ScriptDirectory.from_config(migrate.alembic_config())
    chain = [s.revision for s in scripts.walk_revisions("base", "heads")]
    assert list(reversed(chain)) == [f"{n:04}" for n in range(1, 10)]  # 0001 ... 0009
    assert HEAD == "0009"


async def test_a_migrated_empty_database_matches_schema_py(fresh_url: str) -> None:
    store = open_store(fresh_url)
    await store.open()
    await store.close()

    def differences(conn: sa.Connection) -> list[Any]:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))

    assert await run_on(fresh_url, differences) == []
    assert await run_on(fresh_url, migrate.current_revision) == HEAD


async def test_opening_twice_keeps_the_schema_and_the_data(store_url: str) -> None:
    first = open_store(store_url)
    await first.open()
    await first.create_room(RoomRow("KEEP", "decrypto", {}, 1, True, True, 1.0, 1.0))
    await first.close()
    again = open_store(store_url)
    await again.open()
    try:
        assert await again.load_room("KEEP") is not None
    finally:
        await again.close()


async def test_two_nodes_migrating_one_empty_database_at_once_both_open(fresh_url: str) -> None:
    nodes = [open_store(fresh_url) for _ in range(3)]
    await asyncio.gather(*(n.open() for n in nodes))
    try:
        assert await nodes[0].create_room(RoomRow("R", "decrypto", {}, 1, True, True, 1.0, 1.0))
        assert await nodes[2].load_room("R") is not None
    finally:
        await asyncio.gather(*(n.close() for n in nodes))


async def test_a_database_at_0001_is_upgraded_with_every_game_intact(fresh_url: str) -> None:
    await run_on(fresh_url, migrate.upgrade, "0001", migrating=True)
    assert await run_on(fresh_url, migrate.current_revision) == "0001"
    setup = {"seed": 99, "keywords": {"white": ["été", "лес", "바다", "rock"]}}
    outcome = {"winner": "white"}

    def fill(conn: sa.Connection) -> None:
        conn.execute(
            sa.insert(ROOMS_0001),
            [
                {"code": c, "game": "decrypto", "data": {"n": i}, "version": 3, "public": True,
                 "waiting": False, "created_at": 1.0, "updated_at": 2.0 + i}
                for i, c in enumerate(["OLD1", "OLD2"])
            ],
        )  # fmt: skip
        conn.execute(
            sa.insert(GAMES_0001),
            [
                {"id": "live", "room_code": "OLD1", "game": "decrypto", "setup": setup,
                 "created_at": 3.0, "over": False, "outcome": None},
                {"id": "done", "room_code": "OLD2", "game": "mastermind", "setup": {"seed": 1},
                 "created_at": 4.0, "over": True, "outcome": outcome},
            ],
        )  # fmt: skip
        conn.execute(
            sa.insert(ACTIONS_0001),
            [
                {"game_id": g, "version": v, "seat": f"s{v % 2}", "client_action_id": f"c{v}",
                 "action": {"v": v, "g": g}, "at": 10.0 + v}
                for g in ("live", "done") for v in range(1, 8)
            ],
        )  # fmt: skip

    await run_on(fresh_url, fill)

    store = open_store(fresh_url)
    await store.open()
    try:
        assert await run_on(fresh_url, migrate.current_revision) == HEAD
        assert await store.load_room("OLD1") == RoomRow(  # 0004 wrote the schema version
            "OLD1", "decrypto", {"n": 0, "schema": 1}, 3, True, False, 1.0, 2.0
        )
        live = await store.load_game("live")
        done = await store.load_game("done")
        assert live is not None and done is not None
        assert live.setup == setup and not live.over and live.outcome is None
        assert done.over and done.outcome == outcome
        for game in (live, done):
            assert game.actions == [
                ActionRow(v, f"s{v % 2}", f"c{v}", {"v": v, "g": game.id}, 10.0 + v)
                for v in range(1, 8)
            ]
        assert await store.live_games() == ["live"]
        assert await store.append_action("live", ActionRow(8, "s0", "c8", {}, 20.0)) == (
            AppendResult.APPENDED
        )
        assert await store.append_action("live", ActionRow(9, "s1", "c1", {}, 21.0)) == (
            AppendResult.DUPLICATE
        )
        line = await store.append_chat("OLD1", "live", "all", None, "Ana", "still here", 22.0)
        assert line == ChatLine(1, "OLD1", "live", "all", None, "Ana", "still here", 22.0)
        assert [r.code for r in await store.list_rooms(public=True, waiting=False, limit=5)] == [
            "OLD2",
            "OLD1",
        ]
    finally:
        await store.close()


async def test_0004_writes_the_schema_version_into_every_stored_room(fresh_url: str) -> None:
    """Rooms stored before 0004 get `"schema": 1` and decode as typed rooms; a document that
    is not a JSON object is left alone; downgrading takes the version out again."""
    await run_on(fresh_url, migrate.upgrade, "0003", migrating=True)
    rooms = {"OLD": STORED_BEFORE, "ODD": [1, 2]}

    def fill(conn: sa.Connection) -> None:
        conn.execute(
            sa.insert(ROOMS_0001),
            [
                {"code": code, "game": "decrypto", "data": data, "version": 2, "public": False,
                 "waiting": False, "created_at": 1.0, "updated_at": 2.0}
                for code, data in rooms.items()
            ],
        )  # fmt: skip

    def documents(conn: sa.Connection) -> dict[str, Any]:
        return dict(conn.execute(sa.select(ROOMS_0001.c.code, ROOMS_0001.c.data)).all())

    await run_on(fresh_url, fill)
    await run_on(fresh_url, migrate.upgrade, "0004", migrating=True)
    stored = await run_on(fresh_url, documents)
    assert stored == {"OLD": {**STORED_BEFORE, "schema": 1}, "ODD": [1, 2]}
    assert model.load(stored["OLD"]) == model.load(STORED_BEFORE)
    assert model.dump(model.load(stored["OLD"]))["schema"] == model.SCHEMA

    def downgrade(conn: sa.Connection) -> None:
        command.downgrade(migrate.alembic_config(conn), "0003")

    await run_on(fresh_url, downgrade, migrating=True)
    assert await run_on(fresh_url, documents) == rooms


CHAT_0003 = sa.table(
    "chat", *(sa.column(c) for c in ("room_code", "seq", "game_id", "channel", "seat", "name",
                                     "text", "at", "client_id")),
)  # fmt: skip
GAME_PLAYERS = sa.table(
    "game_players",
    *(
        sa.column(c)
        for c in ("game_id", "player_id", "profile_id", "seat", "side", "human", "name")
    ),
)


async def test_0005_brings_rooms_games_and_chat_along_with_anonymous_players(
    fresh_url: str,
) -> None:
    """A store at 0004 with a room, its games and chat: after 0005 they read as before, every
    game lists its players (anonymous; name and kind from the room while it lists them), and
    the room decodes with anonymous players."""
    await run_on(fresh_url, migrate.upgrade, "0004", migrating=True)
    room = {
        **STORED_BEFORE,
        "schema": 1,
        "status": "over",
        "game_id": "g2",
        "seats": {"white": ["p1", "p2"], "black": ["p3", None]},
        "players": {
            **STORED_BEFORE["players"],
            "p2": {"name": "Bip", "kind": "bot", "level": "easy"},
            "p3": {"name": "Жан", "kind": "human", "token_hash": "h3"},
        },
    }
    teams = {"white": ["p1", "p2"], "black": ["p3", "p9"]}  # p9 has left the room since

    def fill(conn: sa.Connection) -> None:
        conn.execute(
            sa.insert(ROOMS_0001),
            [
                {
                    "code": "OLD1",
                    "game": "decrypto",
                    "data": room,
                    "version": 7,
                    "public": False,
                    "waiting": False,
                    "created_at": 1.0,
                    "updated_at": 2.0,
                }
            ],
        )
        conn.execute(
            sa.insert(GAMES_0001),
            [
                {
                    "id": "g1",
                    "room_code": "OLD1",
                    "game": "decrypto",
                    "setup": {"teams": teams, "seed": 1},
                    "created_at": 3.0,
                    "over": True,
                    "outcome": {"winner": "black"},
                },
                {
                    "id": "g2",
                    "room_code": "OLD1",
                    "game": "decrypto",
                    "setup": {"seed": 2},
                    "created_at": 4.0,
                    "over": False,
                    "outcome": None,
                },
            ],
        )
        conn.execute(
            sa.insert(CHAT_0003),
            [
                {
                    "room_code": "OLD1",
                    "seq": 1,
                    "game_id": "g1",
                    "channel": "all",
                    "seat": "p1",
                    "name": "Ana",
                    "text": "gg",
                    "at": 5.0,
                    "client_id": "c1",
                }
            ],
        )

    def players(conn: sa.Connection) -> set[tuple[Any, ...]]:
        return {tuple(r) for r in conn.execute(sa.select(GAME_PLAYERS)).all()}

    await run_on(fresh_url, fill)
    store = open_store(fresh_url)
    await store.open()
    try:
        assert await store.load_room("OLD1") == RoomRow(
            "OLD1", "decrypto", room, 7, False, False, 1.0, 2.0
        )
        loaded = model.load(room)
        assert all(p.profile_id is None for p in loaded.players.values())
        game = await store.load_game("g1")
        assert game is not None and game.over and game.setup["teams"] == teams
        assert await store.chat_of_game("g1") == [
            ChatLine(1, "OLD1", "g1", "all", "p1", "Ana", "gg", 5.0, "c1", None)
        ]
        assert await store.finished_games_of("anyone", 10) == []
    finally:
        await store.close()
    assert await run_on(fresh_url, players) == {
        ("g1", "p1", None, "p1", "white", True, "Ana"),
        ("g1", "p2", None, "p2", "white", False, "Bip"),
        ("g1", "p3", None, "p3", "black", True, "Жан"),
        ("g1", "p9", None, "p9", "black", True, "p9"),
    }

    def downgrade(conn: sa.Connection) -> None:
        command.downgrade(migrate.alembic_config(conn), "0004")

    await run_on(fresh_url, downgrade, migrating=True)
    assert await run_on(fresh_url, migrate.current_revision) == "0004"


PROFILES_0005 = sa.table(
    "profiles", *(sa.column(c) for c in ("id", "name", "language", "created_at", "hidden"))
)
RATINGS_0006 = sa.table(
    "ratings",
    *(sa.column(c) for c in ("profile_id", "game", "mu", "sigma", "rating", "games", "updated_at")),
)


async def test_0007_copies_each_profiles_hidden_into_its_ratings(fresh_url: str) -> None:
    """Ratings written before 0007 take their profile's `hidden`: the board leaves a hidden
    profile out as before, and downgrading takes the column out again."""
    await run_on(fresh_url, migrate.upgrade, "0006", migrating=True)

    def fill(conn: sa.Connection) -> None:
        conn.execute(
            sa.insert(PROFILES_0005),
            [{"id": i, "name": i.upper(), "language": "en", "created_at": 1.0, "hidden": i == "dan"}
             for i in ("ann", "dan")],
        )  # fmt: skip
        conn.execute(
            sa.insert(RATINGS_0006),
            [{"profile_id": i, "game": g, "mu": 30.0, "sigma": 2.0, "rating": 1600.0,
              "games": 9, "updated_at": 2.0}
             for i in ("ann", "dan") for g in ("decrypto", "mastermind")],
        )  # fmt: skip

    def copies(conn: sa.Connection) -> set[tuple[Any, ...]]:
        return {
            tuple(r) for r in conn.execute(sa.text("SELECT profile_id, game, hidden FROM ratings"))
        }

    await run_on(fresh_url, fill)
    await run_on(fresh_url, migrate.upgrade, "0007", migrating=True)
    assert await run_on(fresh_url, copies) == {
        ("ann", "decrypto", False), ("ann", "mastermind", False),
        ("dan", "decrypto", True), ("dan", "mastermind", True),
    }  # fmt: skip
    store = open_store(fresh_url)
    await store.open()
    try:
        board = await ratings_of(store).leaderboard("decrypto", 0, 10)
        assert [r.profile_id for r in board] == ["ann"]
    finally:
        await store.close()

    def downgrade(conn: sa.Connection) -> None:
        command.downgrade(migrate.alembic_config(conn), "0006")

    await run_on(fresh_url, downgrade, migrating=True)
    assert await run_on(fresh_url, migrate.current_revision) == "0006"


RESULTS_0006 = sa.table(
    "game_results",
    *(sa.column(c) for c in ("game_id", "seat", "profile_id", "game", "variant", "side",
                             "result", "rated", "rating", "finished_at")),
    sa.column("figures", sa.JSON()),
)  # fmt: skip


async def test_0009_sums_each_profiles_results_into_its_totals(fresh_url: str) -> None:
    """Results recorded before 0009 are added up per profile, game and variant, the figures
    key by key; a profile with no results has no totals."""
    await run_on(fresh_url, migrate.upgrade, "0008", migrating=True)

    def fill(conn: sa.Connection) -> None:
        conn.execute(
            sa.insert(PROFILES_0005),
            [{"id": i, "name": i, "language": "en", "created_at": 1.0, "hidden": False}
             for i in ("ann", "bea", "cid")],
        )  # fmt: skip
        conn.execute(
            sa.insert(ROOMS_0001),
            [{"code": "R1", "game": "decrypto", "data": {}, "version": 1, "public": False,
              "waiting": False, "created_at": 1.0, "updated_at": 1.0}],
        )  # fmt: skip
        conn.execute(
            sa.insert(GAMES_0001),
            [{"id": g, "room_code": "R1", "game": "decrypto", "setup": {}, "created_at": 1.0,
              "over": True, "outcome": {}} for g in ("g1", "g2", "g3")],
        )  # fmt: skip
        rows = [
            ("g1", "ann", "teams", "win", {"encrypted": 2, "decoded": 1}),
            ("g2", "ann", "teams", "loss", {"encrypted": 1}),
            ("g3", "ann", "three_player", "draw", {}),
            ("g1", "bea", "teams", "loss", {"decoded": 5}),
        ]
        conn.execute(
            sa.insert(RESULTS_0006),
            [{"game_id": g, "seat": p, "profile_id": p, "game": "decrypto", "variant": v,
              "side": "white", "result": r, "figures": f, "rated": False, "rating": None,
              "finished_at": 2.0} for g, p, v, r, f in rows],
        )  # fmt: skip

    await run_on(fresh_url, fill)
    await run_on(fresh_url, migrate.upgrade, "0009", migrating=True)
    store = open_store(fresh_url)
    await store.open()
    try:
        ratings = ratings_of(store)
        ann, bea, cid = [await ratings.profile_record(p) for p in ("ann", "bea", "cid")]
    finally:
        await store.close()
    assert ann is not None and bea is not None and cid is not None
    assert [(s.variant, s.games, s.wins, s.draws, s.losses, s.figures) for s in ann.stats] == [
        ("teams", 2, 1, 0, 1, {"encrypted": 3, "decoded": 1}),
        ("three_player", 1, 0, 1, 0, {}),
    ]
    assert [(s.games, s.losses, s.figures) for s in bea.stats] == [(1, 1, {"decoded": 5})]
    assert cid.stats == []


def rebuild_rooms(conn: sa.Connection) -> None:
    """What a future batch migration of `rooms` does on SQLite: copy, drop, rename."""
    context = MigrationContext.configure(conn, opts={"render_as_batch": True})
    with Operations(context).batch_alter_table("rooms", recreate="always") as batch:
        batch.add_column(sa.Column("title", sa.String, nullable=True))


async def test_sqlite_migrations_can_rebuild_a_table_that_rows_point_at(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    store = open_store(url)
    await store.open()
    await store.create_room(RoomRow("R", "decrypto", {"k": 1}, 1, True, True, 1.0, 1.0))
    await store.create_game("g1", "R", "decrypto", {}, 1.0)
    await store.append_chat("R", "g1", "all", None, "Ana", "hi", 2.0)
    await store.close()

    # The operational engine enforces foreign keys, so dropping `rooms` mid-rebuild fails there.
    with pytest.raises(sa.exc.IntegrityError, match="FOREIGN KEY"):
        await run_on(url, rebuild_rooms)

    await run_on(url, rebuild_rooms, migrating=True)
    store = open_store(url)
    await store.open()
    try:
        room = await store.load_room("R")
        assert room == RoomRow("R", "decrypto", {"k": 1}, 1, True, True, 1.0, 1.0)
        assert [line.text for line in await store.chat_of_game("g1")] == ["hi"]
        assert (await store.append_chat("R", None, "all", None, "Bo", "again", 3.0)).seq == 2
    finally:
        await store.close()


async def test_a_migration_that_leaves_dangling_rows_is_rolled_back(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    await run_on(url, migrate.upgrade, migrating=True)

    def bad_migration(conn: sa.Connection) -> None:
        conn.execute(
            sa.insert(GAMES_0001).values(
                id="orphan", room_code="NOWHERE", game="decrypto", setup={}, created_at=1.0,
                over=False, outcome=None,
            )
        )  # fmt: skip

    with pytest.raises(RuntimeError, match="pointing at nothing"):
        await run_on(url, bad_migration, migrating=True)
    store = open_store(url)
    await store.open()
    try:
        assert await store.load_game("orphan") is None
    finally:
        await store.close()


async def test_stores_opening_one_new_sqlite_file_at_once_never_see_it_locked(
    tmp_path: Path,
) -> None:
    """Switching a new file to WAL answers "locked" at once while another connection holds it;
    each store must wait its turn (this failed about one time in fifteen before)."""
    for attempt in range(30):
        url = f"sqlite:///{tmp_path / f'race{attempt}.db'}"
        nodes = [open_store(url) for _ in range(3)]
        try:
            await asyncio.gather(*(n.open() for n in nodes))
        finally:
            await asyncio.gather(*(n.close() for n in nodes), return_exceptions=True)
