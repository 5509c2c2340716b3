"""The server's own stable error codes, and the exception that carries one to the socket loop.

Codes are part of the protocol (docs/protocol.md) and of the browser's i18n catalogs, so they
never change meaning; the game engines' rejection codes are passed through beside them.
"""

from __future__ import annotations

ERROR_CODES: frozenset[str] = frozenset(
    {
        "bad_json",
        "bad_message",
        "unknown_type",
        "frame_too_large",
        "bad_origin",
        "bad_content_type",
        "hello_first",
        "hello_twice",
        "room_not_found",
        "game_not_found",
        "bad_token",
        "not_joined",
        "already_joined",
        "bad_name",
        "name_taken",
        "not_host",
        "no_such_seat",
        "seat_taken",
        "no_such_player",
        "not_a_human",
        "not_seated",
        "game_running",
        "no_game",
        "game_not_over",
        "teams_incomplete",
        "unknown_game",
        "bad_level",
        "bots_unavailable",
        "room_full",
        "chat_empty",
        "chat_too_long",
        "chat_not_allowed",
        "rate_limited",
        "too_many_connections",
        "busy",
        "not_found",
        "internal_error",
    }
)


BUSY_DETAIL = "the server is overloaded; send the same request again in a moment"


class Refused(Exception):
    """A request refused with a stable code: nothing was changed.

    Raised by pure room operations and the runner; the socket loop turns it into an `error`
    frame and the HTTP routes into a JSON error body. `code` is one of ERROR_CODES or a game
    engine's rejection code.
    """

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail

    @property
    def busy(self) -> bool:
        """Refused for now, not for good (an overloaded store, or a change that kept meeting
        concurrent ones): the same request may be sent again."""
        return self.code == "busy"
