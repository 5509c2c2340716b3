"""The association lexicons: for every pool keyword, what people say when they hear it.

Embedding similarity is not association: USE puts "moon" near "january" and "piano" near
"floor". So each language has a hand-written lexicon (data/associations/<lang>.txt, format in
docs/bots.md): per keyword, and per sense of a homonym, 20-40 words or short phrases graded
3 (what most people say first), 2 (clear) or 1 (fair). The encryptor gives these first, and
every reader scores a clue against a keyword's associations as well as the keyword itself.

Beside it, data/references/<lang>.txt (same format, grades 3 and 2) lists what people say that a
bot must never give: characters, people, titles, places ("루돌프" for 사슴, "карлсон" for
варенье). Those are associations the readers know and the encryptor skips (`given` False).

The file is parsed strictly (a malformed line is an error naming the file and line) and loaded
once per process per language. Embedding ~16,000 associations would take seconds, over the
load budget, so their vectors (and the keyword pool's) are precomputed by
scripts/build_bot_associations.py into
data/associations_<lang>.npz (int8 rows, a scale per row, kept in sync with the text by
tests/bots/test_associations.py); an association missing from that file (the text edited
since) is embedded on first use instead, so a stale file is slower, never wrong.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from codebreakers.bots.embeddings import DIM, TEXTS
from codebreakers.bots.wordforms import root_key, same_root
from codebreakers.games.decrypto.words.folding import fold

LANGUAGES = ("en", "fr", "ru", "ko")
GRADES = (3, 2, 1)
# Shortest folded form (letters, or jamo for Hangul) whose same-root match with an association
# counts when reading a clue: shorter words prefix too many others ("art", "artist").
MIN_FORM_MATCH = 4

_HEAD = re.compile(r"^(?P<keyword>[^()|:,]+?)(?:\s+\((?P<sense>[^()|]+)\))?$")
_GROUP = re.compile(r"^(?P<grade>[123]):\s*(?P<items>.*\S)$")
_HANGUL = re.compile("[\uac00-\ud7a3]")


class LexiconError(ValueError):
    """A malformed association lexicon: the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Association:
    text: str
    grade: int  # 3 strong, 2 clear, 1 fair
    sense: str | None  # the English gloss of the keyword's sense, for homonyms
    given: bool = True  # False: a reference (a name, a title), read but never given as a clue


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a lexicon: a keyword (or one sense of it) and its graded associations."""

    keyword: str
    sense: str | None
    associations: tuple[Association, ...]
    line: int


def parse_line(text: str, source: str, line: int) -> Entry:
    """One entry line (`keyword[ (sense)] | 3: a, b | 2: c | 1: d`), or a LexiconError."""

    def error(why: str) -> LexiconError:
        return LexiconError(f"{source}:{line}: {why}")

    if unicodedata.normalize("NFC", text) != text:
        raise error("not NFC")
    head, *groups = (part.strip() for part in text.split("|"))
    match = _HEAD.match(head)
    if match is None:
        raise error(f"bad keyword part {head!r}")
    if not groups:
        raise error("no associations")
    sense = match["sense"].strip() if match["sense"] else None
    associations: list[Association] = []
    seen_grades: list[int] = []
    for group in groups:
        g = _GROUP.match(group)
        if g is None:
            raise error(f"bad grade group {group!r} (want '3: a, b')")
        grade = int(g["grade"])
        if seen_grades and grade >= seen_grades[-1]:
            raise error("grade groups out of order (3, then 2, then 1)")
        seen_grades.append(grade)
        items = [item.strip() for item in g["items"].split(",")]
        if any(not item or " " * 2 in item for item in items):
            raise error(f"empty or badly spaced association in grade {grade}")
        associations += [Association(item, grade, sense) for item in items]
    return Entry(match["keyword"].strip(), sense, tuple(associations), line)


def parse_lexicon(text: str, source: str) -> list[Entry]:
    """Every entry of a lexicon file; a keyword has one line, or one line per named sense."""
    entries: list[Entry] = []
    senses: dict[str, list[str | None]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        entry = parse_line(stripped, source, number)
        known = senses.setdefault(fold(entry.keyword), [])
        if entry.sense in known or (known and (entry.sense is None or None in known)):
            raise LexiconError(
                f"{source}:{number}: {entry.keyword!r} already has a line for that sense "
                "(a keyword has one line, or one per named sense)"
            )
        known.append(entry.sense)
        entries.append(entry)
    return entries


def lexicon_path(lang: str) -> Path:
    return Path(
        str(resources.files("codebreakers.bots").joinpath("data", "associations", f"{lang}.txt"))
    )


def references_path(lang: str) -> Path:
    """The references people give for pool keywords (names, titles): read, never given."""
    return Path(
        str(resources.files("codebreakers.bots").joinpath("data", "references", f"{lang}.txt"))
    )


def vectors_path(lang: str) -> Path:
    """The precomputed embeddings of a lexicon's associations (built by a script)."""
    return Path(
        str(resources.files("codebreakers.bots").joinpath("data", f"associations_{lang}.npz"))
    )


def tokens(text: str) -> list[str]:
    """The words of a clue or association ("keys and pedals" -> keys, and, pedals)."""
    return [t for t in re.split(r"[\s'’-]+", text) if t]


@dataclass(slots=True, eq=False)  # hashed by identity: one per language, a cache key
class Associations:
    """A language's lexicon: associations by folded keyword, and their vectors."""

    lang: str
    by_keyword: dict[str, tuple[Association, ...]]
    keywords: dict[str, str]  # folded keyword -> keyword as written
    _rows: dict[str, int]  # association text -> row of the precomputed matrix
    _quantised: np.ndarray  # (N, DIM) int8
    _scale: np.ndarray  # (N,) float32
    _doubts: np.ndarray  # (N,) str: forbidden kinds `bot audit` finds in each stored text
    # folded association text -> ((folded keyword, grade), ...): the exact-match index
    exact: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)

    def of(self, keyword: str) -> tuple[Association, ...]:
        """The associations of `keyword` (all senses), strongest grade first; () if none."""
        return self.by_keyword.get(fold(keyword), ())

    def doubtful(self, text: str) -> bool:
        """Whether `bot audit`'s checks of the text alone found a forbidden kind in it (a rare
        word, a name, an inflected form...: scripts/build_bot_associations.py); False for a
        text the vector file does not hold."""
        row = self._rows.get(text)
        return row is not None and bool(self._doubts[row])

    def grades(self, keyword: str) -> np.ndarray:
        return np.array([a.grade for a in self.of(keyword)], dtype=np.float32)

    def known_vectors(self, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """Stored unit vectors for the texts that are associations of this lexicon."""
        out = {}
        for text in texts:
            row = self._rows.get(text)
            if row is not None:
                out[text] = _unit(self._quantised[row : row + 1], self._scale[row : row + 1])[0]
        return out

    def vectors(self, keyword: str) -> np.ndarray:
        """(A, DIM) unit vectors of the keyword's associations, in `of(keyword)` order."""
        texts = [a.text for a in self.of(keyword)]
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        rows = [self._rows.get(t) for t in texts]
        if all(r is not None for r in rows):
            picked = np.array(rows, dtype=np.int64)
            return _unit(self._quantised[picked], self._scale[picked])
        return TEXTS.embed(texts, self.known_vectors(texts))

    def match_grade(self, clue: str, keyword: str) -> int:
        """The best grade of an association of `keyword` that `clue` is, is a form of, or
        (for a phrase) has a word that is or is a form of; 0 if none."""
        return _match_grade(self, clue, fold(keyword))


def _unit(quantised: np.ndarray, scale: np.ndarray) -> np.ndarray:
    rows = quantised.astype(np.float32) * scale[:, None]
    unit: np.ndarray = rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)
    return unit


def _form_of(word: str, association: str) -> bool:
    """Whether a (folded) clue word reads as a form of a (folded) association. Stricter than
    the rules' `same_root`, which errs towards "same word" to stay safe: Hangul is compared by
    syllables, one word starting or ending with the other of at least two (바다를 for 바다;
    not 무리 for 무릎, nor 십이월 for 십이지, which share jamo)."""
    if _HANGUL.search(word) or _HANGUL.search(association):
        short, long_ = sorted((word, association), key=len)
        return len(short) >= 2 and (long_.startswith(short) or long_.endswith(short))
    return len(root_key(word)) >= MIN_FORM_MATCH and same_root(word, association)


@lru_cache(maxsize=200_000)
def _match_grade(assoc: Associations, clue: str, keyword: str) -> int:
    entries = assoc.by_keyword.get(keyword, ())
    if not entries:
        return 0
    folded = fold(clue)
    words = {folded} | {fold(t) for t in tokens(clue)}
    best = 0
    for a in entries:
        if a.grade <= best:
            continue
        target = fold(a.text)
        if target in words or any(_form_of(w, target) for w in words):
            best = a.grade
    return best


def build(lang: str, entries: Sequence[Entry], stored: dict[str, np.ndarray]) -> Associations:
    """An Associations from parsed entries and the stored vectors ({} when there are none)."""
    by_keyword: dict[str, list[Association]] = {}
    keywords: dict[str, str] = {}
    exact: dict[str, list[tuple[str, int]]] = {}
    for entry in entries:
        key = fold(entry.keyword)
        keywords.setdefault(key, entry.keyword)
        by_keyword.setdefault(key, []).extend(entry.associations)
        for a in entry.associations:
            exact.setdefault(fold(a.text), []).append((key, a.grade))
    ordered = {k: tuple(sorted(v, key=lambda a: -a.grade)) for k, v in by_keyword.items()}
    texts = list(stored.get("texts", ()))
    return Associations(
        lang,
        ordered,
        keywords,
        {str(t): i for i, t in enumerate(texts)},
        stored.get("vectors", np.zeros((0, DIM), dtype=np.int8)),
        stored.get("scale", np.zeros(0, dtype=np.float32)),
        stored.get("doubts", np.full(len(texts), "")),
        {k: tuple(v) for k, v in exact.items()},
    )


def read_entries(lang: str) -> list[Entry]:
    """The parsed lexicon of `lang` ([] when the language has no lexicon file yet)."""
    path = lexicon_path(lang)
    if not path.exists():
        return []
    return parse_lexicon(path.read_text(encoding="utf-8"), str(path))


def read_references(lang: str) -> list[Entry]:
    """The parsed references of `lang`, each association marked not to be given ([] when the
    language has no references file)."""
    path = references_path(lang)
    if not path.exists():
        return []
    return [
        replace(e, associations=tuple(replace(a, given=False) for a in e.associations))
        for e in parse_lexicon(path.read_text(encoding="utf-8"), str(path))
    ]


def read_all(lang: str) -> list[Entry]:
    """What the readers know of `lang`: the lexicon's entries, then the references'."""
    return read_entries(lang) + read_references(lang)


_lock = threading.Lock()
_loaded: dict[str, Associations] = {}


def load_associations(lang: str) -> Associations:
    """The lexicon of `lang`, loaded once per process (empty for a language without one)."""
    if lang not in LANGUAGES:
        raise KeyError(f"no association lexicon for language {lang!r}")
    with _lock:
        if lang not in _loaded:
            stored: dict[str, np.ndarray] = {}
            if vectors_path(lang).exists():
                with np.load(vectors_path(lang), allow_pickle=False) as data:
                    names = ("texts", "vectors", "scale", "doubts")
                    stored = {name: data[name] for name in names}
            _loaded[lang] = build(lang, read_all(lang), stored)
        return _loaded[lang]
