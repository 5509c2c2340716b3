"""`codebreakers words stats`: the pool sizes as JSON or a table."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from codebreakers.cli import main
from codebreakers.games.decrypto.words import POOL_LANGUAGES, load_pool


def test_stats_json_prints_every_pool_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["words", "stats", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert list(printed) == list(POOL_LANGUAGES)
    assert printed == {lang: len(load_pool(lang)) for lang in POOL_LANGUAGES}
    assert all(count >= 440 for count in printed.values())


def test_stats_without_json_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["words", "stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["language", "keywords"]
    rows = {line.split()[0]: int(line.split()[1]) for line in lines[1:]}
    assert rows == {lang: len(load_pool(lang)) for lang in POOL_LANGUAGES}


def test_the_installed_command_runs_from_package_data() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "codebreakers.cli", "words", "stats", "--json"],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert json.loads(out) == {lang: len(load_pool(lang)) for lang in POOL_LANGUAGES}
