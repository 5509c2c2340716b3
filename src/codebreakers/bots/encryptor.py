"""Writing a transmission: three clues our teammates read right and the enemy can't place.

For each digit of the code the bot shortlists candidates for that keyword:
- first the keyword's associations (associations.py, every sense): what people say for it,
  so a person reads them. Each must obey every clue rule (rules.py: not used, no engine
  warning, no form or look-alike of any of our keywords, no form of a clue given so far, not
  within the translation cosine of a keyword, nothing `bot audit` doubts) and point clearly
  at its keyword: its score for it (closeness.py: the embedding and the association
  lexicon) must lead its score for each of our other keywords. They are ranked by grade and
  by that lead;
- only when a keyword has fewer than MIN_ASSOCIATIONS usable ones (a host's custom word no
  lexicon holds, or a late round that used them up), vocabulary words fill the shortlist:
  words close to the keyword and clearly closer to it than to the other three, common enough
  to read (a small bonus per Zipf unit).
Then it scores every combination of the three shortlists at once (48 per slot at the hard
level: up to 110,592 transmissions x 24 codes):
- our teammates' reading (decoder.py): the true code must lead every other code by the
  level's margin, and its calibrated probability counts in favour, and so does the plain
  reading's (the embedding alone, as a person who does not share our lexicon reads);
- the enemy's reading (interceptor.py) from our public clue history: the chance it intercepts
  counts against, weighted by the level's defence (no interception in round 1). The history
  reading is what an opponent at the table has (the notes sheet): a clue is safe when it is far
  from that keyword's earlier clues, another facet of it each round. The hard interceptor's
  pool reading is not guarded against: once it has placed our keywords it scores every clue
  that reads well as interceptable, so guarding against it chose clues a partner reads poorly
  too (docs/bots.md);
- naturalness: the association's grade (or the word's frequency), and a little closeness.
It picks among the near-best with the level's softness, then decodes the chosen clues as its
teammates will, as a last check.

A code's score is a sum of one term per slot, so the softmax normaliser over the 24 codes for
every combination is a product of per-slot exponentials summed over codes: one matrix product
instead of a (K, K, K, 24) array (`_log_partition`). The margin uses a sharp log-sum-exp of
the other codes, which never exceeds their true maximum's lead by more than 0.016.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from codebreakers.bots.associations import Association
from codebreakers.bots.closeness import embedding_table, keyword_table
from codebreakers.bots.code_scores import CODE_INDEX, code_position
from codebreakers.bots.decoder import DECODE_TEMPERATURE, decode
from codebreakers.bots.interceptor import EnemyModel, History
from codebreakers.bots.levels import Level
from codebreakers.bots.lexicon import Lexicon
from codebreakers.bots.rules import BOT_MAX_COSINE, bot_may_give, used_keys
from codebreakers.bots.wordforms import same_root
from codebreakers.games.decrypto.words.folding import fold

NATURALNESS = 0.1
# Per grade of an association: a person reads a grade-3 association ("keys" for piano) at
# once, a grade-1 one ("lid") takes a good player. At 0.06 the hard level's plain weight of 8
# outweighed the grade, so the choice followed USE's reading of single words: 38% of the hard
# Korean clues were grade 1, in round 1 too, where no interception threatens. At 0.15 grade 3
# holds about half of the hard clues (en 53%, ru 49%; ko 35%, was 27%); the independent
# readers move within their noise, the English ones down 3-4 points, the others up 2-4, and
# the baseline's interceptions do not rise (docs/bots.md, "Grade against plain reading").
GRADE_WEIGHT = 0.15
# Per Zipf unit (10x more frequent) of a vocabulary word: "snow" reads faster than "perennial".
FAMILIARITY = 0.02
# A vocabulary word ranks below every association: it is what embeddings say, not people.
VOCABULARY_PENALTY = 0.3
# Fewer usable associations than this for a keyword, and vocabulary words fill the shortlist.
MIN_ASSOCIATIONS = 4
# The plain reading (embedding only, no lexicon) of our transmission counts with the level's
# `plain` weight: a person reads a clue more surely when it is close to its keyword in general,
# not only through the lexicon (on simulated games an independent reader decoded 69% of the
# hard bots' transmissions at weight 1, 49% without; ~80% at the hard level's 8 with its
# defence of 6 against the history reading).
# Softer than the decode temperature, so a clearer plain lead keeps counting (0.1: 65% read by
# the independent reader and 20% intercepted by the baseline on simulated games, against 62%
# and 21% at the decode temperature).
PLAIN_TEMPERATURE = 0.1
MARGIN_TEMPERATURE = 0.005
# How many more vocabulary words than needed to look at per slot before the rule checks.
_SHORTLIST_FACTOR = 4


@dataclass(frozen=True, slots=True)
class Candidate:
    """A possible clue for one slot, and why it is a candidate."""

    text: str
    vector: np.ndarray
    prior: float  # naturalness from its source (grade, or frequency)
    association: Association | None  # its lexicon entry; None: a vocabulary word


def _fits_rules(
    text: str, keywords: Sequence[str], keys: frozenset[str], used: Sequence[str]
) -> bool:
    return bot_may_give(text, keywords, keys) and not any(same_root(text, u) for u in used)


def _association_candidates(
    lex: Lexicon,
    target: int,
    keywords: Sequence[str],
    used: Sequence[str],
    level: Level,
    rng: np.random.Generator,
    keys: frozenset[str],
) -> list[Candidate]:
    """The target keyword's usable associations, best first. `keys`: `used_keys(used)`."""
    associations = lex.assoc.of(keywords[target])
    seen: set[str] = set()
    picked = []
    for i, a in enumerate(associations):
        if not a.given or lex.assoc.doubtful(a.text):  # a reference, or a doubtful word
            continue
        folded = fold(a.text)
        if folded in seen or not _fits_rules(a.text, keywords, keys, used):
            continue
        seen.add(folded)
        picked.append(i)
    if not picked:
        return []
    texts = [associations[i].text for i in picked]
    vectors = lex.assoc.vectors(keywords[target])[picked]
    raw = vectors @ lex.embed(keywords).T
    table = keyword_table(lex, keywords, texts, vectors)
    lead = table[:, target] - np.delete(table, target, axis=1).max(axis=1)
    grades = np.array([associations[i].grade for i in picked], dtype=np.float32)
    fit = GRADE_WEIGHT * grades + table[:, target] + lead
    fit = np.where((raw.max(axis=1) < BOT_MAX_COSINE) & (lead > 0.0), fit, -np.inf)
    if level.read_noise > 0.0:
        fit = fit + level.read_noise * rng.gumbel(size=fit.shape)
    order = [int(r) for r in np.argsort(-fit) if np.isfinite(fit[r])][: level.candidates]
    return [
        Candidate(texts[r], vectors[r], GRADE_WEIGHT * grades[r], associations[picked[r]])
        for r in order
    ]


def _vocabulary_candidates(
    lex: Lexicon,
    target: int,
    keywords: Sequence[str],
    used: Sequence[str],
    level: Level,
    rng: np.random.Generator,
    count: int,
    taken: set[str],
    keys: frozenset[str],
) -> list[Candidate]:
    """Vocabulary words fit to point at keyword index `target`, best first."""
    vocab = lex.vocab
    table = embedding_table(lex, keywords, vocab.vectors)
    raw = vocab.vectors @ lex.embed(keywords).T
    others = np.delete(table, target, axis=1).max(axis=1)
    fit = table[:, target] + (table[:, target] - others) + FAMILIARITY * vocab.zipf
    fit = np.where(raw.max(axis=1) < BOT_MAX_COSINE, fit, -np.inf)
    if level.read_noise > 0.0:
        fit = fit + level.read_noise * rng.gumbel(size=fit.shape)
    out: list[Candidate] = []
    for row in np.argsort(-fit)[: count * _SHORTLIST_FACTOR]:
        word = vocab.words[row]
        if not np.isfinite(fit[row]) or len(out) == count:
            break
        if fold(word) in taken or not _fits_rules(word, keywords, keys, used):
            continue
        prior = FAMILIARITY * float(vocab.zipf[row]) - VOCABULARY_PENALTY
        out.append(Candidate(word, vocab.vectors[row], prior, None))
    return out


def shortlist(
    lex: Lexicon,
    target: int,
    keywords: Sequence[str],
    used: Sequence[str],
    level: Level,
    rng: np.random.Generator,
) -> list[Candidate]:
    """The candidates for a slot pointing at keyword index `target`: associations first."""
    keys = used_keys(used)
    found = _association_candidates(lex, target, keywords, used, level, rng, keys)
    if len(found) < MIN_ASSOCIATIONS:
        taken = {fold(c.text) for c in found}
        need = level.candidates - len(found)
        found += _vocabulary_candidates(lex, target, keywords, used, level, rng, need, taken, keys)
    return found


def _slot_parts(slot_tables: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Per slot, (K_i, 24): the slot's score under each code (its clue vs the code's digit)."""
    return [t[:, CODE_INDEX[:, i]].astype(np.float64) for i, t in enumerate(slot_tables)]


def _log_partition(
    parts: Sequence[np.ndarray], temperature: float, skip: int | None = None
) -> np.ndarray:
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
    log_total: np.ndarray = (
        np.log(np.maximum(total, 1e-300))
        + tops[0][:, None, None]
        + tops[1][None, :, None]
        + tops[2][None, None, :]
    )
    return log_total


def _true_score(parts: Sequence[np.ndarray], truth: int) -> np.ndarray:
    score: np.ndarray = (
        parts[0][:, truth][:, None, None]
        + parts[1][:, truth][None, :, None]
        + parts[2][:, truth][None, None, :]
    )
    return score


def _chance(parts: Sequence[np.ndarray], truth: int, temperature: float) -> np.ndarray:
    """(K0, K1, K2) softmax probability of the true code for every combination."""
    log_chance = _true_score(parts, truth) / temperature - _log_partition(parts, temperature)
    chance: np.ndarray = np.exp(log_chance)
    return chance


def _interception_chance(
    lex: Lexicon, history: History, slots: Sequence[list[Candidate]], truth: int
) -> np.ndarray:
    """(K0, K1, K2) the chance the enemy reads the true code from our public history."""
    model = EnemyModel(lex, history, use_pool=False)
    parts = _slot_parts(
        [model.table([c.text for c in s], np.stack([c.vector for c in s])) for s in slots]
    )
    return _chance(parts, truth, model.temperature)


def _distinct(slots: Sequence[list[Candidate]]) -> np.ndarray:
    """(K0, K1, K2) whether the three clues of a combination are three different words."""
    keys = [np.array([fold(c.text) for c in s]) for s in slots]
    distinct = np.ones(tuple(len(k) for k in keys), dtype=bool)
    for a, b in ((0, 1), (0, 2), (1, 2)):
        same = np.equal.outer(keys[a], keys[b])
        shape = [1, 1, 1]
        shape[a], shape[b] = same.shape
        distinct &= ~same.reshape(shape)
    return distinct


def choose_transmission(
    lex: Lexicon,
    keywords: Sequence[str],
    code: Sequence[int],
    history: History,
    used: Sequence[str],
    level: Level,
    rng: np.random.Generator,
    intercepted: bool,
) -> list[Candidate]:
    """Three clues for `code` (digits 1-4), each with why it was a candidate. `history`: our
    revealed clues by number; `used`: every clue given in the game; `intercepted`: whether
    the enemy will try."""
    slots = [shortlist(lex, digit - 1, keywords, used, level, rng) for digit in code]
    if any(not s for s in slots):
        raise RuntimeError("no clue candidates left for a keyword")
    truth = code_position(code)
    vectors = [np.stack([c.vector for c in s]) for s in slots]
    tables = [
        keyword_table(lex, keywords, [c.text for c in s], v)
        for s, v in zip(slots, vectors, strict=True)
    ]
    own = _slot_parts(tables)
    margin = _true_score(own, truth) - MARGIN_TEMPERATURE * _log_partition(
        own, MARGIN_TEMPERATURE, skip=truth
    )
    utility = _chance(own, truth, DECODE_TEMPERATURE)
    plain = _slot_parts([embedding_table(lex, keywords, v) for v in vectors])
    utility = utility + level.plain * _chance(plain, truth, PLAIN_TEMPERATURE)
    if intercepted and level.defence > 0.0:
        utility = utility - level.defence * _interception_chance(lex, history, slots, truth)
    natural = [
        NATURALNESS * t[:, digit - 1] + np.array([c.prior for c in s])
        for s, t, digit in zip(slots, tables, code, strict=True)
    ]
    utility = utility + (
        natural[0][:, None, None] + natural[1][None, :, None] + natural[2][None, None, :]
    )
    distinct = _distinct(slots)
    feasible = distinct & (margin >= level.margin)
    if not feasible.any():
        utility, feasible = margin, distinct
    flat = np.where(feasible, utility, -np.inf).ravel()
    weights = np.exp((flat - flat.max()) / level.pick_temperature)
    pick = np.unravel_index(rng.choice(flat.size, p=weights / weights.sum()), margin.shape)
    chosen = [s[i] for s, i in zip(slots, pick, strict=True)]
    if decode(lex, keywords, [c.text for c in chosen]).code != list(code):
        best = np.unravel_index(int(np.argmax(np.where(distinct, margin, -np.inf))), margin.shape)
        chosen = [s[i] for s, i in zip(slots, best, strict=True)]
    return chosen


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
    """The three clue texts of `choose_transmission`."""
    chosen = choose_transmission(lex, keywords, code, history, used, level, rng, intercepted)
    return [c.text for c in chosen]
