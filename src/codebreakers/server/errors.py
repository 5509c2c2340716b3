"""The server's own stable error codes, and the exception that carries one to the socket loop.

Codes are part of the protocol (docs/protocol.md) and of the browser's i18n catalogs, so they
never change meaning; the game engines' rejection codes are passed through beside them.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """The server's own codes: each member equals, and is sent as, its value, which never changes
    (a member may be added; none is renamed or given another meaning)."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    FRAME_TOO_LARGE = "frame_too_large"
    BAD_ORIGIN = "bad_origin"
    BAD_CONTENT_TYPE = "bad_content_type"
    HELLO_FIRST = "hello_first"
    HELLO_TWICE = "hello_twice"
    ROOM_NOT_FOUND = "room_not_found"
    GAME_NOT_FOUND = "game_not_found"
    BAD_TOKEN = "bad_token"
    NOT_JOINED = "not_joined"
    ALREADY_JOINED = "already_joined"
    BAD_NAME = "bad_name"
    NAME_TAKEN = "name_taken"
    NOT_HOST = "not_host"
    NO_SUCH_SEAT = "no_such_seat"
    SEAT_TAKEN = "seat_taken"
    NO_SUCH_PLAYER = "no_such_player"
    NOT_A_HUMAN = "not_a_human"
    NOT_SEATED = "not_seated"
    GAME_RUNNING = "game_running"
    NO_GAME = "no_game"
    GAME_NOT_OVER = "game_not_over"
    TEAMS_INCOMPLETE = "teams_incomplete"
    UNKNOWN_GAME = "unknown_game"
    BAD_LEVEL = "bad_level"
    BOTS_UNAVAILABLE = "bots_unavailable"
    ROOM_FULL = "room_full"
    CHAT_EMPTY = "chat_empty"
    CHAT_TOO_LONG = "chat_too_long"
    CHAT_NOT_ALLOWED = "chat_not_allowed"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    BUSY = "busy"
    NOT_FOUND = "not_found"
    BAD_LANGUAGE = "bad_language"
    NO_PROFILE = "no_profile"
    PASSKEY_CHALLENGE = "passkey_challenge"
    PASSKEY_REFUSED = "passkey_refused"
    UNKNOWN_PASSKEY = "unknown_passkey"
    BAD_RECORD = "bad_record"
    RECORD_PARTIAL = "record_partial"
    REPLAY_TOO_LONG = "replay_too_long"
    BAD_VIEWPOINT = "bad_viewpoint"
    BAD_PAGE = "bad_page"
    PROFILE_NOT_FOUND = "profile_not_found"
    NOT_YOUR_ROOM = "not_your_room"
    INTERNAL_ERROR = "internal_error"


ERROR_CODES: frozenset[str] = frozenset(code.value for code in ErrorCode)


BUSY_DETAIL = "the server is overloaded; send the same request again in a moment"


class Refused(Exception):
    """A request refused with a stable code: nothing was changed.

    Raised by pure room operations and the runner; the socket loop turns it into an `error`
    frame and the HTTP routes into a JSON error body. `code` is an `ErrorCode` or a game
    engine's rejection code (a member of its `RejectionCode`); both are StrEnums, sent as their
    values.
    """

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail

    @property
    def busy(self) -> bool:
        """Refused for now, not for good (an overloaded store, or a change that kept meeting
        concurrent ones): the same request may be sent again."""
        return self.code == ErrorCode.BUSY
