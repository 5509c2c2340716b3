"""`codebreakers simulate decrypto --bots`: bot-only games through the real engine.

Every bot gets its seat's view from the engine and sends ordinary actions, exactly as on the
server. Measures own-team decode accuracy, interception rate per attempt, game lengths, end
reasons, who wins (with `--opponent`: Black plays another level, or the benchmark's
`baseline`), and the time bots take to choose a transmission and to read one (wall clock, and
the thread's CPU time, which other processes on a busy machine do not inflate).
For one-core figures run it as `OPENBLAS_NUM_THREADS=1 taskset -c 0 codebreakers simulate ...`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from codebreakers.bots.base import JSON, Bot
from codebreakers.bots.registry import make_bot
from codebreakers.games.base import Applied, Rejection, Viewer
from codebreakers.games.decrypto import RULES, GameState
from codebreakers.sim.baseline import BaselineBot
from codebreakers.sim.random_decrypto import teams_for

MAX_ACTIONS = 2000


@dataclass
class Tally:
    """What the games produced, summed over games."""

    rounds: Counter[int] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    winners: Counter[str] = field(default_factory=Counter)
    decodes: dict[str, list[bool]] = field(default_factory=lambda: {"white": [], "black": []})
    intercepts: dict[str, list[bool]] = field(default_factory=lambda: {"white": [], "black": []})
    transmit_ms: list[float] = field(default_factory=list)
    decode_ms: list[float] = field(default_factory=list)
    transmit_cpu_ms: list[float] = field(default_factory=list)
    decode_cpu_ms: list[float] = field(default_factory=list)

    def record(self, state: GameState) -> None:
        view = RULES.view(state, Viewer(None, open_spectator=True))
        outcome = view["outcome"]
        self.rounds[view["round"]] += 1
        self.reasons[outcome["reason"]] += 1
        self.winners[outcome["winner"] or "draw"] += 1
        for rnd in view["rounds"]:
            for team, t in rnd["transmissions"].items():
                if t is None or t["result"] is None:
                    continue
                self.decodes[team].append(bool(t["result"]["decoded"]))
                if t["interception"]["due"] and t["interception"]["locked"]:
                    enemy = "black" if team == "white" else "white"
                    self.intercepts[enemy].append(bool(t["result"]["intercepted"]))


def _bots(teams: dict[str, list[str]], args: argparse.Namespace, seed: int) -> dict[str, Bot]:
    bots: dict[str, Bot] = {}
    for team, seats in teams.items():
        for index, seat in enumerate(seats):
            bot_seed = seed * 16 + index * 2 + (team == "black")
            if team == "black" and args.opponent == "baseline":
                bots[seat] = BaselineBot(args.lang, bot_seed, seat)
            else:
                lvl = args.opponent if team == "black" and args.opponent else args.level
                bots[seat] = make_bot(
                    "decrypto", level=lvl, lang=args.lang, seed=bot_seed, seat=seat
                )
    return bots


def play(setup: JSON, bots: dict[str, Bot], tally: Tally) -> GameState:
    """One game: ask each seat in turn for a move until the game is over."""
    state = RULES.new_game(setup)
    if isinstance(state, Rejection):
        raise ValueError(f"setup refused: {state.code}")
    seats = list(bots)
    now = float(setup["now"])
    for _ in range(MAX_ACTIONS):
        if RULES.is_over(state):
            return state
        for seat in seats:
            view = RULES.view(state, Viewer(seat))
            started, cpu_started = time.perf_counter(), time.thread_time()
            move = bots[seat].decide(view)
            spent = (time.perf_counter() - started) * 1000.0
            cpu = (time.thread_time() - cpu_started) * 1000.0
            if move is None:
                continue
            action = move.action
            if action["type"] == "transmit":
                tally.transmit_ms.append(spent)
                tally.transmit_cpu_ms.append(cpu)
            elif action.get("target") == "own":
                tally.decode_ms.append(spent)
                tally.decode_cpu_ms.append(cpu)
            parsed = RULES.parse_action(action)
            if isinstance(parsed, Rejection):
                raise AssertionError(f"bot {seat} sent a malformed action {action}: {parsed}")
            now += 1.0
            applied = RULES.apply(state, seat, parsed, now)
            if isinstance(applied, Rejection):
                raise AssertionError(f"bot {seat} move {action} refused: {applied}")
            assert isinstance(applied, Applied)
            state = applied.state
            break
        else:
            raise AssertionError("no bot wants to move but the game is not over")
    raise AssertionError("the game did not end")


def _rate(values: list[bool]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _p95(values: list[float]) -> float | None:
    return round(float(np.percentile(values, 95)), 1) if values else None


def simulate(args: argparse.Namespace) -> JSON:
    teams, three = teams_for(int(args.players))
    started = time.perf_counter()
    make_bot("decrypto", level=args.level, lang=args.lang, seed=0, seat="-")  # load the model
    from codebreakers.bots.lexicon import lexicon

    lexicon(args.lang)
    load_s = time.perf_counter() - started
    tally = Tally()
    master = random.Random(args.seed)
    for _ in range(args.games):
        game_seed = master.getrandbits(62)
        setup = {
            "options": {"words": args.lang, "three_player": three},
            "teams": teams,
            "seed": game_seed,
            "now": 0.0,
        }
        tally.record(play(setup, _bots(teams, args, game_seed), tally))
    decodes = tally.decodes["white"] + tally.decodes["black"]
    intercepts = tally.intercepts["white"] + tally.intercepts["black"]
    games = args.games
    return {
        "games": games,
        "lang": args.lang,
        "level": args.level,
        "opponent": args.opponent or args.level,
        "players": int(args.players),
        "seed": args.seed,
        "own_decode_accuracy": _rate(decodes),
        "own_decode_accuracy_by_team": {t: _rate(v) for t, v in tally.decodes.items()},
        "interception_rate": _rate(intercepts),
        "interception_rate_by_team": {t: _rate(v) for t, v in tally.intercepts.items()},
        "rounds": {str(r): tally.rounds[r] for r in sorted(tally.rounds)},
        "end_reasons": dict(sorted(tally.reasons.items())),
        "winners": dict(sorted(tally.winners.items())),
        "white_win_rate": round(tally.winners["white"] / games, 4),
        "p95_transmission_ms": _p95(tally.transmit_ms),
        "p95_decode_ms": _p95(tally.decode_ms),
        "p95_transmission_cpu_ms": _p95(tally.transmit_cpu_ms),
        "p95_decode_cpu_ms": _p95(tally.decode_cpu_ms),
        "load_s": round(load_s, 2),
        "seconds": round(time.perf_counter() - started, 1),
    }


def run(args: argparse.Namespace) -> int:
    try:
        teams_for(int(args.players))
    except ValueError:
        print("--players: 3, or 4 to 8", file=sys.stderr)
        return 2
    if args.games < 1:
        print("--games: at least 1", file=sys.stderr)
        return 2
    if args.opponent not in (None, "baseline", "easy", "normal", "hard"):
        print("--opponent: easy, normal, hard or baseline", file=sys.stderr)
        return 2
    result = simulate(args)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0
