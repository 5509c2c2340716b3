"""Every code of one size as numpy tables, and vectorised scoring over them.

The solver needs the reply of one guess against thousands of codes at once, and the partition
counts of hundreds of guesses against thousands of candidates. A full guess x code reply table
would be 1 GiB at 5 pegs x 8 colours, so replies are computed on demand from two small
tables: each code's digits and each code's colour counts (16 MiB at 6 x 10, the largest size).

A code is an index in [0, colours**pegs): its digits in base `colours`, most significant first.
A reply is one small integer, `black * pegs + (black + white)`, which is unique per (black,
white) because black + white <= pegs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
SmallArray = npt.NDArray[np.uint8]

# Cells (guesses x codes) scored per numpy batch: bounds temporary memory to a few MiB.
_BATCH_CELLS = 1 << 20


def reply_index(pegs: int, black: int, white: int) -> int:
    """The integer the vectorised scoring returns for this reply."""
    return black * pegs + black + white


@dataclass(frozen=True, eq=False)
class CodeSpace:
    """All codes with `pegs` pegs out of `colours` colours, repeats allowed."""

    pegs: int
    colours: int
    digits: SmallArray = field(repr=False)
    counts: SmallArray = field(repr=False)

    @property
    def size(self) -> int:
        return int(self.colours**self.pegs)

    @property
    def replies(self) -> int:
        """How many reply integers there can be (an upper bound: some are impossible)."""
        return (self.pegs + 1) * (self.pegs + 1)

    @property
    def win(self) -> int:
        return reply_index(self.pegs, self.pegs, 0)

    def index(self, code: Sequence[int]) -> int:
        value = 0
        for digit in code:
            value = value * self.colours + int(digit)
        return value

    def code(self, index: int) -> tuple[int, ...]:
        return tuple(int(d) for d in self.digits[index])

    def reply(self, guess: int, codes: IntArray) -> SmallArray:
        """The reply integer of one guess against each of `codes` (indices)."""
        blacks = np.zeros(len(codes), dtype=np.uint8)
        total = np.zeros(len(codes), dtype=np.uint8)
        digits = self.digits[codes]
        counts = self.counts[codes]
        for j, d in enumerate(self.digits[guess]):
            blacks += digits[:, j] == d
        for k, n in enumerate(self.counts[guess]):
            if n:
                total += np.minimum(counts[:, k], n)
        reply: SmallArray = blacks * np.uint8(self.pegs) + total
        return reply

    def partition_counts(self, guesses: IntArray, codes: IntArray) -> IntArray:
        """For each guess, how many of `codes` fall on each reply: shape (guesses, replies)."""
        out = np.zeros((len(guesses), self.replies), dtype=np.int64)
        if len(codes) == 0:
            return out
        step = max(1, _BATCH_CELLS // len(codes))
        c_digits = self.digits[codes].T.copy()
        c_counts = self.counts[codes].T.copy()
        for start in range(0, len(guesses), step):
            chunk = guesses[start : start + step]
            g_digits = self.digits[chunk]
            g_counts = self.counts[chunk]
            reply = np.zeros((len(chunk), len(codes)), dtype=np.uint8)
            for j in range(self.pegs):
                reply += g_digits[:, j, None] == c_digits[j][None, :]
            reply *= np.uint8(self.pegs)
            for k in range(self.colours):
                reply += np.minimum(g_counts[:, k, None], c_counts[k][None, :])
            offsets = np.arange(len(chunk), dtype=np.int64)[:, None] * self.replies
            flat = np.bincount((reply + offsets).ravel(), minlength=len(chunk) * self.replies)
            out[start : start + len(chunk)] = flat.reshape(len(chunk), self.replies)
        return out


@lru_cache(maxsize=8)
def code_space(pegs: int, colours: int) -> CodeSpace:
    """The tables for one size, built once per process (at most 16 MiB each)."""
    size = colours**pegs
    index = np.arange(size, dtype=np.int64)
    digits = np.empty((size, pegs), dtype=np.uint8)
    for j in range(pegs):
        digits[:, pegs - 1 - j] = (index // colours**j) % colours
    counts = np.zeros((size, colours), dtype=np.uint8)
    for k in range(colours):
        counts[:, k] = (digits == k).sum(axis=1)
    digits.setflags(write=False)
    counts.setflags(write=False)
    return CodeSpace(pegs, colours, digits, counts)
