"""Line and branch coverage per package from coverage.py's JSON report, held at a floor.

`make test` runs the non-browser tests under pytest-cov, which writes
test-artifacts/coverage.json (pyproject.toml, [tool.coverage.*]); this script then prints each
package's figures and the modules the tests barely reach, and fails when a package in PACKAGES
is under FLOOR percent of its lines (issue 20).

Outside CI a missing PostgreSQL or Redis skips the tests that need it (tests/conftest.py), and
the code only those tests reach goes unmeasured. tests/conftest.py writes which services the run
had to test-artifacts/services.json; a package that NEEDS a missing service is reported, with
the reason, but not held to the floor. Under CI=true the services are required, so the floor
holds for all. A report without the services file (an older run) is held in full.

    python scripts/check_coverage.py [coverage.json [services.json (default: beside it)]]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

FLOOR = 90.0  # percent of lines, per package
PACKAGES = ("games", "server", "store", "bus", "bots")
# The services whose tests measure a package: store's PostgreSQL adapter, bus's Redis bus, and
# the server tests that run rooms on both (tests/server/test_two_nodes.py).
NEEDS = {"store": ("postgres",), "bus": ("redis",), "server": ("postgres", "redis")}
BARELY = 50.0  # a module under this share of its lines is listed as untested


def package_of(path: str) -> str:
    """'src/codebreakers/games/decrypto/play.py' -> 'games'; a top-level module -> its name."""
    parts = Path(path).parts
    inside = parts[parts.index("codebreakers") + 1 :]
    return inside[0].removesuffix(".py")


def module_of(path: str) -> str:
    parts = Path(path).with_suffix("").parts
    return ".".join(parts[parts.index("codebreakers") :]).removesuffix(".__init__")


def missing_services(path: Path) -> set[str]:
    """The services tests/conftest.py found down in this run; none when it left no file."""
    if not path.exists():
        return set()
    return {name for name, up in json.loads(path.read_text()).items() if not up}


def main(report: Path, services: Path) -> int:
    files = json.loads(report.read_text())["files"]
    missing = missing_services(services)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    barely = []
    for path, data in files.items():
        summary = data["summary"]
        figures = totals[package_of(path)]
        figures[0] += summary["covered_lines"]
        figures[1] += summary["num_statements"]
        figures[2] += summary["covered_branches"]
        figures[3] += summary["num_branches"]
        if summary["num_statements"]:
            share = 100.0 * summary["covered_lines"] / summary["num_statements"]
            if share < BARELY:
                barely.append((module_of(path), share, summary["num_statements"]))
    failed = []
    print(f"{'package':<12} {'lines':>16} {'branches':>16}")
    for package in sorted(totals, key=lambda name: (name not in PACKAGES, name)):
        lines, statements, branches, all_branches = totals[package]
        if not statements:
            continue
        line_share = 100.0 * lines / statements
        branch_share = 100.0 * branches / all_branches if all_branches else 100.0
        note = ""
        if package in PACKAGES and line_share < FLOOR:
            absent = sorted(missing.intersection(NEEDS.get(package, ())))
            if absent:
                note = f"  under {FLOOR:.0f}%, not enforced: {', '.join(absent)} absent"
            else:
                note = "  FAIL"
                failed.append(package)
        print(
            f"{package:<12} {line_share:6.1f}% {lines:>4}/{statements:<4} "
            f"{branch_share:6.1f}% {branches:>4}/{all_branches:<4}{note}"
        )
    if barely:
        print(f"\nmodules under {BARELY:.0f}% of their lines:")
        for name, share, statements in sorted(barely):
            print(f"  {name:<52} {share:5.1f}% of {statements}")
    if failed:
        print(f"\ncoverage under {FLOOR:.0f}% of lines in: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    given = Path(sys.argv[1] if len(sys.argv) > 1 else "test-artifacts/coverage.json")
    # The services file is beside the report unless named.
    sys.exit(
        main(given, Path(sys.argv[2]) if len(sys.argv) > 2 else given.with_name("services.json"))
    )
