"""Fit the softmax temperatures that turn the bots' code scores into calibrated confidences.

    .venv/bin/python scripts/fit_bot_temperature.py [--games 30] [--seed 0]

It plays fake games in every language (keywords drawn from the pools, random codes, eight
rounds) whose transmissions come from a mix of encryptors (easy and normal bots, the benchmark
baseline, and a careless player who gives any of the 60 words nearest to the keyword), so the
decoder sees clues of mixed quality, not only its own partner's. For each
transmission it records the 24 code scores of our own team's reading and, from round 2, of the
enemy's reading (history only, and with the keyword pool), then picks for each the temperature
with the best log-likelihood of the true code and prints it with a reliability table.
The results go into decoder.DECODE_TEMPERATURE and interceptor's HISTORY_TEMPERATURE and
POOL_READ_TEMPERATURE by hand
(docs/bots.md records the last run).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from codebreakers.bots.closeness import keyword_table
from codebreakers.bots.code_scores import code_position, code_scores, softmax
from codebreakers.bots.encryptor import choose_clues
from codebreakers.bots.interceptor import EnemyModel
from codebreakers.bots.levels import LEVELS
from codebreakers.bots.lexicon import lexicon
from codebreakers.bots.vocab import LANGUAGES
from codebreakers.games.decrypto.codes import ALL_CODES
from codebreakers.games.decrypto.words import load_pool
from codebreakers.sim.baseline import baseline_clues

GRID = np.round(np.arange(0.01, 0.201, 0.005), 3)
ROUNDS = 8


def collect(games: int, seed: int) -> dict[str, list[tuple[np.ndarray, int]]]:
    """Code scores and the true code, per kind of reading."""
    rng = np.random.default_rng(seed)
    data: dict[str, list[tuple[np.ndarray, int]]] = {"own": [], "history": [], "pool": []}
    for lang in LANGUAGES:
        lex = lexicon(lang)
        pool = load_pool(lang)
        for game in range(games):
            words = [pool[i] for i in rng.choice(len(pool), size=8, replace=False)]
            keywords, others = words[:4], words[4:]
            history: dict[int, list[str]] = {n: [] for n in range(1, 5)}
            used: list[str] = []
            for rnd in range(1, ROUNDS + 1):
                code = ALL_CODES[int(rng.integers(24))]
                kind = ("easy", "normal", "baseline", "careless")[(game + rnd) % 4]
                if kind == "baseline":
                    clues = baseline_clues(lex, keywords, code, used, rng)
                elif kind == "careless":
                    clues = baseline_clues(lex, keywords, code, used, rng, 60, closer_only=False)
                else:
                    clues = choose_clues(
                        lex, keywords, code, history, used, LEVELS[kind], rng, rnd > 1
                    )
                vectors = lex.embed(clues)
                truth = code_position(code)
                data["own"].append(
                    (code_scores(keyword_table(lex, keywords, clues, vectors)), truth)
                )
                if rnd > 1:
                    for name, use_pool in (("history", False), ("pool", True)):
                        model = EnemyModel(lex, history, use_pool, others)
                        data[name].append((code_scores(model.table(clues, vectors)), truth))
                used += clues
                for clue, digit in zip(clues, code, strict=True):
                    history[digit].append(clue)
    return data


def fit(samples: list[tuple[np.ndarray, int]]) -> tuple[float, float, float]:
    """(temperature, mean negative log-likelihood, accuracy of the best code)."""
    scores = np.stack([s for s, _ in samples])
    truth = np.array([t for _, t in samples])
    best = (0.0, np.inf)
    for t in GRID:
        p = softmax(scores, float(t))[np.arange(len(truth)), truth]
        nll = float(-np.log(np.maximum(p, 1e-12)).mean())
        if nll < best[1]:
            best = (float(t), nll)
    accuracy = float((scores.argmax(axis=1) == truth).mean())
    return best[0], best[1], accuracy


def reliability(samples: list[tuple[np.ndarray, int]], temperature: float) -> list[str]:
    """Per confidence bin: how many readings, their mean confidence, how often right."""
    rows = []
    probs = [softmax(s, temperature) for s, _ in samples]
    conf = np.array([p.max() for p in probs])
    right = np.array([int(np.argmax(p)) == t for p, (_, t) in zip(probs, samples, strict=True)])
    for lo, hi in ((0.0, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 0.9), (0.9, 1.01)):
        sel = (conf >= lo) & (conf < hi)
        if sel.any():
            rows.append(
                f"  [{lo:.1f}, {min(hi, 1.0):.1f}): n={int(sel.sum())}, "
                f"confidence {conf[sel].mean():.2f}, right {right[sel].mean():.2f}"
            )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for name, samples in collect(args.games, args.seed).items():
        temperature, nll, accuracy = fit(samples)
        print(
            f"{name}: n={len(samples)} temperature={temperature} nll={nll:.3f} "
            f"accuracy={accuracy:.3f}"
        )
        print("\n".join(reliability(samples, temperature)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
