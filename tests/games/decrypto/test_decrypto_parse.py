"""Malformed actions are refused before any rule is asked, with a stable code."""

from __future__ import annotations

from typing import Any

import pytest

from codebreakers.games.base import Rejection
from codebreakers.games.decrypto import REJECTION_CODES, RULES
from codebreakers.games.decrypto.actions import Lock
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


def stored(raw: Any) -> Any:
    """The parsed action as a game log stores it (its JSON)."""
    action = RULES.parse_action(raw)
    assert not isinstance(action, Rejection), action
    return action.to_json()


def test_well_formed_actions_are_normalised() -> None:
    assert stored({"type": "transmit", "clues": [" a\u200b b ", "É", "c\n"]}) == {
        "type": "transmit",
        "clues": ["a b", "É", "c"],
    }
    assert stored({"type": "lock", "target": "enemy", "code": [4, 1, 2]}) == {
        "type": "lock",
        "target": "enemy",
        "code": [4, 1, 2],
    }
    assert stored({"type": "review_done"}) == {"type": "review_done"}
    assert RULES.parse_action({"type": "lock", "target": "own", "code": [4, 1, 2]}) == Lock(
        "own", (4, 1, 2)
    )


def test_stored_actions_load_as_they_were_parsed() -> None:
    for raw in (
        {"type": "draft", "clues": ["a", "", "ç"]},
        {"type": "propose", "target": "own", "code": [1, 2, 3]},
        {"type": "note", "number": 4, "text": "x"},
        {"type": "guess_keywords", "words": ["a", "b", "c", "d"]},
        {"type": "accept_guess", "number": 2, "accept": False},
        {"type": "timeout"},
    ):
        action = RULES.parse_action(raw)
        assert RULES.load_action(stored(raw)) == action
        assert RULES.load_action(action.to_json()) == action


def test_the_code_follows_the_fields_order_not_the_inputs() -> None:
    bad_both = {"type": "propose", "code": [1, 1, 1], "target": "them"}
    assert RULES.parse_action(bad_both) == Rejection("invalid_target", "own or enemy")
    bad_both = {"type": "note", "text": 3, "number": 9}
    result = RULES.parse_action(bad_both)
    assert isinstance(result, Rejection) and result.code == "invalid_number"
    unexpected = {"type": "transmit", "clues": 5, "extra": 1}
    result = RULES.parse_action(unexpected)
    assert isinstance(result, Rejection) and result.code == "malformed_action"


def test_rejection_codes_are_snake_case_and_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).parents[3] / "docs" / "views.md").read_text(encoding="utf-8")
    for code in REJECTION_CODES | WARNING_CODES:
        assert code.replace("_", "").isalpha() and code == code.lower()
        assert f"`{code}`" in doc, f"{code} is not documented in docs/views.md"
