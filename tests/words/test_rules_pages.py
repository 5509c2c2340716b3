"""The How-to-play pages: four languages with the same sections, plain text, the same figures."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

import codebreakers

RULES_DIR = Path(codebreakers.__file__).parent / "web" / "rules"
LANGUAGES = ("en", "fr", "ru", "ko")
# The sections the client's "?" button opens, per game; every language must have them all.
REQUIRED = {
    "decrypto": {
        "overview",
        "teams",
        "round",
        "transmit",
        "decode",
        "intercept",
        "reveal",
        "tokens",
        "end",
        "tiebreak",
        "clue_rules",
        "timers",
        "three_player",
        "notes_sheet",
        "chat",
    },
    "mastermind": {
        "overview",
        "marking",
        "scoring",
        "match",
        "manual_marking",
        "sizes",
        "computer",
    },
}


def load(lang: str) -> dict[str, Any]:
    with (RULES_DIR / f"{lang}.json").open(encoding="utf-8") as f:
        page: dict[str, Any] = json.load(f)
    return page


def section_ids(page: dict[str, Any], game: str) -> list[str]:
    return [section["id"] for section in page[game]["sections"]]


def texts(page: dict[str, Any]) -> list[str]:
    found = []
    for game in page.values():
        found.append(game["title"])
        for section in game["sections"]:
            found.append(section["title"])
            found.extend(section["paragraphs"])
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_page_has_both_games_with_every_required_section_once(lang: str) -> None:
    page = load(lang)
    assert set(page) == set(REQUIRED)
    for game, required in REQUIRED.items():
        ids = section_ids(page, game)
        assert len(ids) == len(set(ids)), ids
        assert required <= set(ids)


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_the_english_sections_in_the_same_order(lang: str) -> None:
    english, page = load("en"), load(lang)
    for game in REQUIRED:
        assert section_ids(page, game) == section_ids(english, game)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_texts_are_plain_nonempty_nfc_strings(lang: str) -> None:
    page = load(lang)
    for game in page.values():
        assert set(game) == {"title", "sections"}
        for section in game["sections"]:
            assert set(section) == {"id", "title", "paragraphs"}
            assert isinstance(section["paragraphs"], list) and section["paragraphs"]
    for text in texts(page):
        assert isinstance(text, str) and text.strip() == text and text
        assert unicodedata.normalize("NFC", text) == text
        assert not re.search(r"<[a-zA-Z/!]|&[a-z]+;|&#", text), text
        assert "\n" not in text


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_translations_keep_every_figure_and_token_of_the_english_page(lang: str) -> None:
    """A figure (30 seconds, round 8, 12 rows, 3 points...) or a token lost in translation."""
    english, page = load("en"), load(lang)
    for game in REQUIRED:
        pairs = zip(english[game]["sections"], page[game]["sections"], strict=True)
        for ours, theirs in pairs:
            en_text, text = " ".join(ours["paragraphs"]), " ".join(theirs["paragraphs"])
            missing = set(re.findall(r"\d+|[⚪⚫🔑🎯]", en_text)) - set(
                re.findall(r"\d+|[⚪⚫🔑🎯]", text)
            )
            assert not missing, (game, ours["id"], missing)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_are_written_in_their_language(lang: str) -> None:
    letters = "".join(ch for text in texts(load(lang)) for ch in text if ch.isalpha())
    share = {
        "en": sum(ch.isascii() for ch in letters),
        "fr": sum(ch.isascii() or ch in "àâçéèêëîïôœùûü" for ch in letters.lower()),
        "ru": sum("\u0400" <= ch <= "\u04ff" for ch in letters),
        "ko": sum("\uac00" <= ch <= "\ud7a3" for ch in letters),
    }[lang] / len(letters)
    assert share > 0.95
