"""The install: lock files that agree with pyproject.toml, and optional dependencies that stay
optional (`codebreakers serve` on one node imports none of them; a missing one is a clear line
and exit status 2, not a traceback)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = ["asyncpg", "redis", "granian", "httpx", "psutil", "wordfreq", "aiosqlite"]


def _pins(lock: str) -> dict[str, str]:
    pins = {}
    for line in (ROOT / lock).read_text().splitlines():
        if line and not line.startswith((" ", "#")):
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = version
    return pins


def _project() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]  # type: ignore[no-any-return]


def _requirements(*extras: str) -> list[Requirement]:
    project = _project()
    listed = list(project["dependencies"])  # type: ignore[call-overload]
    for extra in extras:
        listed += project["optional-dependencies"][extra]  # type: ignore[index]
    return [Requirement(text) for text in listed]


@pytest.mark.parametrize(
    ("lock", "extras"),
    [
        ("requirements.lock", ()),
        ("requirements-test.lock", ("postgres", "redis", "granian", "bench", "dev", "test")),
    ],
)
def test_each_lock_pins_every_requirement_within_its_range(
    lock: str, extras: tuple[str, ...]
) -> None:
    pins = _pins(lock)
    outside = {
        str(req): pins.get(canonicalize_name(req.name))
        for req in _requirements(*extras)
        if pins.get(canonicalize_name(req.name)) not in req.specifier
    }
    assert outside == {}, "run `make lock` after changing pyproject.toml's dependencies"


def test_the_runtime_lock_is_the_test_lock_s_versions() -> None:
    runtime, test = _pins("requirements.lock"), _pins("requirements-test.lock")
    assert {name: test.get(name) for name in runtime} == runtime


def test_the_runtime_lock_holds_no_optional_dependency() -> None:
    assert set(_pins("requirements.lock")) & {canonicalize_name(n) for n in OPTIONAL} == set()


def _python(code: str, blocked: list[str]) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter where importing any of `blocked` fails, as it would
    without the extra that installs it."""
    script = f"import sys\nfor name in {blocked!r}:\n    sys.modules[name] = None\n"
    return subprocess.run(
        [sys.executable, "-c", script + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_serve_imports_no_optional_dependency() -> None:
    done = _python(
        """
        import codebreakers.server.main
        from codebreakers.bus import open_bus
        open_bus(None)
        print("imported")
        """,
        OPTIONAL,
    )
    assert done.stdout.strip() == "imported", done.stderr


# Never the user's data directory nor a port in use, should a check let the server go on.
SERVE = ["serve", "--port", "1", "--db"]


@pytest.mark.parametrize(
    ("argv", "blocked", "extra"),
    [
        ([*SERVE, "postgresql://nobody@127.0.0.1:1/none"], "asyncpg", "postgres"),
        ([*SERVE, "{sqlite}", "--redis", "redis://127.0.0.1:1/0"], "redis", "redis"),
        ([*SERVE, "{sqlite}", "--server", "granian"], "granian", "granian"),
        (["bench", "--duration", "1"], "psutil", "bench"),
        (["campaign", "leaks"], "httpx", "bench"),
    ],
)
def test_a_missing_extra_is_one_line_and_exit_status_2(
    argv: list[str], blocked: str, extra: str, tmp_path: Path
) -> None:
    argv = [arg.replace("{sqlite}", f"sqlite:///{tmp_path / 'x.db'}") for arg in argv]
    done = _python(f"from codebreakers.cli import main\nsys.exit(main({argv!r}))", [blocked])
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"codebreakers {argv[0]}: {blocked} is not installed: "
        f"install codebreakers[{extra}] (pip install -e '.[{extra}]')\n"
    )
