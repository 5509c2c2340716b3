"""The server's error codes: a StrEnum whose values are the protocol's stable strings."""

from __future__ import annotations

import msgspec

from codebreakers.server.errors import ERROR_CODES, ErrorCode, Refused
from codebreakers.server.wire.messages import Error, encode

# The codes as the protocol first listed them (docs/protocol.md, the i18n catalogs): a member
# may be added, none may leave or change its value.
STABLE = {
    "bad_json", "bad_message", "unknown_type", "frame_too_large", "bad_origin",
    "bad_content_type", "hello_first", "hello_twice", "room_not_found", "game_not_found",
    "bad_token", "not_joined", "already_joined", "bad_name", "name_taken", "not_host",
    "no_such_seat", "seat_taken", "no_such_player", "not_a_human", "not_seated", "game_running",
    "no_game", "game_not_over", "teams_incomplete", "unknown_game", "bad_level",
    "bots_unavailable", "room_full", "chat_empty", "chat_too_long", "chat_not_allowed",
    "rate_limited", "too_many_connections", "busy", "not_found", "internal_error",
}  # fmt: skip


def test_every_stable_code_is_a_member_with_its_value() -> None:
    assert {code.value for code in ErrorCode} >= STABLE
    assert {code.value for code in ErrorCode} == ERROR_CODES
    for value in STABLE:
        assert ErrorCode(value) == value
        assert ErrorCode(value).name == value.upper()


def test_a_code_leaves_as_its_plain_string() -> None:
    frame = encode(Error("m1", ErrorCode.NOT_HOST, "only the host may do this"))
    assert (
        frame
        == b'{"type":"error","id":"m1","code":"not_host","detail":"only the host may do this"}'
    )
    assert msgspec.json.decode(frame)["code"] == "not_host"
    refused = Refused(ErrorCode.BUSY, "later")
    assert refused.busy and refused.code == "busy" and str(refused) == "busy: later"
