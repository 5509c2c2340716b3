"""Reliability campaigns: repeatable attacks on a live server that count what was lost.

Each campaign (`codebreakers campaign NAME`) starts real `codebreakers serve` processes, does its
damage (SIGKILLs, a faulty network, junk frames, prying eyes, floods, an old database), then
checks the store and the frames against what the clients were promised, and prints a JSON
summary. The quick versions run in `tests/reliability/`; docs/reliability.md has the long runs.
"""

from __future__ import annotations

import json
from typing import Any


def report(summary: dict[str, Any], failures: list[str], as_json: bool) -> int:
    """Print a campaign's summary with its failures; the exit status says whether any."""
    summary["failures"] = failures
    print(json.dumps(summary, indent=None if as_json else 2))
    return 1 if failures else 0
