"""Writing a transmission: three clues our teammates read right and the enemy can't place.

For each digit of the code the bot shortlists vocabulary words close to that keyword and
clearly closer to it than to our other three keywords, that obey every clue rule (rules.py),
and that are not a form of a clue already given. Then it scores every combination of the three
shortlists at once (48 words per slot at the hard level: 110,592 transmissions x 24 codes):
- our teammates' reading (decoder.py): the true code must lead every other code by the
  level's margin, and its calibrated probability counts in favour;
- the enemy's reading (interceptor.py) from our public clue history: the chance it intercepts
  counts against, weighted by the level's defence (no interception in round 1);
- closeness to the keywords and common words, a little: clues should feel natural to people.
It picks among the near-best with the level's softness, then decodes the chosen clues as its
teammates will, as a last check.

A code's score is a sum of one term per slot, so the softmax normaliser over the 24 codes for
every combination is a product of per-slot exponentials summed over codes: one matrix product
instead of a (K, K, K, 24) array (`_log_partition`). The margin uses a sharp log-sum-exp of
the other codes, which never exceeds their true maximum's lead by more than 0.016.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from codebreakers.bots.codes import CODE_INDEX, code_position
from codebreakers.bots.decoder import DECODE_TEMPERATURE, decode, keyword_table
from codebreakers.bots.interceptor import EnemyModel, History
from codebreakers.bots.levels import Level
from codebreakers.bots.lexicon import Lexicon
from codebreakers.bots.rules import BOT_MAX_COSINE, bot_may_give, used_keys
from codebreakers.bots.wordforms import same_root

NATURALNESS = 0.1
# Per Zipf unit (10x more frequent): people read "snow" faster than "perennial".
FAMILIARITY = 0.02
MARGIN_TEMPERATURE = 0.005
# How many more words than needed to look at per slot before the string-level rule checks.
_SHORTLIST_FACTOR = 4


def _shortlist(
    lex: Lexicon,
    table: np.ndarray,
    raw: np.ndarray,
    target: int,
    keywords: Sequence[str],
    used: Sequence[str],
    level: Level,
    rng: np.random.Generator,
) -> list[int]:
    """Vocabulary rows fit to point at keyword index `target`, best first."""
    others = np.delete(table, target, axis=1).max(axis=1)
    fit = table[:, target] + (table[:, target] - others) + FAMILIARITY * lex.vocab.zipf
    fit = np.where(raw.max(axis=1) < BOT_MAX_COSINE, fit, -np.inf)
    if level.read_noise > 0.0:
        fit = fit + level.read_noise * rng.gumbel(size=fit.shape)
    keys = used_keys(used)
    order = np.argsort(-fit)[: level.candidates * _SHORTLIST_FACTOR]
    rows: list[int] = []
    for row in order:
        if not np.isfinite(fit[row]):
            break
        word = lex.vocab.words[row]
        if not bot_may_give(word, keywords, keys):
            continue
        if any(same_root(word, clue) for clue in used):
            continue
        rows.append(int(row))
        if len(rows) == level.candidates:
            break
    return rows


def _slot_parts(slot_tables: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Per slot, (K_i, 24): the slot's score under each code (its clue vs the code's digit)."""
    return [t[:, CODE_INDEX[:, i]].astype(np.float64) for i, t in enumerate(slot_tables)]


def _log_partition(parts: Sequence[np.ndarray], temperature: float, skip: int | None = None):  # type: ignore[no-untyped-def]
    """(K0, K1, K2) log of sum over codes (but `skip`) of exp(code score / temperature)."""
    scaled = [p / temperature for p in parts]
    tops = [s.max(axis=1) for s in scaled]
    exps = [np.exp(s - top[:, None]) for s, top in zip(scaled, tops, strict=True)]
    if skip is not None:
        exps[0] = exps[0].copy()
        exps[0][:, skip] = 0.0
    k0, k1, k2 = (len(e) for e in exps)
    pairs = (exps[0][:, None, :] * exps[1][None, :, :]).reshape(k0 * k1, -1)
    total = (pairs @ exps[2].T).reshape(k0, k1, k2)
    return (
        np.log(np.maximum(total, 1e-300))
        + tops[0][:, None, None]
        + tops[1][None, :, None]
        + tops[2][None, None, :]
    )


def _true_score(parts: Sequence[np.ndarray], truth: int) -> np.ndarray:
    return (
        parts[0][:, truth][:, None, None]
        + parts[1][:, truth][None, :, None]
        + parts[2][:, truth][None, None, :]
    )


def _chance(parts: Sequence[np.ndarray], truth: int, temperature: float) -> np.ndarray:
    """(K0, K1, K2) softmax probability of the true code for every combination."""
    return np.exp(_true_score(parts, truth) / temperature - _log_partition(parts, temperature))


def _interception_chance(
    lex: Lexicon, history: History, slot_vectors: Sequence[np.ndarray], truth: int, level: Level
) -> np.ndarray:
    """The chance the enemy reads the true code, under the worst of the enemy models we guard
    against: history only, and also with the keyword pool at the hard level."""
    worst = np.zeros((len(slot_vectors[0]), len(slot_vectors[1]), len(slot_vectors[2])))
    for use_pool in (False, True) if level.use_pool else (False,):
        model = EnemyModel(lex, history, use_pool)
        parts = _slot_parts([model.table(vectors) for vectors in slot_vectors])
        worst = np.maximum(worst, _chance(parts, truth, model.temperature))
    return worst


def _distinct(shortlists: Sequence[list[int]]) -> np.ndarray:
    """(K0, K1, K2) whether the three clues of a combination are three different words."""
    distinct = np.ones(tuple(len(rows) for rows in shortlists), dtype=bool)
    for a, b in ((0, 1), (0, 2), (1, 2)):
        same = np.equal.outer(np.array(shortlists[a]), np.array(shortlists[b]))
        shape = [1, 1, 1]
        shape[a], shape[b] = same.shape
        distinct &= ~same.reshape(shape)
    return distinct


def choose_clues(
    lex: Lexicon,
    keywords: Sequence[str],
    code: Sequence[int],
    history: History,
    used: Sequence[str],
    level: Level,
    rng: np.random.Generator,
    intercepted: bool,
) -> list[str]:
    """Three clues for `code` (digits 1-4). `history`: our revealed clues by number;
    `used`: every clue given in the game; `intercepted`: whether the enemy will try."""
    vocab = lex.vocab
    table = keyword_table(lex, keywords, vocab.vectors)
    raw = vocab.vectors @ lex.embed(keywords).T
    shortlists = [
        _shortlist(lex, table, raw, digit - 1, keywords, used, level, rng) for digit in code
    ]
    if any(not rows for rows in shortlists):
        raise RuntimeError("no clue candidates left for a keyword")
    truth = code_position(code)
    own = _slot_parts([table[rows] for rows in shortlists])
    margin = _true_score(own, truth) - MARGIN_TEMPERATURE * _log_partition(
        own, MARGIN_TEMPERATURE, skip=truth
    )
    utility = _chance(own, truth, DECODE_TEMPERATURE)
    if intercepted and level.defence > 0.0:
        slot_vectors = [vocab.vectors[rows] for rows in shortlists]
        utility = utility - level.defence * _interception_chance(
            lex, history, slot_vectors, truth, level
        )
    natural = [
        NATURALNESS * table[rows, digit - 1] + FAMILIARITY * lex.vocab.zipf[rows]
        for rows, digit in zip(shortlists, code, strict=True)
    ]
    utility = utility + (
        natural[0][:, None, None] + natural[1][None, :, None] + natural[2][None, None, :]
    )
    distinct = _distinct(shortlists)
    feasible = distinct & (margin >= level.margin)
    if not feasible.any():
        utility, feasible = margin, distinct
    flat = np.where(feasible, utility, -np.inf).ravel()
    weights = np.exp((flat - flat.max()) / level.pick_temperature)
    pick = np.unravel_index(rng.choice(flat.size, p=weights / weights.sum()), margin.shape)
    clues = [vocab.words[rows[i]] for rows, i in zip(shortlists, pick, strict=True)]
    if decode(lex, keywords, clues).code != list(code):
        best = np.unravel_index(int(np.argmax(np.where(distinct, margin, -np.inf))), margin.shape)
        clues = [vocab.words[rows[i]] for rows, i in zip(shortlists, best, strict=True)]
    return clues
