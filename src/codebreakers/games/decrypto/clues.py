"""Clue rules: what the server refuses (reuse, an own keyword as a word), and what it warns about.

Comparisons go through `fold` (case, accents, spaces) from the word pools, so "Éclair" and
"eclair " are one clue. "As a word" also covers simple inflections ("cats" for "cat", "кошки" for
"кошка", "사과를" for "사과"): a refusal must be clear and predictable, so inflections are a
short suffix list per script rather than a stemmer, and a stem must keep three letters (one
Hangul syllable) before a suffix is stripped.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from codebreakers.games.base import Rejection
from codebreakers.games.decrypto import rejections as R
from codebreakers.games.decrypto.words.folding import fold

# Whether a clue looks like a translation of one of the keywords (a hook: the engine ships no
# dictionary; the server may plug in one, for example the bots' multilingual embeddings).
TranslationCheck = Callable[[str, Sequence[str]], bool]

_TOKEN = re.compile(r"[^\W_]+")
_ASCII_TOKEN = re.compile(r"[a-z0-9]+")
# Noun inflections only: "fishing" is not "fish" as a word (that is the keyword_inside warning).
_LATIN_ENDINGS = (("ies", "y"), ("aux", "al"), ("s", ""), ("x", ""))
_ES_AFTER = ("s", "x", "z", "ch", "sh")
_CYRILLIC_ENDINGS = tuple(
    sorted(
        (
            *("а", "я", "ы", "и", "у", "ю", "е", "о", "ь", "ов", "ев", "ей", "ой", "ом", "ем"),
            *("ам", "ям", "ах", "ях", "ами", "ями", "ью"),
        ),
        key=len,
        reverse=True,
    )
)
_KOREAN_PARTICLES = frozenset(
    (
        *("은", "는", "이", "가", "을", "를", "의", "에", "도", "로", "으로", "와", "과"),
        *("들", "만", "에서", "에게", "들이", "들을", "들의"),
    )
)
_MIN_STEM = 3

NUMBER_WORDS = frozenset(
    fold(word)
    for word in (
        *("one", "two", "three", "four", "first", "second", "third", "fourth", "once", "twice"),
        *("un", "une", "deux", "trois", "quatre", "premier", "première", "deuxième"),
        *("troisième", "quatrième", "seconde"),
        *("один", "одна", "одно", "два", "две", "три", "четыре", "первый", "первая"),
        *("второй", "вторая", "третий", "третья", "четвёртый", "четвёртая"),
        *("하나", "둘", "셋", "넷", "일", "삼", "사", "첫째", "둘째", "셋째", "넷째", "첫번째"),
        *("두번째", "세번째", "네번째"),
    )
)

SPELLING_WORDS = frozenset(
    fold(word)
    for word in (
        *("letter", "letters", "spelled", "spelling", "starts", "begins", "ends", "initial"),
        *("initials", "vowel", "vowels", "consonant", "consonants", "syllable", "syllables"),
        *("anagram", "backwards", "characters", "reversed"),
        *("lettre", "lettres", "commence", "finit", "initiale", "voyelle", "consonne"),
        *("syllabe", "syllabes", "anagramme", "envers", "caractères"),
        *("буква", "буквы", "букв", "слог", "слога", "начинается", "заканчивается"),
        *("анаграмма", "наоборот", "гласная", "согласная"),
        *("글자", "음절", "받침", "초성", "철자", "첫글자", "끝글자"),
    )
)

SOUND_WORDS = frozenset(
    fold(word)
    for word in (
        *("rhymes", "rhyme", "sounds", "homophone", "pronounced"),
        *("rime", "rimes", "sonne", "homophone", "prononcé"),
        *("рифма", "рифмуется", "звучит", "созвучно", "омоним"),
        *("발음", "소리", "운율", "동음이의어"),
    )
)

# Warnings that never block a transmission (the blocking checks reuse the rejection codes).
DIGIT = "digit"
SINGLE_LETTER = "single_letter"
NUMBER_WORD = "number_word"
SPELLING_HINT = "spelling_hint"
SOUND_HINT = "sound_hint"
KEYWORD_INSIDE = "keyword_inside"
TRANSLATION = "translation"
WARNING_CODES = frozenset(
    (DIGIT, SINGLE_LETTER, NUMBER_WORD, SPELLING_HINT, SOUND_HINT, KEYWORD_INSIDE, TRANSLATION)
)


def _is_hangul(text: str) -> bool:
    return any("\uac00" <= char <= "\ud7a3" for char in text)


@lru_cache(maxsize=65536)
def fold_text(text: str) -> str:
    """`fold`, with a shortcut for plain ASCII (most clues) and a cache (keywords recur)."""
    if text.isascii():
        return "".join(text.lower().split())
    return fold(text)


@lru_cache(maxsize=65536)
def forms(word: str) -> frozenset[str]:
    """A folded word and what it may be an inflection of (its candidate base forms)."""
    found = {word}
    for ending, base in _LATIN_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= _MIN_STEM:
            found.add(word[: -len(ending)] + base)
    if word.endswith("es") and word[:-2].endswith(_ES_AFTER) and len(word) - 2 >= _MIN_STEM:
        found.add(word[:-2])
    for ending in _CYRILLIC_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= _MIN_STEM:
            found.add(word[: -len(ending)])
    return frozenset(found)


def same_word(clue_word: str, keyword_word: str) -> bool:
    """Whether a folded clue word is the folded keyword word or one of its inflections."""
    if clue_word == keyword_word:
        return True
    if _is_hangul(keyword_word):
        rest = clue_word[len(keyword_word) :]
        return clue_word.startswith(keyword_word) and rest in _KOREAN_PARTICLES
    return not forms(clue_word).isdisjoint(forms(keyword_word))


@lru_cache(maxsize=65536)
def words(text: str) -> tuple[str, ...]:
    """The folded words of a text, in order (punctuation and spaces separate words)."""
    if text.isascii():  # most clues: lower case is the whole folding
        return tuple(_ASCII_TOKEN.findall(text.lower()))
    return tuple(fold_text(token) for token in _TOKEN.findall(unicodedata.normalize("NFC", text)))


def clue_key(clue: str) -> str:
    """What two clues must differ in to both be given in one game."""
    return fold_text(clue)


@lru_cache(maxsize=8192)
def _keyword_words(keyword: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """A keyword's folded words, and the first three letters of each of them (and of the glued
    form "icecream" of "ice cream"): an inflection keeps at least three letters of its stem, so
    a clue word that starts otherwise can only match a shorter word by being equal to it."""
    found = words(keyword)
    glued = (*found, fold_text(keyword))
    return found, frozenset(word[:_MIN_STEM] for word in glued)


@lru_cache(maxsize=1024)
def _team_starts(keywords: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]] | None:
    """Every start of every keyword of a team, and the folded keywords (None with a Korean
    keyword, whose particles are not endings)."""
    if any(_is_hangul(keyword) for keyword in keywords):
        return None
    starts = frozenset().union(*(_keyword_words(keyword)[1] for keyword in keywords))
    return starts, frozenset(fold_text(keyword) for keyword in keywords)


def contains_keyword(clue: str, keyword: str) -> bool:
    """Whether the clue is the keyword, or contains it as a word (inflections included)."""
    if fold_text(clue) == fold_text(keyword):
        return True
    key_words, starts = _keyword_words(keyword)
    clue_words = words(clue)
    if not _is_hangul(keyword) and all(word[:_MIN_STEM] not in starts for word in clue_words):
        return False
    width = len(key_words)
    if width and any(
        all(same_word(c, k) for c, k in zip(clue_words[i : i + width], key_words, strict=True))
        for i in range(len(clue_words) - width + 1)
    ):
        return True
    glued = fold_text(keyword)  # "icecream" for "ice cream"
    return width > 1 and any(same_word(word, glued) for word in clue_words)


def contains_own_keyword(clue: str, keywords: tuple[str, ...]) -> bool:
    """`contains_keyword` for any of a team's keywords, with one quick test for most clues."""
    quick = _team_starts(keywords)
    if quick is not None:
        starts, folded = quick
        for word in words(clue):
            if word[:_MIN_STEM] in starts:
                break
        else:
            if fold_text(clue) not in folded:
                return False
    return any(contains_keyword(clue, keyword) for keyword in keywords)


def check_clues(
    clues: Sequence[str], keywords: tuple[str, ...], used: Iterable[str]
) -> Rejection | None:
    """Why a transmission is refused (reuse, an own keyword), or None; blank clues are skipped."""
    seen = set(used)
    for index, clue in enumerate(clues, start=1):
        if not clue:
            continue
        key = clue_key(clue)
        if key in seen:
            return R.reject(R.CLUE_REUSED, f"clue {index}")
        seen.add(key)
        if contains_own_keyword(clue, keywords):
            return R.reject(R.CLUE_IS_KEYWORD, f"clue {index}")
    return None


def clue_warnings(
    clue: str,
    keywords: tuple[str, ...],
    used: frozenset[str],
    translation_check: TranslationCheck | None = None,
) -> list[str]:
    """Every warning for one drafted clue: the blocking codes first, then the advisory ones."""
    if not clue:
        return []
    found: list[str] = []
    if clue_key(clue) in used:
        found.append(R.CLUE_REUSED)
    if contains_own_keyword(clue, keywords):
        found.append(R.CLUE_IS_KEYWORD)
    elif any(len(fold_text(k)) >= 3 and fold_text(k) in fold_text(clue) for k in keywords):
        found.append(KEYWORD_INSIDE)
    tokens = words(clue)
    if any(char.isdigit() for char in clue):
        found.append(DIGIT)
    if any(len(token) == 1 and token.isalpha() and not _is_hangul(token) for token in tokens):
        found.append(SINGLE_LETTER)
    if any(token in NUMBER_WORDS for token in tokens):
        found.append(NUMBER_WORD)
    if any(token in SPELLING_WORDS for token in tokens):
        found.append(SPELLING_HINT)
    if any(token in SOUND_WORDS for token in tokens):
        found.append(SOUND_HINT)
    if translation_check is not None and translation_check(clue, keywords):
        found.append(TRANSLATION)
    return found
