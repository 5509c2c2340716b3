"""`codebreakers bot decode|clue`: ask a Decrypto bot directly, for people and for measurements.

    codebreakers bot decode --lang en --keywords "ocean,piano,dragon,winter" \\
        --clues "wave;snow;fire" --json        -> {"code": [1, 4, 3], "confidence": 0.93}
    codebreakers bot clue --lang en --keywords "ocean,piano,dragon,winter" --code 4-2-1 --json
                                               -> {"clues": ["...", "...", "..."]}
    codebreakers bot audit --lang en --samples 100 --seed 1 --json   (bots/audit.py)
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from codebreakers.bots.decoder import decode
from codebreakers.bots.encryptor import choose_clues
from codebreakers.bots.levels import level
from codebreakers.bots.lexicon import lexicon
from codebreakers.games.decrypto.codes import parse_code


def _keywords(text: str) -> list[str] | None:
    words = [w.strip() for w in text.split(",")]
    return words if len(words) == 4 and all(words) else None


def run(args: argparse.Namespace) -> int:
    if args.role == "audit":
        from codebreakers.bots.audit import run as run_audit

        return run_audit(args)
    keywords = _keywords(args.keywords)
    if keywords is None:
        print("--keywords: four words separated by commas", file=sys.stderr)
        return 2
    lex = lexicon(args.lang)
    if args.role == "decode":
        clues = [c.strip() for c in args.clues.split(";")]
        if len(clues) != 3 or not all(clues):
            print("--clues: three clues separated by semicolons", file=sys.stderr)
            return 2
        reading = decode(lex, keywords, clues)
        result: dict[str, object] = {
            "code": reading.code,
            "confidence": round(reading.confidence, 4),
        }
        text = f"{'-'.join(map(str, reading.code))} (confidence {reading.confidence:.2f})"
    else:
        code = parse_code([int(d) for d in args.code.split("-") if d.strip().isdigit()])
        if code is None:
            print("--code: three different digits 1-4, like 4-2-1", file=sys.stderr)
            return 2
        rng = np.random.default_rng(args.seed)
        clues = choose_clues(lex, keywords, code, {}, [], level(args.level), rng, False)
        result = {"clues": clues}
        text = "; ".join(clues)
    print(json.dumps(result, ensure_ascii=False) if args.json else text)
    return 0
