"""The compiled engine (setup.py, mypyc) is what runs, and it plays exactly as its source.

Run as a script (`python test_compiled_engine.py`), this file prints the digest of the same
games played by the engine's source: it loads every `codebreakers.games.decrypto` module from
its `.py` file, never from the compiled extension beside it.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import pkgutil
import random
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = "codebreakers.games.decrypto"
SEEDS = range(12)


def _listed() -> dict[str, Any]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["codebreakers"]["compiled"]  # type: ignore[no-any-return]


def digest(seeds: range) -> str:
    """A hash of every view (all seats, a spectator and an open spectator) of every state of
    random six-player games, in every variant the seeds pick, and of their outcomes."""
    from codebreakers.games.base import Viewer
    from codebreakers.games.decrypto import RULES
    from codebreakers.sim.random_decrypto import play, teams_for

    hashed = hashlib.sha256()

    def views(state: Any) -> None:
        viewers = [Viewer(seat) for seat in state.table.all_seats]
        viewers += [Viewer(None), Viewer(None, open_spectator=True)]
        for frame in RULES.views_json(state, viewers):
            hashed.update(frame)
        hashed.update(json.dumps(RULES.view(state, viewers[0]), sort_keys=True).encode())

    for seed in seeds:
        rng = random.Random(seed)
        players = rng.choice([3, 4, 6, 8])
        teams, three = teams_for(players)
        options = {"three_player": three, "order": rng.choice(["simultaneous", "classic"])}
        options |= {"sand_timer": rng.random() < 0.5, "clue_limit_s": rng.choice([None, 60])}
        setup = {"options": options, "teams": teams, "seed": 10**12 + seed, "now": 1.7e9}
        played = play(setup, rng, rng.choice([0.0, 0.8, 1.0]), after_each=views)
        hashed.update(json.dumps(RULES.outcome(played.state), sort_keys=True).encode())
        hashed.update(str(played.events).encode())
    return hashed.hexdigest()


class _SourceOnly:
    """A finder that loads the engine's modules from their source files only."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> Any:
        if name != PACKAGE and not name.startswith(PACKAGE + "."):
            return None
        folder = ROOT / "src" / Path(*name.split("."))
        source = folder / "__init__.py" if folder.is_dir() else folder.with_suffix(".py")
        loader = importlib.machinery.SourceFileLoader(name, str(source))
        locations = [str(folder)] if folder.is_dir() else None
        return importlib.util.spec_from_file_location(
            name, source, loader=loader, submodule_search_locations=locations
        )


def _engine_modules() -> list[str]:
    package = importlib.import_module(PACKAGE)
    return [PACKAGE] + [
        f"{PACKAGE}.{info.name}"
        for info in pkgutil.iter_modules(package.__path__)
        if not info.ispkg
    ]


def _is_extension(name: str) -> bool:
    module = importlib.import_module(name)
    return isinstance(module.__loader__, importlib.machinery.ExtensionFileLoader)


def test_the_engine_runs_compiled_but_for_the_modules_kept_interpreted() -> None:
    if os.environ.get("CODEBREAKERS_PURE_PYTHON"):
        pytest.skip("installed with CODEBREAKERS_PURE_PYTHON: the engine is plain Python")
    kept = set(_listed()["interpreted"])
    assert PACKAGE in _listed()["packages"]
    modules = _engine_modules()
    assert kept < set(modules)
    not_compiled = [name for name in modules if name not in kept and not _is_extension(name)]
    assert not_compiled == [], "run `make` (pip install -e .) to build the engine with mypyc"
    assert not any(_is_extension(name) for name in kept)


def test_the_compiled_engine_plays_exactly_as_its_source() -> None:
    script = subprocess.run(
        [sys.executable, __file__],
        capture_output=True,
        text=True,
        check=True,
        timeout=240,
    )
    source_digest, extensions = script.stdout.split()
    assert extensions == "0"  # the script's engine came from source files only
    assert digest(SEEDS) == source_digest


if __name__ == "__main__":
    sys.meta_path.insert(0, _SourceOnly())
    result = digest(SEEDS)
    loaded = [name for name in sys.modules if name.startswith(PACKAGE)]
    print(result, sum(_is_extension(name) for name in loaded))
