"""docs/mastermind.md documents every rejection code, action and option the engine knows."""

from __future__ import annotations

from pathlib import Path

from codebreakers.games.mastermind import REJECTION_CODES
from codebreakers.games.mastermind.options import DEFAULTS
from codebreakers.games.mastermind.parse import ACTION_SHAPES

DOC = (Path(__file__).parents[3] / "docs" / "mastermind.md").read_text(encoding="utf-8")


def test_every_rejection_code_action_and_option_is_documented() -> None:
    for name in (*REJECTION_CODES, *ACTION_SHAPES, *DEFAULTS):
        assert f"`{name}`" in DOC, name
