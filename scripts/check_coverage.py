"""Line and branch coverage per package from coverage.py's JSON report, held at a floor.

`make test` runs the non-browser tests under pytest-cov, which writes
test-artifacts/coverage.json (pyproject.toml, [tool.coverage.*]); this script then prints each
package's figures and the modules the tests barely reach, and fails when a package in ENFORCED
is under FLOOR percent of its lines. A package under the floor today is reported, not enforced
(issue 20 asks for 90% in each; docs/testing.md has the figures and the gap).

    python scripts/check_coverage.py [test-artifacts/coverage.json]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

FLOOR = 90.0  # percent of lines, per package
PACKAGES = ("games", "server", "store", "bus", "bots")
# Those at FLOOR or above when the check came in; server and store join once they reach it.
ENFORCED = frozenset({"games", "bus", "bots"})
BARELY = 50.0  # a module under this share of its lines is listed as untested


def package_of(path: str) -> str:
    """'src/codebreakers/games/decrypto/play.py' -> 'games'; a top-level module -> its name."""
    parts = Path(path).parts
    inside = parts[parts.index("codebreakers") + 1 :]
    return inside[0].removesuffix(".py")


def module_of(path: str) -> str:
    parts = Path(path).with_suffix("").parts
    return ".".join(parts[parts.index("codebreakers") :]).removesuffix(".__init__")


def main(report: Path) -> int:
    files = json.loads(report.read_text())["files"]
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
            note = "  FAIL" if package in ENFORCED else f"  under {FLOOR:.0f}%, not enforced yet"
            if package in ENFORCED:
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
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "test-artifacts/coverage.json")))
