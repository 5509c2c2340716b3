"""The references lists (data/references/<lang>.txt): names, titles and places people give as
clues, which the readers know and the encryptor never gives.

The validator here is the lexicon's, less what a name breaks on purpose (a dictionary word, no
capitals): every keyword a pool word, every reference in the language's script, short, no form
of its keyword, not already one of the keyword's associations."""

from __future__ import annotations

import numpy as np
import pytest
import regex

from codebreakers.bots.associations import (
    LANGUAGES,
    Entry,
    read_entries,
    read_references,
    references_path,
    tokens,
)
from codebreakers.bots.decoder import decode
from codebreakers.bots.encryptor import choose_transmission
from codebreakers.bots.levels import LEVELS
from codebreakers.bots.lexicon import Lexicon
from codebreakers.bots.wordforms import same_root
from codebreakers.games.decrypto.words import load_pool
from codebreakers.games.decrypto.words.folding import fold

_SCRIPT = {
    "en": regex.compile(r"^[\p{Latin}\d]+(?:[ '.\-][\p{Latin}\d]+)*$"),
    "fr": regex.compile(r"^[\p{Latin}\d]+(?:[ '’.\-][\p{Latin}\d]+)*$"),
    "ru": regex.compile(r"^[\p{Cyrillic}\d]+(?:[ '’\-][\p{Cyrillic}\d]+)*$"),
    "ko": regex.compile(r"^[\p{Hangul}\d]+(?: [\p{Hangul}\d]+)*$"),
}
MIN_KEYWORDS = 60  # keywords with references, per language


def _references(lang: str) -> list[Entry]:
    assert references_path(lang).exists(), f"no references for {lang}"
    return read_references(lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_references_are_valid(lang: str) -> None:
    entries = _references(lang)
    pool = {fold(w) for w in load_pool(lang)}
    associations = {
        fold(e.keyword): {fold(a.text) for a in e.associations} for e in read_entries(lang)
    }
    problems = []
    seen: set[str] = set()
    for e in entries:
        key = fold(e.keyword)
        where = f"line {e.line}: {e.keyword}"
        if key not in pool:
            problems.append(f"{where}: not a word of the {lang} pool")
        if key in seen:
            problems.append(f"{where}: a second line")
        seen.add(key)
        texts = [fold(a.text) for a in e.associations]
        if len(set(texts)) != len(texts):
            problems.append(f"{where}: duplicates")
        for a in e.associations:
            if a.grade not in (3, 2):
                problems.append(f"{where}: {a.text!r} grade {a.grade} (references are 3 or 2)")
            if not _SCRIPT[lang].match(a.text) or len(a.text.split()) > 4:
                problems.append(f"{where}: {a.text!r} not up to 4 words of the {lang} script")
            words = [a.text, *tokens(a.text)]
            if any(same_root(w, e.keyword) for w in words):
                problems.append(f"{where}: {a.text!r} is a form of the keyword")
            if fold(a.text) in associations.get(key, set()):
                problems.append(f"{where}: {a.text!r} is already an association")
    assert len(seen) >= MIN_KEYWORDS, f"{len(seen)} keywords with references"
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems[:200])


def _tables(lex: Lexicon, count: int) -> list[list[str]]:
    """`count` tables of four pool keywords that have references, drawn at random."""
    words = [e.keyword for e in _references(lex.vocab.lang)]
    rng = np.random.default_rng(17)
    return [[words[i] for i in rng.choice(len(words), 4, replace=False)] for _ in range(count)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_encryptor_never_gives_a_reference(lexicons: dict[str, Lexicon], lang: str) -> None:
    lex = lexicons[lang]
    given = {fold(a.text) for e in read_entries(lang) for a in e.associations}
    refs = {fold(a.text) for e in _references(lang) for a in e.associations} - given
    for i, keywords in enumerate(_tables(lex, 4)):
        rng = np.random.default_rng(i)
        code = [1, 2, 3] if i % 2 else [4, 3, 2]
        chosen = choose_transmission(lex, keywords, code, {}, [], LEVELS["hard"], rng, False)
        assert not {fold(c.text) for c in chosen} & refs, (keywords, [c.text for c in chosen])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_reference_as_a_clue_is_read(lexicons: dict[str, Lexicon], lang: str) -> None:
    """Three of a table's keywords clued by a strongest reference of each: read right."""
    lex = lexicons[lang]
    strongest = {
        e.keyword: max(e.associations, key=lambda a: a.grade).text for e in _references(lang)
    }
    tables = _tables(lex, 20)
    right = 0
    for i, keywords in enumerate(tables):
        code = [(i + k) % 4 + 1 for k in (0, 1, 2)]
        clues = [strongest[keywords[d - 1]] for d in code]
        right += decode(lex, keywords, clues).code == code
    assert right >= 0.9 * len(tables), f"{right} of {len(tables)}"
