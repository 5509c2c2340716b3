"""The word-embedding baseline of the Decrypto benchmark (Lupu et al., 2025), as Bot players.

Reimplemented with our embeddings and vocabulary so that "our bots beat the baseline" measures
the reasoning, not the word model:
- encoder: for each digit, the 16 vocabulary words nearest to the target keyword, keeping those
  closer to it than to the team's other keywords; a random one, never one already given;
- decoder: the code whose clue-to-keyword assignment has the highest total cosine;
- interceptor (from round 2): the same, matching each clue to the mean vector of each number's
  past clues (a number with no past clue scores 0);
- tie-break: for each number, the vocabulary word nearest to the mean of its clues.
Its clues also obey the clue rules (the server would refuse the others), via the same checks
as our bots; it never proposes, its decider locks at once, and it accepts no near miss.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from codebreakers.bots.base import JSON, BotMove
from codebreakers.bots.code_scores import as_code, code_scores
from codebreakers.bots.lexicon import Lexicon, lexicon
from codebreakers.bots.rules import TRANSLATION_COSINE, bot_may_give, used_keys
from codebreakers.bots.table import Table
from codebreakers.bots.wordforms import same_root
from codebreakers.games.decrypto.words.folding import fold

NEAREST = 16


@dataclass
class BaselineBot:
    lang: str
    seed: int
    seat: str

    def _rng(self, table: Table) -> np.random.Generator:
        return np.random.default_rng([self.seed, table.round, zlib.crc32(self.seat.encode())])

    def decide(self, view: JSON) -> BotMove | None:
        table = Table.of(view)
        if table is None:
            return None
        lex = lexicon(self.lang)
        tasks = table.tasks()
        if "transmit" in tasks:
            own = table.current(table.team)
            assert own is not None
            clues = baseline_clues(
                lex, table.keywords, own["code"], table.used_clues(), self._rng(table)
            )
            return BotMove({"type": "transmit", "clues": clues})
        if "lock_own" in tasks:
            t = table.current(table.team)
            assert t is not None
            code = _best(lex.embed(t["clues"]) @ lex.embed(table.keywords).T)
            return BotMove({"type": "lock", "target": "own", "code": code})
        if "lock_enemy" in tasks:
            t = table.current(table.enemy)
            assert t is not None
            means = _column_means(lex, table)
            code = _best(lex.embed(t["clues"]) @ means.T)
            return BotMove({"type": "lock", "target": "enemy", "code": code})
        if "guess_keywords" in tasks:
            return BotMove({"type": "guess_keywords", "words": self._guesses(lex, table)})
        if "review" in tasks:
            return BotMove({"type": "review_done"})
        return None

    def _guesses(self, lex: Lexicon, table: Table) -> list[str]:
        means = _column_means(lex, table)
        banned = {fold(w) for w in table.keywords}
        guesses = []
        for mean in means:
            for row in np.argsort(-(lex.vocab.vectors @ mean)):
                word = lex.vocab.words[int(row)]
                if fold(word) not in banned:
                    guesses.append(word)
                    banned.add(fold(word))
                    break
        return guesses


def baseline_clues(
    lex: Lexicon,
    keywords: Sequence[str],
    code: Sequence[int],
    used: Sequence[str],
    rng: np.random.Generator,
    nearest_count: int = NEAREST,
    closer_only: bool = True,
) -> list[str]:
    """The baseline encoder: per digit, a random one of the 16 legal words nearest to the
    target keyword, among those closer to it than to the other keywords. (The temperature fit
    also uses a careless variant: more neighbours, closer or not.)"""
    vocab = lex.vocab
    cosine = vocab.vectors @ lex.embed(keywords).T
    keys = used_keys(used)
    clues: list[str] = []
    for digit in code:
        target = digit - 1
        nearest: list[str] = []
        for row in np.argsort(-cosine[:, target]):
            word = vocab.words[int(row)]
            if cosine[row].max() >= TRANSLATION_COSINE or word in clues:
                continue
            if not bot_may_give(word, keywords, keys) or any(same_root(word, u) for u in used):
                continue
            nearest.append(word)
            if len(nearest) == nearest_count:
                break
        closer = [w for w in nearest if np.argmax(cosine[vocab.index[fold(w)]]) == target]
        choices = (closer if closer_only else []) or nearest
        clues.append(choices[int(rng.integers(len(choices)))])
    return clues


def _column_means(lex: Lexicon, table: Table) -> np.ndarray:
    """(4, DIM): the mean vector of each enemy number's revealed clues (zeros for none)."""
    history = table.history(table.enemy)
    means = np.zeros((4, lex.vocab.vectors.shape[1]), dtype=np.float32)
    for number, clues in history.items():
        if clues:
            means[number - 1] = lex.embed(list(clues)).mean(axis=0)
    return means


def _best(table: np.ndarray) -> list[int]:
    """The code with the best total score over a (3, 4) clue-vs-number table."""
    return as_code(int(np.argmax(code_scores(table))))
