"""`codebreakers words stats`: how many keywords each pool holds, for docs and packaging checks."""

from __future__ import annotations

import argparse
import json

from codebreakers.games.decrypto.words import POOL_LANGUAGES, load_pool


def pool_sizes() -> dict[str, int]:
    """Language -> number of keywords in its pool, in the order of POOL_LANGUAGES."""
    return {lang: len(load_pool(lang)) for lang in POOL_LANGUAGES}


def run(args: argparse.Namespace) -> int:
    """Print the pool sizes as JSON (`--json`) or as a small table; the exit status is 0."""
    sizes = pool_sizes()
    if args.json:
        print(json.dumps(sizes))
        return 0
    print("language  keywords")
    for lang, count in sizes.items():
        print(f"{lang:<8}  {count:>8}")
    return 0
