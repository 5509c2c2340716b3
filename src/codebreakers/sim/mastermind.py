"""`codebreakers simulate mastermind`: the computer codebreaker against every code, or random ones.

Each game is played move by move through one shared solver, as the server's bot would play.
The time of a move is the CPU time (this thread) the solver took the first time it met that
position, with nothing memoised for it; every game passing through the position is charged that
time, so `p95_move_ms` is what a fresh process would pay per move, not the memo's lookup time.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

import numpy as np

from codebreakers.games.mastermind.scoring import score
from codebreakers.games.mastermind.solver import Position, Solver, solver_for
from codebreakers.games.mastermind.space import reply_index

# A safety net far above any measured game: a solver bug must not loop forever.
_MAX_MOVES = 40


def _play(solver: Solver, secret: int, cold_ms: dict[Position, float]) -> tuple[int, list[float]]:
    """Guesses the solver needs to find `secret`, and the (cold) time of each move."""
    space = solver.space
    code = space.code(secret)
    position: Position = ()
    times: list[float] = []
    for moves in range(1, _MAX_MOVES + 1):
        if position not in cold_ms:
            start = time.thread_time()
            solver.guess_index(position)
            cold_ms[position] = (time.thread_time() - start) * 1000.0
        times.append(cold_ms[position])
        guess = solver.guess_index(position)
        if guess == secret:
            return moves, times
        keys = score(space.code(guess), code)
        position = (*position, (guess, reply_index(space.pegs, keys.black, keys.white)))
    raise RuntimeError(f"no solution for {code} in {_MAX_MOVES} moves")


def simulate(pegs: int, colours: int, codes: list[int]) -> dict[str, object]:
    """Play every code in `codes`; the figures docs/performance.md reports."""
    wall, cpu = time.perf_counter(), time.process_time()
    solver = solver_for(pegs, colours)
    cold_ms: dict[Position, float] = {}
    histogram: Counter[int] = Counter()
    move_ms: list[float] = []
    for secret in codes:
        moves, times = _play(solver, secret, cold_ms)
        histogram[moves] += 1
        move_ms.extend(times)
    ms = np.array(move_ms)
    return {
        "pegs": pegs,
        "colours": colours,
        "games": len(codes),
        "average_guesses": round(sum(k * n for k, n in histogram.items()) / len(codes), 4),
        "worst_guesses": max(histogram),
        "histogram": {str(k): histogram[k] for k in sorted(histogram)},
        "moves": len(move_ms),
        "p50_move_ms": round(float(np.percentile(ms, 50)), 2),
        "p95_move_ms": round(float(np.percentile(ms, 95)), 2),
        "max_move_ms": round(float(ms.max()), 2),
        "positions_solved": len(cold_ms),
        "wall_seconds": round(time.perf_counter() - wall, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
    }


def run(args: argparse.Namespace) -> int:
    if not (3 <= args.pegs <= 6 and 5 <= args.colours <= 10):
        raise SystemExit("pegs must be 3-6 and colours 5-10")
    size = args.colours**args.pegs
    if args.all:
        codes = list(range(size))
    else:
        codes = np.random.default_rng(args.seed).integers(0, size, args.games).tolist()
    result = simulate(args.pegs, args.colours, codes)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0
