"""The `codebreakers` command: one entry point, each sub-command implemented in its own module.

Sub-command modules are imported lazily so `codebreakers words stats` never pays for the server
or the embedding model; only the declarations of serve's settings (server/ops/settings.py) are
imported for every command, to make serve's options.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from codebreakers.server.ops.settings import SettingError, Settings, add_arguments


def _serve_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """An option per setting (server/ops/settings.py), its default from the environment."""
    add_arguments(sub.add_parser("serve", help="serve the site"))


def _simulate_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("simulate", help="play many games without a server")
    games = p.add_subparsers(dest="game", required=True)
    d = games.add_parser("decrypto", help="random legal players, or bots with --bots")
    d.add_argument("--games", type=int, default=100)
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--players", default="4", help="4..8, or 3 for the 3-player variant")
    d.add_argument(
        "--views", action="store_true", help="serialize every seat's view after each action"
    )
    d.add_argument("--bots", action="store_true", help="bot players instead of random ones")
    d.add_argument("--level", default="hard", choices=["easy", "normal", "hard"])
    d.add_argument("--opponent", default=None, help="level of the Black team, or 'baseline'")
    d.add_argument("--lang", default="en", choices=["en", "fr", "ru", "ko"])
    d.add_argument("--json", action="store_true")
    r = games.add_parser("readers", help="independent readers decode the bots' transmissions")
    r.add_argument("--lang", default="en", choices=["en", "fr", "ru", "ko"])
    r.add_argument("--games", type=int, default=20)
    r.add_argument("--level", default="hard", choices=["easy", "normal", "hard"])
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--reader", default=None, choices=["e5", "glove", "fasttext-fr"])
    r.add_argument("--human", default=None, help="also read a development-set file of people's")
    r.add_argument("--json", action="store_true")
    m = games.add_parser("mastermind", help="the computer breaker against codes")
    m.add_argument("--pegs", type=int, default=5)
    m.add_argument("--colours", type=int, default=8)
    m.add_argument("--all", action="store_true", help="every possible code")
    m.add_argument("--games", type=int, default=100)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--json", action="store_true")


def _bot_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bot", help="ask a Decrypto bot directly")
    roles = p.add_subparsers(dest="role", required=True)
    d = roles.add_parser("decode", help="which code do these clues point at")
    d.add_argument("--lang", default="en", choices=["en", "fr", "ru", "ko"])
    d.add_argument("--keywords", required=True, help="w1,w2,w3,w4")
    d.add_argument("--clues", required=True, help="c1;c2;c3")
    d.add_argument("--json", action="store_true")
    c = roles.add_parser("clue", help="three clues for a code")
    c.add_argument("--lang", default="en", choices=["en", "fr", "ru", "ko"])
    c.add_argument("--keywords", required=True, help="w1,w2,w3,w4")
    c.add_argument("--code", required=True, help="for example 4-2-1")
    c.add_argument("--level", default="hard", choices=["easy", "normal", "hard"])
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--json", action="store_true")
    a = roles.add_parser("audit", help="sampled transmissions, each clue with why and its risks")
    a.add_argument("--lang", default="en", choices=["en", "fr", "ru", "ko"])
    a.add_argument("--samples", type=int, default=100)
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--level", default="all", choices=["easy", "normal", "hard", "all"])
    a.add_argument("--json", action="store_true")


def _bench_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bench", help="load benchmark against a server")
    p.add_argument("--players", type=int, default=600)
    p.add_argument("--duration", type=float, default=30.0)
    p.add_argument("--url", default=None, help="a running server (default: start one)")
    p.add_argument("--rate", type=float, default=None, help="target actions per second")
    p.add_argument("--bare", action="store_true", help="measure the bare broadcast endpoint")
    p.add_argument(
        "--push-bytes",
        type=int,
        default=None,
        help="--bare: the size of each pushed text (default: the game's average push, 3,000)",
    )
    p.add_argument(
        "--server",
        choices=["uvicorn", "granian", "picows"],
        default="uvicorn",
        help="picows: --bare only, the bare endpoint on picows instead of an ASGI server",
    )
    p.add_argument(
        "--client",
        choices=["websockets", "picows"],
        default="websockets",
        help="the load generator's WebSocket library",
    )
    p.add_argument(
        "--placement",
        choices=["split", "tables", "both"],
        default="split",
        help="--nodes: each table's players split over the nodes, whole tables on one node "
        "each, or both in turn",
    )
    p.add_argument("--db", default=None)
    p.add_argument("--redis", default=None)
    p.add_argument("--nodes", type=int, default=1)
    p.add_argument(
        "--server-src",
        default=None,
        help="run the servers from this src folder (another commit's checkout); "
        "the load generator stays this one",
    )
    p.add_argument("--json", action="store_true")


def _bench_ratings_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bench-ratings", help="fill a database, time leaderboards and profiles")
    p.add_argument("--profiles", type=int, default=10_000)
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--measure-only", action="store_true", help="no fill: time a filled database")
    p.add_argument(
        "--ends", type=int, default=1000, help="game ends timed of each kind, rated and unrated"
    )
    p.add_argument("--json", action="store_true", help="one line of JSON")


CAMPAIGNS = ("crash", "network", "fuzz", "leaks", "abuse", "upgrade")


def _campaign_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("campaign", help="a reliability campaign (docs/reliability.md)")
    p.add_argument("name", choices=[*CAMPAIGNS, "all"])
    p.add_argument("--count", type=int, default=None, help="kills, faults or floods")
    p.add_argument("--frames", type=int, default=None, help="fuzz: frames to send")
    p.add_argument("--games", type=int, default=None, help="tables or games to play")
    p.add_argument("--bots", type=int, default=None, help="crash: bot seats per table")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    p.add_argument("--redis", default=None, help="Redis URL for the bus between nodes")
    p.add_argument("--nodes", type=int, default=1)
    p.add_argument("--json", action="store_true", help="one line of JSON")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="codebreakers", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    _serve_parser(sub)
    _simulate_parser(sub)
    replay = sub.add_parser("replay", help="replay a game record and print its outcome as JSON")
    replay.add_argument("file")
    words = sub.add_parser("words", help="the keyword pools")
    words_sub = words.add_subparsers(dest="words_command", required=True)
    stats = words_sub.add_parser("stats", help="how many keywords each pool holds")
    stats.add_argument("--json", action="store_true")
    _bot_parser(sub)
    _bench_parser(sub)
    _bench_ratings_parser(sub)
    _campaign_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a sub-command; a setting's bad value, or an optional dependency it needs but lacks,
    is one line and status 2."""
    from codebreakers.extras import check_serve, missing_extra

    try:
        args = build_parser().parse_args(argv)
    except SettingError as error:
        print(f"codebreakers serve: {error}", file=sys.stderr)
        return 2
    try:
        if args.command == "serve":
            check_serve(args.db, args.redis, args.server)
        return _run(args)
    except ModuleNotFoundError as error:
        message = missing_extra(error)
        if message is None:
            raise
        print(f"codebreakers {args.command}: {message}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "serve":
        from codebreakers.server.main import serve

        return serve(Settings.from_args(args))
    if args.command == "simulate" and args.game == "decrypto":
        if args.bots:
            from codebreakers.sim.decrypto_bots import run as run_bots

            return run_bots(args)
        from codebreakers.sim.decrypto import run as run_decrypto

        return run_decrypto(args)
    if args.command == "simulate" and args.game == "readers":
        from codebreakers.sim.readers import run as run_readers

        return run_readers(args)
    if args.command == "simulate":
        from codebreakers.sim.mastermind import run as run_mastermind

        return run_mastermind(args)
    if args.command == "replay":
        from codebreakers.sim.replay import run as run_replay

        return run_replay(args)
    if args.command == "words":
        from codebreakers.sim.words import run as run_words

        return run_words(args)
    if args.command == "bot":
        from codebreakers.bots.cli import run as run_bot

        return run_bot(args)
    if args.command == "bench-ratings":
        from codebreakers.bench.ratings_bench import run as run_ratings_bench

        return run_ratings_bench(args)
    if args.command == "campaign":
        from importlib import import_module

        names = CAMPAIGNS if args.name == "all" else (args.name,)
        results: list[int] = [import_module(f"codebreakers.campaigns.{n}").run(args) for n in names]
        return max(results)
    from codebreakers.bench.main import run as run_bench

    return run_bench(args)


if __name__ == "__main__":
    sys.exit(main())
