"""docs/protocol.md stays exact: its message tables and error codes match the code."""

from __future__ import annotations

import re
from pathlib import Path

from codebreakers.server.errors import ERROR_CODES
from codebreakers.server.wire import messages

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def section(title: str) -> str:
    return DOC.split(title, 1)[1].split("\n#", 1)[0]


def first_column(text: str) -> set[str]:
    return set(re.findall(r"^\| `([a-z_]+)` \|", text, flags=re.MULTILINE))


def test_every_error_code_is_documented_and_nothing_else() -> None:
    assert first_column(section("## Error codes")) == ERROR_CODES


def test_every_message_type_is_documented() -> None:
    assert first_column(section("### Client → server")) == messages.CLIENT_TYPES
    server_types = {
        t.__struct_config__.tag
        for t in vars(messages).values()
        if isinstance(t, type) and issubclass(t, messages._Server) and t is not messages._Server
    }
    assert first_column(section("### Server → client")) == server_types
