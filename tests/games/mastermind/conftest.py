"""Fixtures for the Mastermind tests."""

from __future__ import annotations

import pytest
from mastermind_table import Match


@pytest.fixture
def match() -> Match:
    return Match()
