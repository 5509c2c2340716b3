"""Malformed actions are refused before any rule is asked, with a stable code."""

from __future__ import annotations

from typing import Any

import pytest

from codebreakers.games.base import Rejection
from codebreakers.games.decrypto import REJECTION_CODES, RULES
from codebreakers.games.decrypto.clues import WARNING_CODES


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (None, "malformed_action"),
        ([], "malformed_action"),
        ({}, "malformed_action"),
        ({"type": 3}, "malformed_action"),
        ({"type": "dance"}, "unknown_action"),
        ({"type": "transmit"}, "invalid_clues"),
        ({"type": "transmit", "clues": ["a", "b"]}, "invalid_clues"),
        ({"type": "transmit", "clues": ["a", "b", 3]}, "invalid_clues"),
        ({"type": "transmit", "clues": "abc"}, "invalid_clues"),
        ({"type": "transmit", "clues": ["a", "b", "c" * 61]}, "text_too_long"),
        ({"type": "transmit", "clues": ["a", "b", "c"], "extra": 1}, "malformed_action"),
        ({"type": "propose", "target": "them", "code": [1, 2, 3]}, "invalid_target"),
        ({"type": "propose", "target": "own", "code": [1, 2, 2]}, "invalid_code"),
        ({"type": "propose", "target": "own", "code": [1, 2, 5]}, "invalid_code"),
        ({"type": "lock", "target": "own", "code": [1, 2]}, "invalid_code"),
        ({"type": "lock", "target": "own", "code": [True, 2, 3]}, "invalid_code"),
        ({"type": "lock", "target": "own", "code": "123"}, "invalid_code"),
        ({"type": "note", "number": 5, "text": "x"}, "invalid_number"),
        ({"type": "note", "number": 1}, "malformed_action"),
        ({"type": "note", "number": 1, "text": "x" * 201}, "text_too_long"),
        ({"type": "guess_keywords", "words": ["a", "b", "c"]}, "invalid_guesses"),
        ({"type": "accept_guess", "number": 1, "accept": "yes"}, "malformed_action"),
        ({"type": "accept_guess", "number": 0, "accept": True}, "invalid_number"),
        ({"type": "timeout", "at": 5}, "malformed_action"),
    ],
)
def test_malformed(raw: Any, code: str) -> None:
    result = RULES.parse_action(raw)
    assert isinstance(result, Rejection) and result.code == code
    assert code in REJECTION_CODES


def test_well_formed_actions_are_normalised() -> None:
    assert RULES.parse_action({"type": "transmit", "clues": [" a\u200b b ", "É", "c\n"]}) == {
        "type": "transmit",
        "clues": ["a b", "É", "c"],
    }
    assert RULES.parse_action({"type": "lock", "target": "enemy", "code": [4, 1, 2]}) == {
        "type": "lock",
        "target": "enemy",
        "code": [4, 1, 2],
    }
    assert RULES.parse_action({"type": "review_done"}) == {"type": "review_done"}


def test_rejection_codes_are_snake_case_and_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).parents[3] / "docs" / "views.md").read_text(encoding="utf-8")
    for code in REJECTION_CODES | WARNING_CODES:
        assert code.replace("_", "").isalpha() and code == code.lower()
        assert f"`{code}`" in doc, f"{code} is not documented in docs/views.md"
