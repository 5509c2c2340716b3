"""The build: the Decrypto engine compiled with mypyc, the rest of the package as it is.

The engine (rules, state, views) is plain typed Python; mypyc turns its modules into C
extensions that build a state's views about a third faster, which is where a server at
full load spends most of its Python time (docs/architecture.md, "The compiled engine").
The modules to compile are listed in pyproject.toml under [tool.codebreakers.compiled].
Without a C compiler, or with CODEBREAKERS_PURE_PYTHON=1, the package installs as plain
Python: the same source, slower, and `tests/games/decrypto/test_compiled_engine.py` says so.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from setuptools import setup

PURE_ENV = "CODEBREAKERS_PURE_PYTHON"
GROUP = "codebreakers_engine"  # the compiled modules' shared library


def compiled_sources() -> list[str]:
    """Paths of the modules to compile: every module of the listed packages but those kept
    interpreted (paths from the project's folder, where setuptools runs this file)."""
    listed = tomllib.loads(Path("pyproject.toml").read_text())["tool"]["codebreakers"]
    kept = set(listed["compiled"]["interpreted"])
    sources = []
    for package in listed["compiled"]["packages"]:
        folder = Path("src", *package.split("."))
        for path in sorted(folder.glob("*.py")):
            name = f"{package}.{path.stem}".removesuffix(".__init__")
            if name not in kept:
                sources.append(str(path))
    return sources


def remove_compiled() -> None:
    """Delete the extensions an earlier build left beside the sources: Python would import them
    instead of the sources."""
    for source in compiled_sources():
        for built in Path(source).parent.glob(Path(source).stem + ".*.so"):
            built.unlink()
    for shared in Path("src").glob(f"{GROUP}__mypyc.*.so"):
        shared.unlink()


def extensions() -> list[object]:
    if os.environ.get(PURE_ENV):
        remove_compiled()
        return []
    try:
        from mypyc.build import mypycify

        built = mypycify(compiled_sources(), opt_level="3", group_name=GROUP)
    except Exception as error:  # no mypyc or the sources don't type-check: plain Python
        print(f"codebreakers: the engine stays interpreted ({error})", file=sys.stderr)
        return []
    for extension in built:
        extension.optional = True  # no C compiler: plain Python
    return built


setup(ext_modules=extensions())
