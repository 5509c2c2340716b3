"""Shared fixtures: the real services and browser, skipped when missing (failing under CI=true)."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest

POSTGRES_URL = os.environ.get(
    "CODEBREAKERS_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"
)
REDIS_URL = os.environ.get("CODEBREAKERS_TEST_REDIS", "redis://127.0.0.1:6379/0")
CHROMIUM = os.environ.get("CODEBREAKERS_CHROMIUM", "/usr/bin/chromium")
# Which services this run had, for scripts/check_coverage.py: a package whose tests skip for a
# missing service is reported but not held to the floor.
SERVICES_FILE = Path(__file__).resolve().parents[1] / "test-artifacts" / "services.json"


def pytest_configure(config: pytest.Config) -> None:
    """The controller (not each xdist worker) notes which services are up for this run."""
    if hasattr(config, "workerinput"):
        return
    SERVICES_FILE.parent.mkdir(exist_ok=True)
    found = {"postgres": url_open(POSTGRES_URL), "redis": url_open(REDIS_URL)}
    SERVICES_FILE.write_text(json.dumps(found) + "\n")


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


def url_open(url: str) -> bool:
    """Whether something listens where the service URL points."""
    parts = urlsplit(url)
    return port_open(parts.hostname or "127.0.0.1", parts.port or 0)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    require("PostgreSQL", url_open(POSTGRES_URL), f"nothing listens at {POSTGRES_URL}")
    return POSTGRES_URL


@pytest.fixture(scope="session")
def redis_url() -> str:
    require("Redis", url_open(REDIS_URL), f"nothing listens at {REDIS_URL}")
    return REDIS_URL


@pytest.fixture(scope="session")
def chromium_path() -> str:
    found = os.path.exists(CHROMIUM) or shutil.which(CHROMIUM) is not None
    require("Chromium", found, f"{CHROMIUM} not found (make test installs it as root)")
    return CHROMIUM
