"""Reliability tests: the quick versions of `codebreakers campaign ...` (docs/reliability.md).

They reuse the server tests' harness and fixtures (tests/server/) for in-process checks.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SERVER_TESTS = Path(__file__).resolve().parents[1] / "server"
sys.path.insert(0, str(SERVER_TESTS))
_spec = importlib.util.spec_from_file_location("server_fixtures", SERVER_TESTS / "conftest.py")
assert _spec is not None and _spec.loader is not None
_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixtures)
server_with = _fixtures.server_with
server = _fixtures.server
