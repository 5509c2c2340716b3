"""`codebreakers simulate decrypto`: random legal tables, as a check and as the engine's benchmark.

With `--views`, every seat's view is built and serialised to JSON bytes after every action, as the
server does before pushing it, so the two figures bracket the engine's cost per action. The games
are then replayed from their logs without the random players (`engine`): that figure is the
rules engine's own speed (parse, apply and views), as a server replaying or serving games sees it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence

import msgspec

from codebreakers.games.base import JSON, Rejection, Viewer
from codebreakers.games.decrypto import RULES, GameState
from codebreakers.sim.random_decrypto import play, teams_for

Log = tuple[JSON, list[JSON]]  # (setup, actions)


def _view_serialiser(viewers: Sequence[Viewer]) -> tuple[Callable[[GameState], None], list[int]]:
    """A callback that serialises every viewer's view of a state, and its byte counter."""
    encode = msgspec.json.Encoder().encode
    total = [0]

    def serialise(state: GameState) -> None:
        for viewer in viewers:
            total[0] += len(encode(RULES.view(state, viewer)))

    return serialise, total


def _replay(logs: Sequence[Log], after_each: Callable[[GameState], None] | None) -> float:
    """CPU seconds to replay every log through parse_action and apply (and the views)."""
    started = time.process_time()
    for setup, actions in logs:
        state = RULES.new_game(setup)
        assert isinstance(state, GameState)
        for entry in actions:
            action = RULES.parse_action(entry["action"])
            assert not isinstance(action, Rejection)
            applied = RULES.apply(state, entry["seat"], action, entry["at"])
            assert not isinstance(applied, Rejection)
            state = applied.state
            if after_each is not None:
                after_each(state)
    return time.process_time() - started


def _rate(count: int, seconds: float) -> float | None:
    return round(count / seconds, 1) if seconds else None


def simulate(games: int, seed: int, players: int, views: bool) -> JSON:
    """Play `games` games from `seed`, count how they went, then time the engine alone."""
    teams, three = teams_for(players)
    viewers = [Viewer(seat) for seats in teams.values() for seat in seats]
    serialise, view_bytes = _view_serialiser(viewers)
    rounds: Counter[int] = Counter()
    reasons: Counter[str] = Counter()
    ties: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    logs: list[Log] = []
    master = random.Random(seed)
    started, cpu_started = time.perf_counter(), time.process_time()
    for _ in range(games):
        game_seed = master.getrandbits(63)
        setup = {"options": {"three_player": three}, "teams": teams, "seed": game_seed, "now": 0.0}
        played = play(setup, random.Random(game_seed), after_each=serialise if views else None)
        outcome = RULES.outcome(played.state)
        assert outcome is not None
        rounds[outcome["rounds"]] += 1
        reasons[outcome["reason"]] += 1
        if outcome["tie"] is not None:
            ties[outcome["tie"]["cause"]] += 1
        winners[outcome["winner"] or "draw"] += 1
        logs.append((setup, played.actions))
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    actions = sum(len(log[1]) for log in logs)
    engine_seconds = _replay(logs, serialise if views else None)
    result: JSON = {
        "games": games,
        "seed": seed,
        "players": players,
        "views": views,
        "seconds": round(seconds, 3),
        "games_per_s": _rate(games, seconds),
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_cpu_s": _rate(games, cpu_seconds),
        "actions": actions,
        "actions_per_s": _rate(actions, seconds),
        "engine": {
            "cpu_seconds": round(engine_seconds, 3),
            "games_per_cpu_s": _rate(games, engine_seconds),
            "us_per_action": round(engine_seconds / actions * 1e6, 2) if actions else None,
        },
        "rounds": {str(r): rounds[r] for r in sorted(rounds)},
        "end_reasons": dict(sorted(reasons.items())),
        "tie_causes": dict(sorted(ties.items())),
        "winners": dict(sorted(winners.items())),
    }
    if views:
        # Both passes serialised the same views: half the bytes are the play's.
        result["view_bytes_per_view"] = round(view_bytes[0] / 2 / (actions * len(viewers)), 1)
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
