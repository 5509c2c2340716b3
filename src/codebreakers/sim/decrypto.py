"""`codebreakers simulate decrypto`: random legal tables, as a check and as the engine's benchmark.

With `--views`, every seat's view is built and serialised to JSON bytes after every action, as the
server does before pushing it, so the two figures bracket the engine's cost per action.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter

import msgspec

from codebreakers.games.base import JSON, Viewer
from codebreakers.games.decrypto import RULES, GameState
from codebreakers.sim.random_decrypto import play, teams_for


def simulate(games: int, seed: int, players: int, views: bool) -> JSON:
    """Play `games` games from `seed` and count how they went."""
    teams, three = teams_for(players)
    viewers = [Viewer(seat) for seats in teams.values() for seat in seats]
    encode = msgspec.json.Encoder().encode
    view_bytes = 0

    def serialise_views(state: GameState) -> None:
        nonlocal view_bytes
        for viewer in viewers:
            view_bytes += len(encode(RULES.view(state, viewer)))

    rounds: Counter[int] = Counter()
    reasons: Counter[str] = Counter()
    ties: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    actions = 0
    master = random.Random(seed)
    started, cpu_started = time.perf_counter(), time.process_time()
    for _ in range(games):
        game_seed = master.getrandbits(63)
        setup = {
            "options": {"three_player": three},
            "teams": teams,
            "seed": game_seed,
            "now": 0.0,
        }
        played = play(
            setup, random.Random(game_seed), after_each=serialise_views if views else None
        )
        outcome = RULES.outcome(played.state)
        assert outcome is not None
        rounds[outcome["rounds"]] += 1
        reasons[outcome["reason"]] += 1
        if outcome["tie"] is not None:
            ties[outcome["tie"]["cause"]] += 1
        winners[outcome["winner"] or "draw"] += 1
        actions += len(played.actions)
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    result: JSON = {
        "games": games,
        "seed": seed,
        "players": players,
        "views": views,
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 1) if seconds else None,
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_cpu_s": round(games / cpu_seconds, 1) if cpu_seconds else None,
        "actions": actions,
        "actions_per_s": round(actions / seconds, 1) if seconds else None,
        "rounds": {str(r): rounds[r] for r in sorted(rounds)},
        "end_reasons": dict(sorted(reasons.items())),
        "tie_causes": dict(sorted(ties.items())),
        "winners": dict(sorted(winners.items())),
    }
    if views:
        result["view_bytes_per_view"] = round(view_bytes / max(1, actions * len(viewers)), 1)
    return result


def run(args: argparse.Namespace) -> int:
    try:
        players = int(args.players)
        teams_for(players)
    except ValueError:
        print("--players: 3, or 4 to 8", file=sys.stderr)
        return 2
    if args.games < 1:
        print("--games: at least 1", file=sys.stderr)
        return 2
    result = simulate(args.games, args.seed, players, args.views)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0
