"""Every seat uses the association lexicon: the encryptor gives associations, the readers
read them, and a host's custom word falls back to the vocabulary."""

from __future__ import annotations

import numpy as np
import pytest

from codebreakers.bots.closeness import keyword_table
from codebreakers.bots.decoder import decode
from codebreakers.bots.decrypto_bot import guess_language
from codebreakers.bots.dictionary import is_vocabulary_word
from codebreakers.bots.encryptor import choose_transmission
from codebreakers.bots.interceptor import intercept
from codebreakers.bots.levels import LEVELS
from codebreakers.bots.lexicon import Lexicon
from codebreakers.bots.tiebreak import guess_keywords, near_miss
from codebreakers.games.decrypto.words import load_pool
from codebreakers.games.decrypto.words.folding import fold


def _covered(lex: Lexicon, count: int, seed: int) -> list[str]:
    words = [w for w in load_pool(lex.vocab.lang) if lex.assoc.of(w)]
    if len(words) < count:
        pytest.skip(f"the {lex.vocab.lang} lexicon covers {len(words)} pool words so far")
    rng = np.random.default_rng(seed)
    return [words[i] for i in rng.choice(len(words), size=count, replace=False)]


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "ko"])
@pytest.mark.parametrize("level", ["easy", "hard"])
def test_clues_for_pool_keywords_come_from_the_lexicon(
    lexicons: dict[str, Lexicon], lang: str, level: str
) -> None:
    lex = lexicons[lang]
    for seed in range(3):
        keywords = _covered(lex, 4, seed)
        rng = np.random.default_rng(seed)
        chosen = choose_transmission(lex, keywords, [3, 1, 4], {}, [], LEVELS[level], rng, False)
        for candidate, digit in zip(chosen, [3, 1, 4], strict=True):
            texts = {fold(a.text) for a in lex.assoc.of(keywords[digit - 1])}
            assert candidate.association is not None, (keywords, candidate.text)
            assert fold(candidate.text) in texts
        assert decode(lex, keywords, [c.text for c in chosen]).code == [3, 1, 4]


def test_a_custom_word_falls_back_to_the_vocabulary(lexicons: dict[str, Lexicon]) -> None:
    lex = lexicons["en"]
    keywords = [*_covered(lex, 3, 0), "espresso"]
    assert not lex.assoc.of("espresso")
    rng = np.random.default_rng(0)
    chosen = choose_transmission(lex, keywords, [4, 1, 2], {}, [], LEVELS["hard"], rng, False)
    assert chosen[0].association is None
    assert lex.vocab.row_of(chosen[0].text) is not None
    assert is_vocabulary_word("en", chosen[0].text)  # the filtered vocabulary
    assert all(c.association is not None for c in chosen[1:])
    assert decode(lex, keywords, [c.text for c in chosen]).code == [4, 1, 2]


def test_a_custom_list_of_pool_words_uses_their_associations(
    lexicons: dict[str, Lexicon],
) -> None:
    lex = lexicons["en"]
    keywords = [w.upper() for w in _covered(lex, 4, 1)]  # looked up by fold
    rng = np.random.default_rng(2)
    chosen = choose_transmission(lex, keywords, [2, 3, 1], {}, [], LEVELS["normal"], rng, False)
    assert all(c.association is not None for c in chosen)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_decoder_reads_associations_forms_and_phrases(
    lexicons: dict[str, Lexicon], lang: str
) -> None:
    """A weak (grade 1) association, and a phrase holding an association, read right."""
    lex = lexicons[lang]
    keywords = _covered(lex, 4, 5)
    weakest = [lex.assoc.of(k)[-1].text for k in keywords]
    assert decode(lex, keywords, [weakest[1], weakest[3], weakest[0]]).code == [2, 4, 1]
    phrase = f"{lex.assoc.of(keywords[2])[0].text} {lex.assoc.of(keywords[1])[0].text}"
    table = keyword_table(lex, keywords, [phrase], lex.embed([phrase]))
    assert table[0, 2] > table[0, 0] and table[0, 2] > table[0, 3]


def test_the_hard_interceptor_and_tiebreak_know_the_associations(
    lexicons: dict[str, Lexicon],
) -> None:
    """Two revealed grade-3 clues per number are enough to name the enemy's keywords."""
    lex = lexicons["en"]
    enemy = _covered(lex, 4, 7)
    strong = [[a.text for a in lex.assoc.of(k) if a.grade == 3] for k in enemy]
    history = {n: strong[n - 1][:2] for n in range(1, 5)}
    assert guess_keywords(lex, history, [], True) == enemy
    clues = [strong[2][2], strong[0][2], strong[1][2]]
    assert intercept(lex, history, clues, True).code == [3, 1, 2]


def test_review_accepts_a_mutual_strongest_association(lexicons: dict[str, Lexicon]) -> None:
    """Two pool words each the other's grade-3 association are near synonyms to people."""
    lex = lexicons["en"]
    pool = {fold(w): w for w in load_pool("en")}
    pairs = [
        (pool[fold(a.text)], keyword)
        for keyword in pool.values()
        for a in lex.assoc.of(keyword)
        if a.grade == 3
        and fold(a.text) in pool
        and lex.assoc.match_grade(keyword, pool[fold(a.text)]) == 3
    ]
    if not pairs:
        pytest.skip("no two English pool words are each the other's grade-3 association yet")
    guess, keyword = pairs[0]
    assert near_miss(lex, guess, keyword)
    one_way = next(
        a.text for a in lex.assoc.of(keyword) if lex.assoc.match_grade(keyword, a.text) == 0
    )
    vectors = lex.embed([one_way, keyword])
    if float(vectors[0] @ vectors[1]) < 0.8:
        assert not near_miss(lex, one_way, keyword)


def test_a_custom_list_language_is_read_off_its_words(lexicons: dict[str, Lexicon]) -> None:
    """Pool words count even where the filtered vocabulary lacks them (바다 is no vocabulary
    word: Kiwi's best reading of it alone is a name)."""
    assert guess_language(["바다", "파도", "용", "겨울", "espresso"]) == "ko"
    assert guess_language(["замок", "ключ", "лук", "банка"]) == "ru"
    assert guess_language(["glace", "avocat", "pile", "carte", "océan"]) == "fr"


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "ko"])
def test_the_fallback_vocabulary_holds_dictionary_words(
    lexicons: dict[str, Lexicon], lang: str
) -> None:
    """scripts/build_bot_vocab.py kept only dictionary-form common words (a sample)."""
    words = lexicons[lang].vocab.words
    sample = [words[i] for i in np.random.default_rng(0).choice(len(words), 60, replace=False)]
    assert [w for w in sample if not is_vocabulary_word(lang, w)] == []
