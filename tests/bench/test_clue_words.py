"""The load generator's clue words are never refused as reused: none repeats within a game."""

from __future__ import annotations

import asyncio

from codebreakers.bench.decrypto_table import DecryptoTable, made_up_word
from codebreakers.bench.sockets import Shared
from codebreakers.bench.stats import Stats


class _Draws:
    """A random source whose draws are given: collisions on purpose."""

    def __init__(self, values: list[int]) -> None:
        self.values = values

    def randrange(self, _stop: int) -> int:
        return self.values.pop(0)


def _table() -> DecryptoTable:
    async def make() -> DecryptoTable:
        return DecryptoTable(Shared([], Stats()), 0, 6)

    return asyncio.run(make())


def test_a_word_drawn_again_in_the_same_game_is_drawn_anew() -> None:
    table = _table()
    table.game[0] = "g1"
    table.rng = _Draws([7, 7, 8, 7, 9, 8, 10, 11])  # type: ignore[assignment]
    first = table._fresh_clues(3)
    assert first == [made_up_word(7), made_up_word(8), made_up_word(9)]
    second = table._fresh_clues(2)  # 8 was given in this game already
    assert second == [made_up_word(10), made_up_word(11)]


def test_a_new_game_may_use_any_word_again() -> None:
    table = _table()
    table.game[0] = "g1"
    table.rng = _Draws([1, 2, 3, 1, 2, 3])  # type: ignore[assignment]
    assert table._fresh_clues(3) == [made_up_word(n) for n in (1, 2, 3)]
    table.game[0] = "g2"  # a rematch
    assert table._fresh_clues(3) == [made_up_word(n) for n in (1, 2, 3)]


def test_words_of_different_numbers_differ() -> None:
    # the syllables start with different letters, so no two numbers spell the same word
    assert len({made_up_word(n) for n in range(20_000)}) == 20_000
