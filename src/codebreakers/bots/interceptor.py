"""Reading the enemy's transmission from what is public: its past clues, placed by number.

Once a transmission is revealed its code is public, so every past clue of a team sits under the
number of the keyword it pointed at (the notes sheet of the table game). A new clue probably
belongs to the number whose past clues it resembles.

Two ways to score "clue i belongs to number k":
- history only (easy, normal): mean cosine with k's past clues, minus the cosine of unrelated
  words, so a clue like none of the known columns drifts to a number with no history yet;
- with the keyword pool (hard): a posterior over which pool word is keyword k, given its past
  clues; the clue's score is its expected closeness to that keyword, by the embedding and the
  pool words' associations (closeness.py), as an experienced player who knows what people
  say for each pool word. With no history the posterior is flat, which scores every clue the
  same for that number.
The encryptor uses the same model from the enemy's side to keep its own clues hard to place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from codebreakers.bots.closeness import pool_association_table
from codebreakers.bots.code_scores import code_scores
from codebreakers.bots.decoder import Reading, read
from codebreakers.bots.lexicon import Lexicon
from codebreakers.games.decrypto.words.folding import fold

# Mean cosine between clues of different keywords (measured on simulated transmissions).
UNRELATED_COSINE = 0.30
POOL_TEMPERATURE = 0.05
# Softmax temperatures of the two readings, fitted by scripts/fit_bot_temperature.py.
HISTORY_TEMPERATURE = 0.05
POOL_READ_TEMPERATURE = 0.045

History = Mapping[int, Sequence[str]]  # keyword number (1-4) -> its revealed clues


class EnemyModel:
    """How clues relate to a team's four keyword numbers, seen from outside that team."""

    def __init__(
        self, lex: Lexicon, history: History, use_pool: bool, excluded: Sequence[str] = ()
    ) -> None:
        self._lex = lex
        self._use_pool = use_pool
        self._columns = [list(history.get(number, ())) for number in range(1, 5)]
        # An unknown pool (a host's custom list) leaves the history alone to go on.
        known = use_pool and bool(lex.pool.words)
        self._posterior = self._pool_posterior(excluded) if known else None
        self.temperature = POOL_READ_TEMPERATURE if known else HISTORY_TEMPERATURE

    def _pool_posterior(self, excluded: Sequence[str]) -> np.ndarray:
        """(4, P) probability that each pool word is keyword 1..4, from the revealed clues."""
        pool = self._lex.pool
        banned = {fold(w) for w in excluded}
        allowed = np.array([w not in banned for w in pool.folded])
        posterior = np.zeros((4, len(pool.words)), dtype=np.float32)
        for k, clues in enumerate(self._columns):
            fit = np.zeros(len(pool.words), dtype=np.float32)
            if clues:
                fit += self._pool_closeness(clues, self._lex.embed(clues)).sum(axis=0)
            fit = np.where(allowed, fit / POOL_TEMPERATURE, -np.inf)
            weights = np.exp(fit - fit.max())
            posterior[k] = weights / weights.sum()
        return posterior

    def _pool_closeness(self, texts: Sequence[str], vectors: np.ndarray) -> np.ndarray:
        """(n, P) each clue's closeness to every pool word."""
        pool = self._lex.pool
        closeness = vectors @ pool.vectors.T - pool.background[None, :]
        total: np.ndarray = closeness + pool_association_table(self._lex, texts, vectors)
        return total

    def table(self, texts: Sequence[str], clue_vectors: np.ndarray) -> np.ndarray:
        """(n_clues, 4) scores of each clue (text and unit vector) for each keyword number."""
        if self._posterior is not None:
            expected: np.ndarray = self._pool_closeness(texts, clue_vectors) @ self._posterior.T
            return expected
        table = np.zeros((len(clue_vectors), 4), dtype=np.float32)
        for k, clues in enumerate(self._columns):
            if clues:
                table[:, k] = (clue_vectors @ self._lex.embed(clues).T).mean(axis=1)
                table[:, k] -= UNRELATED_COSINE
        return table


def intercept(
    lex: Lexicon,
    history: History,
    clues: Sequence[str],
    use_pool: bool,
    own_keywords: Sequence[str] = (),
    noise: float = 0.0,
    rng: np.random.Generator | None = None,
) -> Reading:
    """Our guess at the enemy's code (own keywords are never the enemy's: out of the pool)."""
    model = EnemyModel(lex, history, use_pool, own_keywords)
    table = model.table(clues, lex.embed(clues))
    return read(code_scores(table), model.temperature, noise, rng)
