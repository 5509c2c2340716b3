"""The settings of `codebreakers serve` (server/ops/settings.py): each one an option and an
environment variable, the command line over the environment over the default, a bad value one
line and exit status 2, and the docs' table the one the declarations make."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codebreakers.cli import build_parser, main
from codebreakers.server.ops import ipguard
from codebreakers.server.ops.config import ServerConfig
from codebreakers.server.ops.proxies import TrustedProxies
from codebreakers.server.ops.settings import (
    DEFAULTS,
    ENTRIES,
    SettingError,
    Settings,
    markdown_table,
)

ROOT = Path(__file__).resolve().parents[2]
BY_NAME = {entry.name: entry for entry in ENTRIES}

# What scripts, tests, campaigns, benches and docs start servers with: never renamed.
KNOWN_OPTIONS = {
    "--host": "CODEBREAKERS_HOST",
    "--port": "CODEBREAKERS_PORT",
    "--db": "CODEBREAKERS_DB",
    "--redis": "CODEBREAKERS_REDIS",
    "--server": "CODEBREAKERS_SERVER",
    "--public-url": "CODEBREAKERS_PUBLIC_URL",
    "--log-level": "CODEBREAKERS_LOG_LEVEL",
    "--log-format": "CODEBREAKERS_LOG_FORMAT",
    "--bot-delay": "CODEBREAKERS_BOT_DELAY",
    "--offer-bots-after": "CODEBREAKERS_OFFER_BOTS_AFTER",
    "--per-ip-sockets": "CODEBREAKERS_PER_IP_SOCKETS",
    "--per-ip-frames-per-s": "CODEBREAKERS_PER_IP_FRAMES_PER_S",
    "--per-ip-rooms-per-min": "CODEBREAKERS_PER_IP_ROOMS_PER_MIN",
    "--trusted-proxies": "CODEBREAKERS_TRUSTED_PROXIES",
    "--metrics-port": "CODEBREAKERS_METRICS_PORT",
    "--metrics-host": "CODEBREAKERS_METRICS_HOST",
}

# A text each setting takes, and the value it reads as (none of them the default).
GOOD: dict[str, tuple[str, Any]] = {
    "host": ("0.0.0.0", "0.0.0.0"),
    "port": ("9001", 9001),
    "db": (
        "postgresql://cb:secret@db.internal:5432/cb",
        "postgresql://cb:secret@db.internal:5432/cb",
    ),
    "redis": ("rediss://redis.internal:6379/0", "rediss://redis.internal:6379/0"),
    "public_url": ("https://games.example.org", "https://games.example.org"),
    "log_level": ("WARNING", "warning"),
    "log_format": ("text", "text"),
    "server": ("granian", "granian"),
    "bot_delay": ("0", 0.0),
    "offer_bots_after": ("2.5", 2.5),
    "per_ip_sockets": ("0", 0),
    "per_ip_frames_per_s": ("1e3", 1000.0),
    "per_ip_rooms_per_min": ("0.5", 0.5),
    "metrics_port": ("9100", 9100),
    "metrics_host": ("10.0.3.7", "10.0.3.7"),
    "trusted_proxies": ("10.0.0.0/8, ::1", TrustedProxies.parse("10.0.0.0/8,::1")),
}

# A text each setting refuses, and what the line says it takes.
BAD: dict[str, tuple[str, str]] = {
    "host": (" ", "a host name or an IP address"),
    "port": ("80O0", "an integer from 0 to 65535"),
    "db": ("mysql://db/cb", "a sqlite:///path/to/file.db or postgresql://user@host/db URL"),
    "redis": ("localhost:6379", "a redis://, rediss:// or unix:// URL"),
    "public_url": ("games.example.org", "an http:// or https:// URL with a host"),
    "log_level": ("loud", "one of debug, info, warning, error, critical"),
    "log_format": ("xml", "one of json, text"),
    "server": ("gunicorn", "one of uvicorn, granian"),
    "bot_delay": ("-1", "a number ≥ 0"),
    "offer_bots_after": ("soon", "a number ≥ 0"),
    "per_ip_sockets": ("1.5", "an integer ≥ 0"),
    "per_ip_frames_per_s": ("nan", "a number ≥ 0"),
    "per_ip_rooms_per_min": ("inf", "a number ≥ 0"),
    "metrics_port": ("65536", "an integer from 0 to 65535"),
    "metrics_host": (" ", "a host name or an IP address"),
    "trusted_proxies": ("10.0.0.300", "addresses and networks (10.0.0.0/8), comma-separated, or *"),
}


@pytest.fixture(autouse=True)
def no_settings_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever started the tests (the browser tests set some), each test sets its own."""
    for entry in ENTRIES:
        monkeypatch.delenv(entry.env, raising=False)


def parsed(*argv: str) -> Settings:
    return Settings.from_args(build_parser().parse_args(["serve", *argv]))


def test_every_setting_is_an_option_and_a_variable_of_the_old_names() -> None:
    assert {entry.option: entry.env for entry in ENTRIES} == KNOWN_OPTIONS
    assert set(GOOD) == set(BAD) == set(BY_NAME)


def test_no_option_and_no_variable_is_every_default() -> None:
    assert parsed() == Settings() == DEFAULTS
    assert DEFAULTS.port == 8000 and DEFAULTS.host == "127.0.0.1" and DEFAULTS.db is None


@pytest.mark.parametrize("name", sorted(GOOD))
def test_each_setting_reads_from_its_option_and_its_variable(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = BY_NAME[name]
    text, value = GOOD[name]
    assert value != entry.default
    assert getattr(parsed(entry.option, text), name) == value
    assert getattr(Settings.from_environ({entry.env: text}), name) == value
    monkeypatch.setenv(entry.env, text)
    assert getattr(parsed(), name) == value


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_value_names_its_source_and_what_the_setting_takes(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = BY_NAME[name]
    text, takes = BAD[name]
    shown = f"'{text}'" if text.strip() != text or not text else text
    with pytest.raises(SettingError) as given:
        parsed(entry.option, text)
    assert str(given.value) == f"{entry.option}={shown}: expected {takes}"
    with pytest.raises(SettingError) as from_environ:
        Settings.from_environ({entry.env: text})
    assert str(from_environ.value) == f"{entry.env}={shown}: expected {takes}"
    monkeypatch.setenv(entry.env, text)
    with pytest.raises(SettingError) as variable:
        parsed()
    assert str(variable.value) == f"{entry.env}={shown}: expected {takes}"


def test_the_command_line_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEBREAKERS_PORT", "9001")
    monkeypatch.setenv("CODEBREAKERS_BOT_DELAY", "0.5")
    settings = parsed("--port", "9002")
    assert (settings.port, settings.bot_delay) == (9002, 0.5)
    monkeypatch.setenv("CODEBREAKERS_PORT", "not a port")  # never read: the option is given
    assert parsed("--port", "9003").port == 9003
    monkeypatch.setenv("CODEBREAKERS_PORT", "")  # empty: unset
    assert parsed().port == 8000


def test_an_empty_option_is_no_value_for_the_optional_ones() -> None:
    assert parsed("--db", "", "--redis", "", "--public-url", "").db is None
    assert parsed("--trusted-proxies", "").trusted_proxies == DEFAULTS.trusted_proxies


def test_main_prints_one_line_and_returns_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--per-ip-sockets", "-3"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == "codebreakers serve: --per-ip-sockets=-3: expected an integer ≥ 0\n"


@pytest.mark.parametrize(
    ("variable", "text", "line"),
    [
        ("CODEBREAKERS_PORT", "abc", "CODEBREAKERS_PORT=abc: expected an integer from 0 to 65535"),
        (
            "CODEBREAKERS_PER_IP_SOCKETS",
            "-1",
            "CODEBREAKERS_PER_IP_SOCKETS=-1: expected an integer ≥ 0",
        ),
        ("CODEBREAKERS_BOT_DELAY", "1,2", "CODEBREAKERS_BOT_DELAY=1,2: expected a number ≥ 0"),
        (
            "CODEBREAKERS_LOG_FORMAT",
            "xml",
            "CODEBREAKERS_LOG_FORMAT=xml: expected one of json, text",
        ),
        (
            "CODEBREAKERS_TRUSTED_PROXIES",
            "10.0.0.300",
            "CODEBREAKERS_TRUSTED_PROXIES=10.0.0.300: expected addresses and networks "
            "(10.0.0.0/8), comma-separated, or *",
        ),
    ],
)
def test_serve_with_a_bad_variable_exits_2_with_one_line(
    variable: str, text: str, line: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEBREAKERS_")}
    env[variable] = text
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "codebreakers.cli",
            "serve",
            "--db",
            f"sqlite:///{tmp_path / 'x.db'}",
        ],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr == f"codebreakers serve: {line}\n"
    assert done.stdout == ""


def test_a_bad_option_on_the_real_command_line_exits_2_with_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEBREAKERS_")}
    done = subprocess.run(
        [sys.executable, "-m", "codebreakers.cli", "serve", "--metrics-port", "http"],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (
        2,
        "codebreakers serve: --metrics-port=http: expected an integer from 0 to 65535\n",
    )


def test_settings_travel_through_the_environment_unchanged() -> None:
    """granian's worker builds the app from the variables serve wrote."""
    changed = Settings(**{name: value for name, (_text, value) in GOOD.items()})
    assert Settings.from_environ(changed.environ()) == changed
    assert Settings.from_environ(DEFAULTS.environ()) == DEFAULTS
    star = Settings(trusted_proxies=TrustedProxies.parse("*"))
    assert Settings.from_environ(star.environ()) == star


def test_the_node_s_defaults_are_the_settings_defaults() -> None:
    assert ServerConfig.from_settings(DEFAULTS) == ServerConfig()
    assert ServerConfig().per_ip == DEFAULTS.ip_limits()
    # The settings' three numbers shaped into buckets: 64 sockets (and 64 new ones at once, then
    # 4 a second), 60 frames a second after 300, 12 rooms a minute after 20, and with the rooms'
    # setting 60 first-visit profiles at once, then one a second.
    assert DEFAULTS.ip_limits() == ipguard.IpLimits(64, 64, 4, 300, 60, 20, 0.2, 60, 1)
    config = ServerConfig.from_settings(parsed("--bot-delay", "0", "--metrics-port", "9100"))
    assert (config.bot_delay_s, config.metrics_port) == (0.0, 9100)
    # The load generators' and campaigns' environment turns every per-address limit off.
    assert Settings.from_environ(ipguard.OFF_ENV).ip_limits() == ipguard.OFF


def _generated_block(doc: str) -> str:
    begin, end = "<!-- settings: begin", "<!-- settings: end -->"
    assert begin in doc and end in doc, "docs/deployment.md lost its settings markers"
    return doc.split(begin, 1)[1].split("\n", 1)[1].split(end, 1)[0]


def test_the_deployment_table_is_the_generated_one() -> None:
    doc = (ROOT / "docs" / "deployment.md").read_text()
    assert _generated_block(doc) == markdown_table(), (
        "docs/deployment.md, Settings: paste `python -m codebreakers.server.ops.settings`"
    )


ROW = re.compile(r"^\| `(--[a-z-]+)[^`]*` \| `(CODEBREAKERS_[A-Z_]+)` \| ([^|]*) \|", re.M)


@pytest.mark.parametrize("doc", ["docs/deployment.md", "docs/server.md", "README.md"])
def test_every_settings_row_in_the_docs_names_a_setting_and_its_default(doc: str) -> None:
    rows = ROW.findall((ROOT / doc).read_text())
    by_option = {entry.option: entry for entry in ENTRIES}
    for option, env, default in rows:
        entry = by_option[option]
        assert env == entry.env, (doc, option)
        if entry.spec.shown is None:  # a default its text says: the row starts with it
            assert default.startswith(f"`{entry.write(entry.default)}`"), (doc, option, default)
    for env in set(re.findall(r"CODEBREAKERS_[A-Z_]+", (ROOT / doc).read_text())):
        assert env in {entry.env for entry in ENTRIES}, (doc, env)
