"""Bot clues obey every clue rule, over many generated transmissions in each language."""

from __future__ import annotations

import numpy as np
import pytest

from codebreakers.bots.decoder import decode
from codebreakers.bots.encryptor import choose_clues
from codebreakers.bots.levels import LEVELS
from codebreakers.bots.lexicon import Lexicon
from codebreakers.bots.rules import bot_may_give, looks_like_translation, used_keys
from codebreakers.bots.vocab import LANGUAGES
from codebreakers.bots.wordforms import looks_alike, same_root
from codebreakers.games.decrypto.clues import check_clues, clue_warnings
from codebreakers.games.decrypto.codes import ALL_CODES
from codebreakers.games.decrypto.words import load_pool

GAMES = 2
ROUNDS = 8


def _play_transmissions(lex: Lexicon, lang: str, level: str, seed: int):  # type: ignore[no-untyped-def]
    """Yield (keywords, code, clues, used before) for every transmission of a few fake games."""
    rng = np.random.default_rng(seed)
    pool = load_pool(lang)
    for _ in range(GAMES):
        words = [pool[i] for i in rng.choice(len(pool), size=8, replace=False)]
        teams = [words[:4], words[4:]]
        histories: list[dict[int, list[str]]] = [{n: [] for n in range(1, 5)} for _ in teams]
        used: list[str] = []
        for rnd in range(1, ROUNDS + 1):
            for team, keywords in enumerate(teams):
                code = ALL_CODES[int(rng.integers(24))]
                clues = choose_clues(
                    lex, keywords, code, histories[team], used, LEVELS[level], rng, rnd > 1
                )
                yield keywords, code, clues, list(used)
                used += clues
                for clue, digit in zip(clues, code, strict=True):
                    histories[team][digit].append(clue)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("level", ["hard", "easy"])
def test_generated_clues_obey_the_rules(
    lexicons: dict[str, Lexicon], lang: str, level: str
) -> None:
    lex = lexicons[lang]
    count = 0
    for keywords, code, clues, used in _play_transmissions(lex, lang, level, seed=len(lang)):
        count += 1
        before = used_keys(used)
        assert len(clues) == 3 and len(set(clues)) == 3
        assert check_clues(clues, tuple(keywords), before) is None, (keywords, clues)
        for clue in clues:
            assert clue_warnings(clue, tuple(keywords), before, looks_like_translation) == [], (
                keywords,
                clue,
            )
            assert not any(same_root(clue, k) for k in keywords), (keywords, clue)
            assert not any(looks_alike(clue, k) for k in keywords), (keywords, clue)
            assert not lex.assoc.doubtful(clue), clue
            assert not any(same_root(clue, u) for u in used), (used, clue)
        if level == "hard":
            assert decode(lex, keywords, clues).code == list(code), (keywords, code, clues)
    assert count == GAMES * ROUNDS * 2


def test_translation_check_flags_translations(lexicons: dict[str, Lexicon]) -> None:
    assert looks_like_translation("hiver", ["winter", "piano"])
    assert looks_like_translation("океан", ["ocean"])
    assert not looks_like_translation("snow", ["winter", "piano"])
    assert not looks_like_translation("", ["winter"])


def test_no_word_of_a_phrase_is_a_form_of_a_keyword() -> None:
    # Seen in `bot audit --lang ko --samples 200 --seed 5`: "잔잔한 물" (호수) beside 그물.
    keywords = ["그물", "늪", "호수", "잉크"]
    assert not bot_may_give("잔잔한 물", keywords, frozenset())
    assert bot_may_give("잔잔하다", keywords, frozenset())
    assert not bot_may_give("big fire", ["campfire", "sea", "moon", "piano"], frozenset())
