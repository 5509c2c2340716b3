"""Results and ratings at a game's end, on SQLite and PostgreSQL: recorded once, rated only when
it should be, read back for profiles and the leaderboard."""

from __future__ import annotations

import asyncio

import pytest

from codebreakers import skill
from codebreakers.games.results import GameResults, Result, SeatResult
from codebreakers.store.base import GamePlayer, ProfileRow, RoomRow, Store
from codebreakers.store.ratings.base import HISTORY, LAST_GAMES
from codebreakers.store.ratings.open import ratings_of
from codebreakers.store.ratings.schema import BOARD_MIN_GAMES

pytestmark = pytest.mark.anyio


async def add_profiles(store: Store, *ids: str, hidden: tuple[str, ...] = ()) -> None:
    for i in ids:
        await store.create_profile(ProfileRow(i, i.upper(), "en", 1.0), f"hash-{i}")
        if i in hidden:
            await store.update_profile(i, name=i.upper(), language="en", hidden=True)


async def add_game(store: Store, game_id: str, seats: dict[str, str | None]) -> None:
    """A Decrypto game between white w* and black b* seats; `seats`: seat -> profile (None: a
    bot)."""
    if await store.load_room("ROOM") is None:
        await store.create_room(RoomRow("ROOM", "decrypto", {}, 1, True, False, 1.0, 1.0))
    players = [
        GamePlayer(
            f"p-{seat}",
            seat,
            "white" if seat.startswith("w") else "black",
            profile is not None,
            seat,
            profile,
        )
        for seat, profile in seats.items()
    ]
    await store.create_game(game_id, "ROOM", "decrypto", {}, 1.0, players)


def results(seats: list[str], winner: str | None) -> GameResults:
    def result(side: str) -> Result:
        return Result.DRAW if winner is None else Result.WIN if side == winner else Result.LOSS

    return GameResults(
        "teams",
        {
            s: SeatResult(side, result(side), {"encrypted": 1})
            for s in seats
            for side in ["white" if s.startswith("w") else "black"]
        },
    )


async def test_a_rated_game_is_settled_once_and_bots_are_not_rated(
    store: Store,
) -> None:
    await add_profiles(store, "ann", "bea", "cid")
    await add_game(store, "g1", {"w1": "ann", "w2": "bea", "b1": "cid", "b2": None})
    ratings = ratings_of(store)
    done = results(["w1", "w2", "b1", "b2"], "white")
    assert await ratings.finish_game("g1", {"winner": "white"}, done, True, 50.0)
    again = await ratings.finish_game("g1", {"winner": "white"}, done, True, 60.0)
    assert again is False  # a second finish (a restart, another node) changes nothing
    game = await store.load_game("g1")
    assert game is not None and game.over and game.outcome == {"winner": "white"}
    ann = await ratings.profile_record("ann")
    cid = await ratings.profile_record("cid")
    assert ann is not None and cid is not None
    assert [(r.game_id, r.seat, r.result, r.rated) for r in ann.results] == [
        ("g1", "w1", "win", True)
    ]
    assert ann.results[0].figures == {"encrypted": 1} and ann.results[0].finished_at == 50.0
    assert [(r.game, r.games) for r in ann.ratings] == [("decrypto", 1)]
    # The model's update, once: two newcomers beat one (the bot is not rated).
    expected = skill.rate([[skill.Skill(), skill.Skill()], [skill.Skill()]], [0, 1])
    assert ann.ratings[0].mu == pytest.approx(expected[0][0].mu)
    assert cid.ratings[0].mu == pytest.approx(expected[1][0].mu)
    assert cid.ratings[0].rating == cid.results[0].rating == expected[1][0].shown
    assert cid.results[0].result == "loss"
    assert await ratings.ratings_of(["ann", "cid", "nobody"], "decrypto") == {
        "ann": expected[0][0].shown,
        "cid": expected[1][0].shown,
    }


async def test_unrated_games_record_results_but_leave_ratings(store: Store) -> None:
    await add_profiles(store, "ann", "bea")
    ratings = ratings_of(store)
    # The room didn't ask for a rated game.
    await add_game(store, "g1", {"w1": "ann", "b1": "bea"})
    assert await ratings.finish_game("g1", {}, results(["w1", "b1"], None), False, 5.0)
    # Humans on one side only: bots on the other.
    await add_game(store, "g2", {"w1": "ann", "w2": "bea", "b1": None})
    assert await ratings.finish_game("g2", {}, results(["w1", "w2", "b1"], "black"), True, 6.0)
    # One profile on both sides.
    await add_game(store, "g3", {"w1": "ann", "b1": "ann"})
    assert await ratings.finish_game("g3", {}, results(["w1", "b1"], "white"), True, 7.0)
    ann = await ratings.profile_record("ann")
    assert ann is not None and ann.ratings == []
    assert [(r.game_id, r.seat, r.result, r.rated) for r in ann.results] == [
        ("g3", "b1", "loss", False),
        ("g3", "w1", "win", False),
        ("g2", "w1", "loss", False),
        ("g1", "w1", "draw", False),
    ]
    assert await ratings.profile_record("nobody") is None


async def test_racing_finishes_settle_once(store: Store) -> None:
    await add_profiles(store, "ann", "bea")
    await add_game(store, "g1", {"w1": "ann", "b1": "bea"})
    ratings = ratings_of(store)
    done = results(["w1", "b1"], "black")
    settled = await asyncio.gather(
        *(ratings.finish_game("g1", {}, done, True, 9.0) for _ in range(5))
    )
    assert sorted(settled) == [False, False, False, False, True]
    bea = await ratings.profile_record("bea")
    assert bea is not None and [r.games for r in bea.ratings] == [1] and len(bea.results) == 1


async def test_the_leaderboard_lists_players_with_enough_games(
    store: Store,
) -> None:
    await add_profiles(store, "ann", "bea", "cid", "dan", hidden=("dan",))
    ratings = ratings_of(store)
    for n in range(BOARD_MIN_GAMES):
        await add_game(store, f"g{n}", {"w1": "ann", "b1": "bea"})
        await ratings.finish_game(f"g{n}", {}, results(["w1", "b1"], "white"), True, 10.0 + n)
    for n in range(BOARD_MIN_GAMES):  # dan is hidden
        await add_game(store, f"h{n}", {"w1": "dan", "b1": "cid"})
        await ratings.finish_game(f"h{n}", {}, results(["w1", "b1"], "white"), True, 20.0 + n)
    await add_game(store, "x", {"w1": "ann", "b1": "cid"})
    await ratings.finish_game("x", {}, results(["w1", "b1"], "black"), True, 30.0)
    board = await ratings.leaderboard("decrypto", 0, 10)
    assert [(r.profile_id, r.name, r.games) for r in board] == [
        ("ann", "ANN", BOARD_MIN_GAMES + 1),
        ("cid", "CID", BOARD_MIN_GAMES + 1),
        ("bea", "BEA", BOARD_MIN_GAMES),
    ]
    assert board[0].rating > board[1].rating > board[2].rating
    assert [r.profile_id for r in await ratings.leaderboard("decrypto", 1, 1)] == ["cid"]
    assert await ratings.leaderboard("mastermind", 0, 10) == []


async def test_hiding_a_profile_on_the_board_takes_it_off_and_showing_it_puts_it_back(
    store: Store,
) -> None:
    """The board's index reads the ratings' copy of `hidden`: a change of the profile reaches
    it in the same write, in every game the profile is rated in."""
    await add_profiles(store, "ann", "bea")
    ratings = ratings_of(store)
    for n in range(BOARD_MIN_GAMES):
        await add_game(store, f"g{n}", {"w1": "ann", "b1": "bea"})
        await ratings.finish_game(f"g{n}", {}, results(["w1", "b1"], "white"), True, 10.0 + n)
    assert [r.profile_id for r in await ratings.leaderboard("decrypto", 0, 10)] == ["ann", "bea"]
    await store.update_profile("ann", name="ANN", language="en", hidden=True)
    assert [r.profile_id for r in await ratings.leaderboard("decrypto", 0, 10)] == ["bea"]
    await store.update_profile("ann", name="ANN", language="en", hidden=False)
    assert [r.profile_id for r in await ratings.leaderboard("decrypto", 0, 10)] == ["ann", "bea"]


async def test_a_profile_reads_its_totals_and_only_its_last_games(store: Store) -> None:
    """Totals are kept as games end (per game and variant, the figures added key by key, a
    profile with two seats counted for both), so a profile reads them, its last LAST_GAMES
    games and the last HISTORY rated ones of each game, however many it played."""
    await add_profiles(store, "ann", "bea")
    ratings = ratings_of(store)
    played = LAST_GAMES + 5
    for n in range(played):
        rated = n % 2 == 0
        await add_game(store, f"g{n}", {"w1": "ann", "b1": "bea"})
        done = results(["w1", "b1"], "white" if n % 3 else None)
        await ratings.finish_game(f"g{n}", {}, done, rated, 10.0 + n)
    await add_game(store, "twice", {"w1": "ann", "w2": "ann", "b1": "bea"})
    twice = GameResults("teams", {
        "w1": SeatResult("white", Result.WIN, {"encrypted": 2, "decoded": 1}),
        "w2": SeatResult("white", Result.WIN, {"decoded": 3}),
        "b1": SeatResult("black", Result.LOSS, {"encrypted": 1}),
    })  # fmt: skip
    await ratings.finish_game("twice", {}, twice, False, 100.0)
    ann = await ratings.profile_record("ann")
    assert ann is not None
    (totals,) = ann.stats
    draws = len([n for n in range(played) if n % 3 == 0])
    assert (totals.game, totals.variant, totals.games) == ("decrypto", "teams", played + 2)
    assert (totals.wins, totals.draws, totals.losses) == (played - draws + 2, draws, 0)
    assert totals.figures == {"encrypted": played + 2, "decoded": 4}
    assert [r.game_id for r in ann.results] == ["twice", "twice"] + [
        f"g{n}" for n in range(played - 1, played - LAST_GAMES + 1, -1)
    ]
    assert len(ann.results) == LAST_GAMES
    assert [r.game_id for r in ann.history] == [f"g{n}" for n in range(played - 1, -1, -1)
                                                if n % 2 == 0][:HISTORY]  # fmt: skip
    assert all(r.rated and r.rating is not None for r in ann.history)
