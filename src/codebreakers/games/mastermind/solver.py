"""The computer codebreaker: a deterministic, near-optimal guess for any position.

Approach (measured in docs/performance.md):
- The candidates are the codes consistent with every row so far, found by filtering the whole
  code space one row at a time (vectorised; 1,000,000 codes at 6 x 10 take a few ms a row).
- Each possible guess splits the candidates by reply. Among the guesses whose largest part is
  close to the smallest possible (Knuth's minimax, for the worst case), the solver takes the one
  whose split has the most entropy (Neuwirth's rule, for the average), then a guess that could
  itself be the code, then the lowest code index, so it is fully deterministic.
- Colours that no row has used yet are interchangeable, so only guesses that introduce unused
  colours in a fixed order are scored ("free colour" symmetry); the first guess is chosen among
  one code per integer partition of the pegs (AABBC-like shapes).
- When a position is too big to score exhaustively (large sizes, early rows), the candidates
  and the guesses are sampled with a fixed-seed generator so the work per move stays bounded.
- Answers are memoised by position, so a run over every code replays shared openings for free.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from codebreakers.games.mastermind.scoring import Keys
from codebreakers.games.mastermind.space import CodeSpace, IntArray, code_space, reply_index

Row = tuple[tuple[int, ...], Keys]
# Internal position: the (guess index, reply index) of every row so far.
Position = tuple[tuple[int, int], ...]

# Bounds on the work of one move: cells (guesses x candidates) scored, candidates scored against.
_CELL_BUDGET = 12_000_000
_MAX_EVAL = 8_000
_MIN_POOL = 64
_FIRST_EVAL = 50_000
# Positions remembered per size before the memo starts afresh (a full 5 x 8 run needs ~60,000).
_MEMO_LIMIT = 1_000_000
# Candidate codes kept in the per-size cache of candidate sets (8 bytes each: 32 MiB).
_CACHED_CODES = 4_000_000
_MAX_POOL = 32_768
# How far above the minimax largest part a guess may go and still be chosen for its entropy.
NEAR_MINIMAX = 1.1
_SAMPLE_SEED = 20_240_601


class Solver:
    """Best guesses for one size; one instance per size is shared through `solver_for`."""

    def __init__(self, pegs: int, colours: int) -> None:
        self.space: CodeSpace = code_space(pegs, colours)
        self._memo: dict[Position, int] = {}
        self._all: IntArray = np.arange(self.space.size, dtype=np.int64)
        self._all.setflags(write=False)
        self._cands: OrderedDict[Position, IntArray] = OrderedDict()
        self._cached = 0
        # The server may ask from several threads (bots run off the event loop).
        self._lock = threading.RLock()

    # -- public API in terms of codes and keys -------------------------------------------

    def next_guess(self, rows: Sequence[Row]) -> tuple[int, ...]:
        """The solver's guess after `rows` (each a guess and the keys it got)."""
        return self.space.code(self.guess_index(self._position(rows)))

    def possible(self, rows: Sequence[Row]) -> int:
        """How many codes are still consistent with `rows`."""
        return len(self.candidates(self._position(rows)))

    # -- internal API in terms of indices (used by the simulator) ------------------------

    def _position(self, rows: Sequence[Row]) -> Position:
        pegs = self.space.pegs
        return tuple(
            (self.space.index(code), reply_index(pegs, keys.black, keys.white))
            for code, keys in rows
        )

    def candidates(self, position: Position) -> IntArray:
        """Codes consistent with every row: the parent position's candidates, filtered by one row.

        Recently used candidate sets are kept, up to _CACHED_CODES codes in all, so a game's next
        row (or the sibling positions of a full run) filters a few codes instead of them all.
        """
        with self._lock:
            if not position:
                return self._all
            known = self._cands.get(position)
            if known is not None:
                self._cands.move_to_end(position)
                return known
            parent = self.candidates(position[:-1])
            guess, reply = position[-1]
            kept: IntArray = parent[self.space.reply(guess, parent) == reply]
            kept.setflags(write=False)
            self._cands[position] = kept
            self._cached += len(kept)
            while self._cached > _CACHED_CODES and len(self._cands) > 1:
                _, old = self._cands.popitem(last=False)
                self._cached -= len(old)
            return kept

    def guess_index(self, position: Position) -> int:
        with self._lock:
            known = self._memo.get(position)
            if known is None:
                known = self._choose(position)
                if len(self._memo) >= _MEMO_LIMIT:
                    self._memo.clear()
                self._memo[position] = known
            return known

    def _choose(self, position: Position) -> int:
        if not position:
            return self._first_guess()
        cands = self.candidates(position)
        if len(cands) == 0:
            return self._fallback(position)
        if len(cands) <= 2:
            return int(cands[0])
        return self._best(position, cands)

    def _first_guess(self) -> int:
        shapes = np.array(
            [
                self.space.index(code)
                for code in _partition_codes(self.space.pegs, self.space.colours)
            ],
            dtype=np.int64,
        )
        sample = _sample(self._all, _FIRST_EVAL, 0)
        counts = self.space.partition_counts(shapes, sample)
        return int(shapes[_order(counts, np.zeros(len(shapes), dtype=bool))[0]])

    def _fallback(self, position: Position) -> int:
        """Rows that no code satisfies (a maker who marked wrongly): any code not yet played."""
        played = {g for g, _ in position}
        return next(i for i in range(self.space.size) if i not in played)

    def _best(self, position: Position, cands: IntArray) -> int:
        """The guess with the best split of the candidates (see `_order`)."""
        evaluated = _sample(cands, _MAX_EVAL, len(position))
        budget = min(_MAX_POOL, max(_MIN_POOL, _CELL_BUDGET // len(evaluated)))
        pool = self._free_colour_guesses(position)
        is_cand = np.isin(pool, cands)
        mine = _sample(pool[is_cand], budget, len(position))
        if len(cands) <= self.space.replies:
            # A candidate that splits the rest into singletons is the best any guess can do.
            counts = self.space.partition_counts(mine, evaluated)
            perfect = np.flatnonzero(counts.max(axis=1) == 1)
            if len(perfect):
                return int(mine[perfect[0]])
        mine = _sample(mine, budget // 2, len(position)) if len(pool) > budget else mine
        others = _sample(pool[~is_cand], budget - len(mine), len(position))
        pool = np.concatenate([mine, others])
        flags = np.zeros(len(pool), dtype=bool)
        flags[: len(mine)] = True
        counts = self.space.partition_counts(pool, evaluated)
        return int(pool[_order(counts, flags)[0]])

    def _free_colour_guesses(self, position: Position) -> IntArray:
        used = np.zeros(self.space.colours, dtype=bool)
        for guess, _ in position:
            used[self.space.digits[guess]] = True
        return _canonical_guesses(self.space.pegs, self.space.colours, used.tobytes())


def _order(counts: IntArray, is_cand: npt.NDArray[np.bool_]) -> IntArray:
    """Guesses from the best split down: near-minimax first, then most entropy, then candidates.

    Entropy alone (Neuwirth) averages well but leaves a few codes for a 6th guess at 4 x 6;
    Knuth's minimax never needs a 6th but averages worse. Keeping only guesses whose largest part
    is within NEAR_MINIMAX of the smallest largest part, then taking the most entropy, gets both
    (docs/performance.md). Ties go to a guess that could be the code, then the lowest index.
    """
    largest = counts.max(axis=1)
    too_big = largest > np.floor(largest.min() * NEAR_MINIMAX)
    c = counts.astype(np.float64)
    clogc = c * np.log2(np.maximum(c, 1.0))
    disorder = np.round(clogc.sum(axis=1), 9)
    return np.lexsort((np.arange(len(counts)), ~is_cand, disorder, too_big))


def _sample(values: IntArray, limit: int, salt: int) -> IntArray:
    if len(values) <= limit:
        return values
    rng = np.random.default_rng(_SAMPLE_SEED + salt)
    return np.sort(rng.choice(values, size=limit, replace=False))


def _partition_codes(pegs: int, colours: int) -> list[tuple[int, ...]]:
    """One code per integer partition of `pegs` into at most `colours` parts: 00112 for 2+2+1."""
    found: list[tuple[int, ...]] = []

    def parts(left: int, largest: int, acc: list[int]) -> None:
        if left == 0:
            if len(acc) <= colours:
                found.append(tuple(c for colour, n in enumerate(acc) for c in [colour] * n))
            return
        for n in range(min(left, largest), 0, -1):
            parts(left - n, n, [*acc, n])

    parts(pegs, pegs, [])
    return found


def _canonical_guesses(pegs: int, colours: int, used: bytes) -> IntArray:
    """Guesses that introduce unused colours only in increasing order: one per symmetry class."""
    found = np.flatnonzero(_canonical_mask(pegs, colours, used)).astype(np.int64)
    found.setflags(write=False)
    return found


@lru_cache(maxsize=32)
def _canonical_mask(pegs: int, colours: int, used: bytes) -> npt.NDArray[np.bool_]:
    """Which codes `_canonical_guesses` keeps, cached as one byte per code (1 MiB at 6 x 10)."""
    space = code_space(pegs, colours)
    used_mask = np.frombuffer(used, dtype=bool)
    rank = np.cumsum(~used_mask) - 1
    ok = np.ones(space.size, dtype=bool)
    introduced = np.zeros(space.size, dtype=np.int64)
    for j in range(pegs):
        d = space.digits[:, j]
        free = ~used_mask[d]
        r = rank[d]
        ok &= ~free | (r <= introduced)
        introduced += free & (r == introduced)
    ok.setflags(write=False)
    return ok


@lru_cache(maxsize=16)
def solver_for(pegs: int, colours: int) -> Solver:
    """The shared solver of one size (its memo grows with the positions it has seen)."""
    return Solver(pegs, colours)
