"""Shared fixtures: the real services and browser, skipped when missing (failing under CI=true)."""

from __future__ import annotations

import os
import shutil
import socket
import tomllib
from pathlib import Path

import pytest

POSTGRES_URL = os.environ.get(
    "CODEBREAKERS_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"
)
REDIS_URL = os.environ.get("CODEBREAKERS_TEST_REDIS", "redis://127.0.0.1:6379/0")
CHROMIUM = os.environ.get("CODEBREAKERS_CHROMIUM", "/usr/bin/chromium")


ROOT = Path(__file__).resolve().parents[1]


def compiled_packages() -> list[str]:
    """The packages setup.py compiles in place (pyproject.toml, [tool.codebreakers.compiled])."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["codebreakers"]["compiled"]["packages"]  # type: ignore[no-any-return]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Stop before testing a compiled engine older than its source (setup.py compiles it in
    place; an edit takes effect only once `make` builds it again)."""
    folders = [ROOT / "src" / Path(*package.split(".")) for package in compiled_packages()]
    stale = [
        built.name
        for folder in folders
        for built in folder.glob("*.so")
        if (source := built.with_name(built.name.split(".")[0] + ".py")).exists()
        and source.stat().st_mtime > built.stat().st_mtime
    ]
    if stale:
        pytest.exit(f"compiled engine older than its source ({', '.join(stale)}): run `make`", 2)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/e2e drives a browser: mark it so `make test` runs those apart.

    Playwright's sync API keeps an event loop running in the worker process, which breaks any
    later asyncio test in the same process; `make test` runs the `browser` tests in their own
    pytest run for that reason.
    """
    for item in items:
        if "e2e" in item.path.parts:
            item.add_marker(pytest.mark.browser)


def require(what: str, available: bool, why: str) -> None:
    """Skip a test whose service or browser is missing; under CI that is a failure instead."""
    if available:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is required under CI=true but unavailable: {why}")
    pytest.skip(f"{what} unavailable: {why}")


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def postgres_url() -> str:
    require("PostgreSQL", port_open("127.0.0.1", 5432), "nothing listens on 127.0.0.1:5432")
    return POSTGRES_URL


@pytest.fixture(scope="session")
def redis_url() -> str:
    require("Redis", port_open("127.0.0.1", 6379), "nothing listens on 127.0.0.1:6379")
    return REDIS_URL


@pytest.fixture(scope="session")
def chromium_path() -> str:
    found = os.path.exists(CHROMIUM) or shutil.which(CHROMIUM) is not None
    require("Chromium", found, f"{CHROMIUM} not found (make test installs it as root)")
    return CHROMIUM
