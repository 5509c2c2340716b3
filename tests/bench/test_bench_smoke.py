"""`codebreakers bench` end to end at toy size: it starts a server, plays, and reports sane numbers.

No figure is compared with a target here (performance is measured by the command itself, see
docs/performance.md); these tests only prove that each mode runs and that what it reports is
consistent with what it did.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import codebreakers
from codebreakers.bench.servers import _command, _has_metrics_port

KEYS = {
    "players_connected",
    "actions_per_s",
    "pushes_per_s",
    "latency_ms",
    "server_rss_per_player_kib",
    "server_cpu",
    "loadgen_cpu",
}


def bench(*extra: str, timeout: float = 120) -> dict:
    cmd = [sys.executable, "-m", "codebreakers.cli", "bench", "--players", "12"]
    cmd += ["--duration", "3", "--rate", "6", "--json", *extra]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def check_report(report: dict, pushes_per_action: int) -> None:
    assert report.keys() >= KEYS
    assert report["players_connected"] == 12
    assert report["errors"] == {}
    assert report["incomplete_actions"] == 0
    assert report["actions_per_s"] > 0
    # every action reaches every member of its table at least once
    assert report["pushes_per_s"] >= pushes_per_action * report["actions_per_s"] * 0.75
    lat = report["latency_ms"]
    assert lat["count"] == report["actions"] > 0
    assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"] <= lat["max"]
    assert report["server_cpu"] > 0
    assert report["server_rss_mib"]["idle"] > 0


@pytest.mark.slow  # a server and a load generator start: 10-20 s
def test_bare_mode_reports_its_broadcasts() -> None:
    # 100 actions/s: at 6 the bare server's CPU in the window could stay under one clock tick
    # (10 ms) and read as 0.
    report = bench("--bare", "--rate", "100")
    check_report(report, pushes_per_action=6)
    assert report["mode"] == "bare"
    assert report["server_gc"] is None  # the bare endpoint has no /metrics
    assert report["pushes_per_s"] == pytest.approx(6 * report["actions_per_s"], rel=0.25)
    assert 2_900 <= report["push_bytes_avg"] <= 3_100  # the game's average push


@pytest.mark.slow  # a server and a load generator start: 10-20 s
def test_bare_mode_under_granian_with_the_size_asked() -> None:
    report = bench("--bare", "--server", "granian", "--push-bytes", "1600")
    check_report(report, pushes_per_action=6)
    assert report["server"] == "granian"
    assert 1_500 <= report["push_bytes_avg"] <= 1_700


@pytest.mark.slow  # a server and a load generator start: 10-20 s
def test_decrypto_mode_plays_through_the_real_server() -> None:
    report = bench()
    check_report(report, pushes_per_action=6)
    assert report["mode"] == "decrypto"
    kinds = report["latency_ms_by_kind"]
    assert kinds["transmit"]["count"] > 0  # the first moves of a round were made and seen
    assert sum(k["count"] for k in kinds.values()) == report["latency_ms"]["count"]
    gc = report["server_gc"]  # serve's young passes, every 0.25 s, during the 3 s window
    assert gc["young_passes"] >= 4 and 0 <= gc["share_of_window"] < 1


@pytest.mark.slow  # a server and a load generator start: 10-20 s
def test_bare_endpoint_on_picows_with_the_picows_client() -> None:
    # The same endpoint on another stack: the same broadcasts of the same size reach every
    # member, driven by the load generator's picows sockets.
    report = bench("--bare", "--rate", "100", "--server", "picows", "--client", "picows")
    check_report(report, pushes_per_action=6)
    assert report["server"] == "picows"
    assert report["loadgen_client"] == "picows"
    assert report["pushes_per_s"] == pytest.approx(6 * report["actions_per_s"], rel=0.25)
    assert 2_900 <= report["push_bytes_avg"] <= 3_100
    assert report["loadgen_cpu_us_per_frame"] > 0


@pytest.mark.slow  # a server and a load generator start: 10-20 s
def test_decrypto_mode_with_the_picows_client() -> None:
    report = bench("--client", "picows")
    check_report(report, pushes_per_action=6)
    assert report["loadgen_client"] == "picows"
    assert report["latency_ms_by_kind"]["transmit"]["count"] > 0


@pytest.mark.slow  # a server and a load generator start: 10-20 s
def test_servers_run_from_the_src_folder_given() -> None:
    # --server-src runs the servers from another checkout (here this one's own src, found
    # by path): the same game, played and reported as without it.
    src = Path(codebreakers.__file__).resolve().parents[1]
    report = bench("--server-src", str(src))
    check_report(report, pushes_per_action=6)
    assert report["mode"] == "decrypto"
    assert report["server_gc"]["young_passes"] > 0  # read from the node's own metrics port


def test_a_serve_without_a_metrics_port_is_started_without_the_option() -> None:
    assert _has_metrics_port({**os.environ})  # this checkout's serve takes it
    assert "--metrics-port" in _command(False, "uvicorn", 8000, 9100)
    assert "--metrics-port" not in _command(False, "uvicorn", 8000, None)


def test_picows_serves_the_bare_endpoint_only() -> None:
    cmd = [sys.executable, "-m", "codebreakers.cli", "bench", "--server", "picows", "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--bare" in done.stderr


@pytest.mark.slow  # two nodes on PostgreSQL and Redis, twice: 30-60 s
def test_both_placements_over_two_nodes(postgres_url: str, redis_url: str) -> None:
    report = bench(
        "--players", "24", "--rate", "8", "--nodes", "2", "--placement", "both",
        "--db", postgres_url, "--redis", redis_url, timeout=300,
    )  # fmt: skip
    runs = report["by_placement"]
    assert set(runs) == {"split", "tables"}
    # the top level is the split run's report, as without the option
    assert report["placement"] == "split"
    assert report["actions_per_s"] == runs["split"]["actions_per_s"]
    for placement, run in runs.items():
        assert run["placement"] == placement
        assert run["nodes"] == 2
        assert run["players_connected"] == 24
        assert run["errors"] == {} and run["incomplete_actions"] == 0
        assert run["actions_per_s"] > 0 and run["latency_ms"]["count"] == run["actions"]
        assert run["pushes_per_s"] >= 6 * run["actions_per_s"] * 0.75
        pg = run["postgres"]  # the database's own processes, sampled like the servers
        assert pg["processes"] >= 2 and pg["cpu"] >= 0
        assert pg["wal_bytes_per_s"] > 0  # the actions were written
        assert run["server_cpu_ms_per_action"] > 0
        bus = run["redis"]  # Redis's own counters: every action's notices reach both nodes
        # (and any other node on the machine's shared Redis: its channel is every node's)
        assert bus["subscribers"] >= 2 and bus["publishes_per_s"] > 0 and bus["cpu"] >= 0
    assert runs["split"]["tables_spanning_nodes"] == 4  # every table of 6 sits on both nodes
    assert runs["tables"]["tables_spanning_nodes"] == 0  # each table on one node
