"""The interface catalogs: same keys in every language, no empty text, every stable code covered.

Error codes reach the browser from the server (server/errors.py) and from each game engine's
rejections; the client shows `error.<code>` from the catalog, so a missing key would show a raw
code to players. Keys used literally in the client's modules must exist too.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from codebreakers.games.decrypto.clues import WARNING_CODES
from codebreakers.server.errors import ERROR_CODES

WEB = Path(__file__).resolve().parents[2] / "src" / "codebreakers" / "web"
LANGS = ("en", "fr", "ru", "ko")
# Game engines whose rejection codes the client must translate, once the engine exists.
ENGINES = ("codebreakers.games.decrypto.rejections", "codebreakers.games.mastermind.rejections")


def catalog(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def engine_codes() -> set[str]:
    codes: set[str] = set()
    for name in ENGINES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue  # that engine has not landed yet
        codes |= set(module.REJECTION_CODES)
    return codes


@pytest.mark.parametrize("lang", LANGS)
def test_same_keys_and_no_empty_text(lang: str) -> None:
    en = catalog("en")
    other = catalog(lang)
    assert sorted(set(en) - set(other)) == [], f"{lang} lacks keys"
    assert sorted(set(other) - set(en)) == [], f"{lang} has keys English lacks"
    assert [k for k, v in other.items() if not isinstance(v, str) or not v.strip()] == []


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_match_english(lang: str) -> None:
    en = catalog("en")
    other = catalog(lang)
    names = re.compile(r"\{(\w+)\}")
    wrong = [k for k in en if set(names.findall(en[k])) != set(names.findall(other[k]))]
    assert wrong == []


def test_every_error_code_is_translated() -> None:
    en = catalog("en")
    codes = set(ERROR_CODES) | engine_codes()
    assert "clue_reused" in codes  # the Decrypto engine is part of the product
    assert sorted(c for c in codes if f"error.{c}" not in en) == []


def test_every_clue_warning_is_translated() -> None:
    en = catalog("en")
    assert sorted(w for w in WARNING_CODES if f"warning.{w}" not in en) == []


def test_literal_keys_used_by_the_client_exist() -> None:
    en = catalog("en")
    used: set[str] = set()
    for path in WEB.rglob("*.js"):
        if "vendor" in path.parts:
            continue
        used |= set(re.findall(r"\bt\(\"([a-z_.]+)\"", path.read_text(encoding="utf-8")))
    assert len(used) > 100
    assert sorted(k for k in used if k not in en) == []
