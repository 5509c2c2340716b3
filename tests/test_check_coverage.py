"""scripts/check_coverage.py: per-package figures from coverage.py's JSON, and the floor."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "check_coverage.py"


def _file(covered: int, statements: int) -> dict[str, object]:
    summary = {"covered_lines": covered, "num_statements": statements}
    return {"summary": summary | {"covered_branches": 1, "num_branches": 2}}


def _check(
    tmp_path: Path, files: dict[str, object], services: dict[str, bool] | None = None
) -> subprocess.CompletedProcess[str]:
    report = tmp_path / "coverage.json"
    report.write_text(json.dumps({"files": files}))
    if services is not None:  # beside the report, where the script looks when not told
        (tmp_path / "services.json").write_text(json.dumps(services))
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(report)], capture_output=True, text=True, timeout=60
    )


def _row(output: str, package: str) -> list[str]:
    return next(line.split() for line in output.splitlines() if line.startswith(package + " "))


def test_a_package_under_the_floor_fails(tmp_path: Path) -> None:
    done = _check(
        tmp_path,
        {
            "src/codebreakers/games/a.py": _file(95, 100),
            "src/codebreakers/games/b.py": _file(80, 100),  # games: 175/200, 87.5%
            "src/codebreakers/bus/c.py": _file(100, 100),
        },
    )
    assert done.returncode == 1
    assert _row(done.stdout, "games") == ["games", "87.5%", "175/200", "50.0%", "2/4", "FAIL"]
    assert done.stderr == "\ncoverage under 90% of lines in: games\n"


def test_server_and_store_are_held_too_and_untested_modules_listed(tmp_path: Path) -> None:
    done = _check(
        tmp_path,
        {
            "src/codebreakers/games/a.py": _file(90, 100),
            "src/codebreakers/server/rooms/hub.py": _file(10, 100),
            "src/codebreakers/store/base.py": _file(89, 100),
            "src/codebreakers/bench/main.py": _file(0, 100),  # outside the five: reported only
        },
        {"postgres": True, "redis": True},
    )
    assert done.returncode == 1
    assert " ".join(_row(done.stdout, "server")) == "server 10.0% 10/100 50.0% 1/2 FAIL"
    assert " ".join(_row(done.stdout, "store")) == "store 89.0% 89/100 50.0% 1/2 FAIL"
    assert " ".join(_row(done.stdout, "bench")) == "bench 0.0% 0/100 50.0% 1/2"
    assert "  codebreakers.server.rooms.hub" in done.stdout
    assert done.stderr == "\ncoverage under 90% of lines in: server, store\n"


def test_a_missing_service_exempts_only_the_packages_that_need_it(tmp_path: Path) -> None:
    files = {
        "src/codebreakers/store/postgres/store.py": _file(10, 100),
        "src/codebreakers/bus/redis.py": _file(10, 100),
        "src/codebreakers/bots/a.py": _file(10, 100),
    }
    done = _check(tmp_path, files, {"postgres": False, "redis": True})
    assert done.returncode == 1
    assert " ".join(_row(done.stdout, "store")) == (
        "store 10.0% 10/100 50.0% 1/2 under 90%, not enforced: postgres absent"
    )
    assert _row(done.stdout, "bus")[-1] == "FAIL"
    assert done.stderr == "\ncoverage under 90% of lines in: bots, bus\n"

    done = _check(tmp_path, files, {"postgres": False, "redis": False})
    assert " ".join(_row(done.stdout, "bus")).endswith("not enforced: redis absent")
    assert done.stderr == "\ncoverage under 90% of lines in: bots\n"


def test_every_package_over_the_floor_passes(tmp_path: Path) -> None:
    names = ("games", "server", "store", "bus", "bots")
    done = _check(tmp_path, {f"src/codebreakers/{n}/m.py": _file(90, 100) for n in names})
    assert done.returncode == 0, done.stderr
    assert [_row(done.stdout, n)[1] for n in names] == ["90.0%"] * 5
    assert done.stderr == ""
