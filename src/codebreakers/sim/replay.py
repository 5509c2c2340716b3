"""`codebreakers replay FILE`: fold a game record and print how the game ended, as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from codebreakers.games.base import JSON, Viewer
from codebreakers.games.records import RecordError, Replayed, replay


def _decrypto_summary(replayed: Replayed) -> JSON:
    view = replayed.rules.view(replayed.state, Viewer(None, open_spectator=True))
    return {
        "tokens": {team: data["tokens"] for team, data in view["teams"].items()},
        "rounds": view["round"],
    }


# What each game adds to the outcome (the Mastermind summary registers here too).
SUMMARIES: dict[str, Callable[[Replayed], JSON]] = {"decrypto": _decrypto_summary}


def summary(replayed: Replayed) -> JSON:
    rules = replayed.rules
    result: JSON = {
        "game": rules.name,
        "over": rules.is_over(replayed.state),
        "outcome": rules.outcome(replayed.state),
        "actions": replayed.actions,
    }
    extra = SUMMARIES.get(rules.name)
    if extra is not None:
        result |= extra(replayed)
    return result


def run(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as handle:
            doc: Any = json.load(handle)
    except OSError as error:
        print(f"replay: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        print(f"replay: {args.file} is not a JSON document: {error}", file=sys.stderr)
        return 2
    try:
        replayed = replay(doc)
    except RecordError as error:
        print(f"replay: invalid record {args.file}: {error}", file=sys.stderr)
        return 2
    print(json.dumps(summary(replayed)))
    return 0
