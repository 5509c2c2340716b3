"""Shared fixtures: the real services and browser, skipped when missing (failing under CI=true)."""

from __future__ import annotations

import os
import shutil
import socket

import pytest

POSTGRES_URL = os.environ.get(
    "CODEBREAKERS_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"
)
REDIS_URL = os.environ.get("CODEBREAKERS_TEST_REDIS", "redis://127.0.0.1:6379/0")
CHROMIUM = os.environ.get("CODEBREAKERS_CHROMIUM", "/usr/bin/chromium")


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
