"""`codebreakers bench`: start the server(s), run the load generator beside them, report.

The load generator is a separate process so that its CPU is not the server's; this process only
starts things, samples the servers' memory and CPU with psutil at the moments the load generator
announces (`ready`: everyone seated and idle; `measuring` .. `done`: the measured window) and
prints one JSON object (or a short table).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Protocol

import psutil

from codebreakers.bench import collector, pgstats, redisstats
from codebreakers.bench.servers import (
    CpuSample,
    ServerSet,
    scratch_postgres,
    start_servers,
    temp_workdir,
)
from codebreakers.bench.sockets import PLACEMENTS
from codebreakers.server.ops.process import raise_nofile

SETTLE_S_PER_PLAYER = 1 / 4_000  # time for the server to finish the last joins before sampling
SAMPLE_EVERY_S = 0.5


def _read_event(stream: IO[str], name: str) -> dict[str, Any]:
    for line in stream:
        if line.startswith("{"):
            event: dict[str, Any] = json.loads(line)
            if event.get("event") == name:
                return event
    raise RuntimeError(f"the load generator ended before '{name}'")


class _PeakRss(threading.Thread):
    """The largest server RSS seen while the load runs."""

    def __init__(self, servers: ServerSet) -> None:
        super().__init__(daemon=True)
        self.servers = servers
        self.peak = 0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.wait(SAMPLE_EVERY_S):
            self.peak = max(self.peak, self.servers.rss())


def _loadgen_command(args: argparse.Namespace, urls: list[str]) -> list[str]:
    cmd = [sys.executable, "-m", "codebreakers.bench.loadgen", "--urls", ",".join(urls)]
    cmd += ["--players", str(args.players), "--duration", str(args.duration)]
    if args.rate:
        cmd += ["--rate", str(args.rate)]
    if args.bare:
        cmd.append("--bare")
    cmd += ["--client", args.client, "--placement", args.placement]
    return cmd


class CpuTimes(Protocol):
    """What is read of a psutil.cpu_times() sample (a named tuple of seconds per CPU state)."""

    @property
    def idle(self) -> float: ...

    def __iter__(self) -> Iterator[float]: ...


def _machine_busy(before: CpuTimes, after: CpuTimes, span: float) -> float:
    """Cores busy on the whole machine between two psutil.cpu_times() samples."""
    busy = sum(after) - sum(before) - (after.idle - before.idle)
    return round(busy / max(1e-9, span), 3)


def _server_report(
    window: tuple[CpuSample, CpuSample], rss: tuple[int, int, int], players: int
) -> dict[str, Any]:
    before, idle, peak = rss
    cpu = window[1].rates(window[0])
    return {
        "server_cpu": cpu.pop("cores"),
        "server_cpu_detail": cpu,
        "server_rss_mib": {
            "before": round(before / 2**20, 1),
            "idle": round(idle / 2**20, 1),
            "peak": round(max(peak, idle) / 2**20, 1),
        },
        "server_rss_per_player_kib": round((idle - before) / max(1, players) / 1024, 1),
    }


def _measure(
    args: argparse.Namespace, urls: list[str], servers: ServerSet | None
) -> dict[str, Any]:
    rss_base = servers.rss() if servers else 0
    # The game's /metrics is on each node's own metrics port: known for the servers started here.
    scraped = servers.metrics_urls if servers and not args.bare else None
    gen = subprocess.Popen(
        _loadgen_command(args, urls), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert gen.stdin is not None and gen.stdout is not None
    try:
        ready = _read_event(gen.stdout, "ready")
        time.sleep(min(3.0, 0.5 + ready["players_connected"] * SETTLE_S_PER_PLAYER))
        rss_idle = servers.rss() if servers else 0
        gen.stdin.write("go\n")
        gen.stdin.flush()
        _read_event(gen.stdout, "measuring")
        peak = _PeakRss(servers) if servers else None
        if peak:
            peak.start()
        pg = pgstats.local_postgres(args.db)
        pg0 = pgstats.sample(*pg) if pg else None
        rd0 = redisstats.sample(args.redis) if args.redis else None
        cpu0, machine0, t0 = (
            servers.cpu_sample() if servers else None,
            psutil.cpu_times(),
            time.monotonic(),
        )
        # After the CPU sample: a loaded server may take a while to answer.
        gc0 = collector.young_passes(scraped) if scraped else None
        _read_event(gen.stdout, "done")
        cpu1, machine1, t1 = (
            servers.cpu_sample() if servers else None,
            psutil.cpu_times(),
            time.monotonic(),
        )
        pg1 = pgstats.sample(*pg) if pg else None
        rd1 = redisstats.sample(args.redis) if args.redis else None
        gc1 = collector.young_passes(scraped) if scraped else None
        if peak:
            peak.halt.set()
        result = _read_event(gen.stdout, "result")
        gen.wait(timeout=30)
    finally:
        if gen.poll() is None:
            gen.kill()
            gen.wait()
    report: dict[str, Any] = {
        "mode": "bare" if args.bare else "decrypto",
        "server": args.server if servers else None,
        "nodes": len(urls),
        "players_requested": args.players,
        **{k: v for k, v in result.items() if k != "event"},
        "setup_s": ready["setup_s"],
        "machine_cpu_busy": _machine_busy(machine0, machine1, t1 - t0),
        "server_gc": collector.window_report(gc0, gc1, t1 - t0),
    }
    if servers and cpu0 and cpu1:
        rss = (rss_base, rss_idle, peak.peak if peak else 0)
        report |= _server_report((cpu0, cpu1), rss, ready["players_connected"])
        served = report["actions_per_s"]
        report["server_cpu_ms_per_action"] = (
            round(report["server_cpu"] * 1000 / served, 3) if served else None
        )
    if pg and pg0 and pg1:
        report["postgres"] = pgstats.window_report(
            pg[0], pg0, pg1, t1 - t0, report["actions_per_s"]
        )
    if rd0 and rd1:
        report["redis"] = redisstats.window_report(rd0, rd1, t1 - t0, report["actions_per_s"])
    return report


def _print_table(report: dict[str, Any]) -> None:
    lat = report["latency_ms"]
    rows = [
        ("mode", f"{report['mode']} ({report['server'] or 'external'}, {report['nodes']} node(s))"),
        (
            "placement",
            f"{report['placement']} ({report['tables_spanning_nodes']} tables span nodes)",
        ),
        ("load generator client", report["loadgen_client"]),
        ("players connected", report["players_connected"]),
        ("actions/s", f"{report['actions_per_s']} (target {report['rate_target']})"),
        ("pushes/s", report["pushes_per_s"]),
        ("latency ms", f"p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  max {lat['max']}"),
        ("incomplete actions", report["incomplete_actions"]),
        ("server CPU (cores)", report.get("server_cpu")),
        ("load generator CPU", report["loadgen_cpu"]),
        ("server KiB/idle player", report.get("server_rss_per_player_kib")),
        ("errors", report["errors"] or "none"),
    ]
    for name, value in rows:
        print(f"{name:>24}  {value}")


def _run_once(args: argparse.Namespace) -> dict[str, Any]:
    if args.url:
        return _measure(args, args.url.split(","), None)
    with temp_workdir() as tmp:
        servers = start_servers(
            bare=args.bare,
            server=args.server,
            nodes=args.nodes,
            db=args.db,
            redis=args.redis,
            workdir=Path(tmp),
            push_bytes=args.push_bytes,
            server_src=Path(args.server_src) if args.server_src else None,
        )
        try:
            return _measure(args, servers.urls, servers)
        except BaseException:
            print(servers.log_tail(), file=sys.stderr)
            raise
        finally:
            servers.stop()


def _run_placements(args: argparse.Namespace) -> dict[str, Any]:
    """`--placement both`: players of each table split over the nodes, then whole tables on
    one node each, one after the other on fresh servers (on PostgreSQL each in a scratch
    database of its own, since a server resumes its database's unfinished games). The report
    is the split run's, as without the option, plus both runs under `by_placement`."""
    runs: dict[str, dict[str, Any]] = {}
    for placement in PLACEMENTS:
        one = argparse.Namespace(**{**vars(args), "placement": placement})
        if one.db and one.db.startswith(("postgresql", "postgres:")) and not one.url:
            with scratch_postgres(one.db) as url:
                one.db = url
                runs[placement] = _run_once(one)
        else:
            runs[placement] = _run_once(one)
    return {**runs["split"], "by_placement": runs}


def run(args: argparse.Namespace) -> int:
    if args.nodes > 1 and not args.url and not (args.redis and args.db):
        print("bench: --nodes > 1 needs --db (shared) and --redis", file=sys.stderr)
        return 2
    if args.server == "picows" and not args.bare:
        print("bench: --server picows serves the bare endpoint only (with --bare)", file=sys.stderr)
        return 2
    raise_nofile(args.players * 2 + 4_096)
    report = _run_placements(args) if args.placement == "both" else _run_once(args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_table(report)
        for placement, one in report.get("by_placement", {}).items():
            print(f"\n{'placement':>24}  {placement}")
            _print_table(one)
    return 0
