"""The folding keys: what never makes a different word (compatibility forms, invisible
characters, case, ё) and what only the loose keys fold (accents, spaces, hyphens)."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from codebreakers.games.decrypto.words.folding import fold, match_key, spelling, visible


def test_every_format_character_is_invisible() -> None:
    """The hard-coded class holds every Cf character this Python knows (Unicode 14 or 15)."""
    kept = [
        f"U+{code:04X}"
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) == "Cf" and visible(chr(code))
    ]
    assert kept == []


@pytest.mark.parametrize(
    "typed",
    [
        "c\u00adat",
        "ｃａｔ",
        "ca\u200bt",
        "c\u200dat\ufe0f",
        "\u202ecat\u202c",
        "\ufeffcat",
        "cat\U000e0101",
    ],
)
def test_invisible_characters_and_compatibility_forms_are_not_part_of_a_word(typed: str) -> None:
    assert spelling(typed) == fold(typed) == match_key(typed) == "cat"


def test_spelling_keeps_accents_and_spaces_but_not_russian_yo() -> None:
    assert spelling("Maïs") == "maïs" != spelling("mais")
    assert spelling("Мёд") == spelling("мед") == "мед"
    assert spelling("Arc-en-Ciel") == "arc-en-ciel"
    assert spelling("мой") != spelling("мои")


def test_match_key_folds_hyphens_and_dashes_like_spaces() -> None:
    assert match_key("arc-en-ciel") == match_key("arc en ciel") == match_key("Arcenciel")
    assert match_key("sous–marin") == "sousmarin"
    assert fold("arc-en-ciel") == "arc-en-ciel"  # the bots' vocabularies keep hyphens
