"""Clue rules: what the server refuses (reuse, an own keyword as a word), and what it warns about.

Two questions, two comparisons (words/folding.py has the keys):

- "Was this clue given already?" compares `match_key`s: case, accents, spaces, hyphens and
  invisible characters folded, so "Éclair", "eclair " and "e\u00adclair" are one clue.
- "Is this clue, or does it contain as a word, an own keyword?" compares `spelling`s: case,
  compatibility forms (NFKC), invisible characters and ё/е folded, accents kept ("mais" is not
  "maïs"). A clue word is the keyword word, a plural or case form made from it (a short suffix
  list per script, so that a refusal is clear and predictable: "cats" for "cat", "кошки" for
  "кошка", "사과를" for "사과"), or the keyword's words glued ("arcenciel", "icecream").
  Inflections go one way, from the keyword: "princes" is not a form of "princess". A clue word
  that is a word of a keyword pool is a word of its own, never a form of another ("банка" for
  "банк", "glasses" for "glass"). A Korean particle counts only after a keyword of two syllables
  or more (종이 "paper" is not 종 "bell" + 이).

What is close but not that (an accent apart, a shared stem, a one-syllable Korean keyword with
what may be a particle) is the `near_form` warning: a different word of the language is allowed
(RULES.md), and the table judges what was meant.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum, unique
from functools import cache, lru_cache

from codebreakers.games.base import Rejection
from codebreakers.games.decrypto.rejections import RejectionCode, reject
from codebreakers.games.decrypto.words import POOL_LANGUAGES, load_pool
from codebreakers.games.decrypto.words.folding import fold, match_key, spelling

# Whether a clue looks like a translation of one of the keywords (a hook: the engine ships no
# dictionary; the server may plug in one, for example the bots' multilingual embeddings).
TranslationCheck = Callable[[str, Sequence[str]], bool]

_TOKEN = re.compile(r"[^\W_]+")
_ASCII_TOKEN = re.compile(r"[a-z0-9]+")
# Noun inflections only: "fishing" is not "fish" as a word (that is the keyword_inside warning).
# Latin script: (the keyword's ending, what replaces it) for the plurals made from a keyword.
_LATIN_PLURALS = (("", "s"), ("", "x"), ("y", "ies"), ("al", "aux"))
_ES_AFTER = ("s", "x", "z", "ch", "sh")
_CYRILLIC_ENDINGS = (
    *("а", "я", "ы", "и", "у", "ю", "е", "о", "ь", "ов", "ев", "ей", "ой", "ом", "ем"),
    *("ам", "ям", "ах", "ях", "ами", "ями", "ью"),
)
# After a soft stem (a keyword in ь or й: медь, конь, музей) only the soft endings make its forms:
# "мёда" is not a form of "медь".
_SOFT_ENDINGS = ("я", "ю", "и", "е", "ем", "ей", "ям", "ями", "ях", "ью")
# A keyword's own ending, dropped before a case ending is added (кошка -> кошк-и).
_CYRILLIC_FINALS = ("а", "я", "о", "е", "ь", "й")
# Keywords whose bare stem is a form (the genitive plural: нога -> ног, слово -> слов).
_BARE_STEM_AFTER = ("а", "о")
_KOREAN_PARTICLES = frozenset(
    (
        *("은", "는", "이", "가", "을", "를", "의", "에", "도", "로", "으로", "와", "과"),
        *("들", "만", "에서", "에게", "들이", "들을", "들의"),
    )
)
_MIN_STEM = 3
_MIN_KOREAN_STEM = 2  # syllables

# Number words by language. A number of any language hints at a position, but not one that
# is an ordinary word of the keywords' own language: "four" is an oven in French.
NUMBER_WORDS: dict[str, frozenset[str]] = {
    lang: frozenset(fold(word) for word in words)
    for lang, words in {
        "en": (
            "one",
            "two",
            "three",
            "four",
            "first",
            "second",
            "third",
            "fourth",
            "once",
            "twice",
        ),
        "fr": (
            *("un", "une", "deux", "trois", "quatre", "premier", "première", "deuxième"),
            *("troisième", "quatrième", "seconde"),
        ),
        "ru": (
            *("один", "одна", "одно", "два", "две", "три", "четыре", "первый", "первая"),
            *("второй", "вторая", "третий", "третья", "четвёртый", "четвёртая"),
        ),
        "ko": (
            *("하나", "둘", "셋", "넷", "일", "삼", "사", "첫째", "둘째", "셋째", "넷째", "첫번째"),
            *("두번째", "세번째", "네번째"),
        ),
    }.items()
}
_ALL_NUMBER_WORDS = frozenset().union(*NUMBER_WORDS.values())


@lru_cache(maxsize=1024)
def _number_words(keywords: tuple[str, ...]) -> frozenset[str]:
    """Every language's number words but the pool words of the keywords' language(s) (the
    pools that hold every keyword) that are no number there."""
    own = [lang for lang in POOL_LANGUAGES if set(keywords) <= set(load_pool(lang))]
    ordinary = {fold(w) for lang in own for w in load_pool(lang)} - {
        word for lang in own for word in NUMBER_WORDS.get(lang, ())
    }
    return _ALL_NUMBER_WORDS - ordinary


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


@unique
class ClueWarning(StrEnum):
    """Warnings that never block a transmission (the blocking checks reuse the rejection codes).
    Stable values: the view carries them and the client translates them."""

    DIGIT = "digit"
    SINGLE_LETTER = "single_letter"
    NUMBER_WORD = "number_word"
    SPELLING_HINT = "spelling_hint"
    SOUND_HINT = "sound_hint"
    KEYWORD_INSIDE = "keyword_inside"
    NEAR_FORM = "near_form"
    TRANSLATION = "translation"


WARNING_CODES: frozenset[str] = frozenset(ClueWarning)
WordTest = Callable[[str, str], bool]


def _is_hangul(text: str) -> bool:
    return any("\uac00" <= char <= "\ud7a3" for char in text)


def _is_cyrillic(text: str) -> bool:
    return any("\u0400" <= char <= "\u04ff" for char in text)


@lru_cache(maxsize=65536)
def fold_text(text: str) -> str:
    """`match_key`, with a shortcut for plain ASCII (most clues) and a cache (keywords recur)."""
    if text.isascii():
        return "".join(text.lower().replace("-", "").split())
    return match_key(text)


@lru_cache(maxsize=65536)
def words(text: str) -> tuple[str, ...]:
    """The words of a text as spelled (`spelling`), in order; anything else separates words."""
    if text.isascii():  # most clues: lower case is the whole spelling
        return tuple(_ASCII_TOKEN.findall(text.lower()))
    return tuple(_TOKEN.findall(spelling(text)))


@cache
def _pool_words() -> frozenset[str]:
    """Every pool word of every language, as spelled: words of their own."""
    return frozenset(spelling(word) for lang in POOL_LANGUAGES for word in load_pool(lang))


@lru_cache(maxsize=8192)
def inflections(word: str) -> frozenset[str]:
    """A keyword word and the plural and case forms made from it (spelled, accents kept)."""
    found = {word}
    if len(word) < _MIN_STEM or _is_hangul(word):
        return frozenset(found)
    if _is_cyrillic(word):
        final = next((f for f in _CYRILLIC_FINALS if word.endswith(f)), "")
        stem = word[: len(word) - len(final)]
        if len(stem) >= _MIN_STEM:
            soft = final in ("ь", "й")
            found.update(stem + ending for ending in (_SOFT_ENDINGS if soft else _CYRILLIC_ENDINGS))
            if final in _BARE_STEM_AFTER:
                found.add(stem)
        return frozenset(found)
    for ending, plural in _LATIN_PLURALS:
        if word.endswith(ending):
            found.add(word[: len(word) - len(ending)] + plural)
    if word.endswith(_ES_AFTER):
        found.add(word + "es")
    return frozenset(found)


def _with_particle(clue_word: str, keyword_word: str) -> bool:
    """Whether a Korean clue word is the keyword word followed by a particle."""
    rest = clue_word[len(keyword_word) :]
    return clue_word.startswith(keyword_word) and rest in _KOREAN_PARTICLES


def same_word(clue_word: str, keyword_word: str) -> bool:
    """Whether a clue word (spelled) is the keyword word or a form made from it: the refusal."""
    if clue_word == keyword_word:
        return True
    if clue_word in _pool_words():
        return False  # a word of its own ("банка" for "банк")
    if _is_hangul(keyword_word):
        return len(keyword_word) >= _MIN_KOREAN_STEM and _with_particle(clue_word, keyword_word)
    return clue_word in inflections(keyword_word)


@lru_cache(maxsize=65536)
def _stems(word: str) -> frozenset[str]:
    """A folded word and what it may be a form of, by stripping endings: loose, both ways."""
    found = {word}
    for ending in ("ies", "aux", "es", "s", "x", *_CYRILLIC_ENDINGS):
        if word.endswith(ending) and len(word) - len(ending) >= _MIN_STEM:
            found.add(word[: -len(ending)])
    return frozenset(found)


@lru_cache(maxsize=65536)
def _folded_words(text: str) -> tuple[str, ...]:
    """`words` with accents folded too: what `near_word` compares."""
    if text.isascii():
        return words(text)
    return tuple(fold(word) for word in words(text))


def near_word(clue_word: str, keyword_word: str) -> bool:
    """Whether two folded words are only an ending or a possible particle apart: a warning."""
    if clue_word == keyword_word:
        return True
    if _is_hangul(keyword_word):
        return _with_particle(clue_word, keyword_word)
    return not _stems(clue_word).isdisjoint(_stems(keyword_word))


def clue_key(clue: str) -> str:
    """What two clues must differ in to both be given in one game."""
    return fold_text(clue)


@lru_cache(maxsize=8192)
def _keyword_words(keyword: str) -> tuple[tuple[str, ...], str]:
    """A keyword's words (spelled), and the start any clue holding it holds: the first three
    letters of its words glued, which every form, window or glued spelling begins with."""
    found = words(keyword)
    return found, "".join(found)[:_MIN_STEM]


def _holds(clue_words: tuple[str, ...], key_words: tuple[str, ...], same: WordTest) -> bool:
    """Whether the clue's words hold the keyword's: word by word (each may be a form), or
    glued ("arcenciel" for "arc-en-ciel"; "ice cream" for "icecream")."""
    width = len(key_words)
    if not width:
        return False
    if any(
        all(same(c, k) for c, k in zip(clue_words[i : i + width], key_words, strict=True))
        for i in range(len(clue_words) - width + 1)
    ):
        return True
    glued = "".join(key_words)
    for i in range(len(clue_words)):
        run = ""
        for j in range(i, len(clue_words)):
            run += clue_words[j]
            if (j > i or width > 1) and same(run, glued):
                return True
            if len(run) > len(glued) + 4:
                break
    return False


def contains_keyword(clue: str, keyword: str) -> bool:
    """Whether the clue is the keyword, or contains it as a word (forms and glued spellings)."""
    key_words, start = _keyword_words(keyword)
    clue_words = words(clue)
    if start not in "".join(clue_words):
        return False
    return _holds(clue_words, key_words, same_word)


def near_keyword(clue: str, keyword: str) -> bool:
    """Whether the clue holds a word close to the keyword (`near_word`: an accent, an ending or
    a possible particle apart). Any such word starts with the keyword's first three letters."""
    key_words, clue_words = _folded_words(keyword), _folded_words(clue)
    if "".join(key_words)[:_MIN_STEM] not in "".join(clue_words):
        return False
    return _holds(clue_words, key_words, near_word)


@lru_cache(maxsize=1024)
def _team_starts(keywords: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(_keyword_words(keyword)[1] for keyword in keywords))


def contains_own_keyword(clue: str, keywords: tuple[str, ...]) -> bool:
    """`contains_keyword` for any of a team's keywords, with one quick test for most clues."""
    joined = "".join(words(clue))
    if not any(start in joined for start in _team_starts(keywords)):
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
            return reject(RejectionCode.CLUE_REUSED, f"clue {index}")
        seen.add(key)
        if contains_own_keyword(clue, keywords):
            return reject(RejectionCode.CLUE_IS_KEYWORD, f"clue {index}")
    return None


# One-letter words of the pools' languages: inside a phrase ("canne à pêche", "кот в сапогах")
# they are words, not letters pointing at a spelling. Folded, as `_folded_words` gives them.
_ONE_LETTER_WORDS = frozenset({"a", "i", "y", "o", "в", "с", "к", "у", "и", "а", "я", "о"})
# French elision ("salle d'eau", "l'heure"): the letter before the apostrophe is a word's part.
_ELISION = re.compile(r"\b(?:qu|[cdjlmnst])['’](?=\w)", re.IGNORECASE)


def _has_single_letter(clue: str) -> bool:
    """A clue that is a letter, or a phrase holding a letter that is no word of its own."""
    tokens = [t for t in _folded_words(_ELISION.sub(" ", clue)) if not _is_hangul(t)]
    letters = [t for t in tokens if len(t) == 1 and t.isalpha()]
    if len(tokens) == 1:
        return bool(letters)
    return any(letter not in _ONE_LETTER_WORDS for letter in letters)


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
        found.append(RejectionCode.CLUE_REUSED)
    if contains_own_keyword(clue, keywords):
        found.append(RejectionCode.CLUE_IS_KEYWORD)
    elif any(near_keyword(clue, k) for k in keywords):
        found.append(ClueWarning.NEAR_FORM)
    elif any(len(fold_text(k)) >= 3 and fold_text(k) in fold_text(clue) for k in keywords):
        found.append(ClueWarning.KEYWORD_INSIDE)
    tokens = _folded_words(clue)
    if any(char.isdigit() for char in clue):
        found.append(ClueWarning.DIGIT)
    if _has_single_letter(clue):
        found.append(ClueWarning.SINGLE_LETTER)
    if any(token in _number_words(keywords) for token in tokens):
        found.append(ClueWarning.NUMBER_WORD)
    if any(token in SPELLING_WORDS for token in tokens):
        found.append(ClueWarning.SPELLING_HINT)
    if any(token in SOUND_WORDS for token in tokens):
        found.append(ClueWarning.SOUND_HINT)
    if translation_check is not None and translation_check(clue, keywords):
        found.append(ClueWarning.TRANSLATION)
    return found
