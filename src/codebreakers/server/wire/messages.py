"""The WebSocket protocol's closed set of messages, as msgspec Structs (docs/protocol.md).

Parsing happens here, at the edge: a frame either becomes one of the client message types, with
every field of the right type and size, or a `Refused` with a stable code. Legality (whose turn,
which seat) is for the room operations and the game engine to judge.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from codebreakers.server.errors import ErrorCode, Refused

MAX_FRAME_BYTES = 64 * 1024

ActionId = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Short = Annotated[str, msgspec.Meta(max_length=64)]
Index = Annotated[int, msgspec.Meta(ge=0, le=63)]
Count = Annotated[int, msgspec.Meta(ge=0)]
# Names and chat text are bounded by the frame size here; their own limits get their own codes.
Text = Annotated[str, msgspec.Meta(max_length=MAX_FRAME_BYTES)]


class _Client(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    """Base of every client message; unknown fields are refused so typos don't pass silently."""


class Hello(_Client, tag="hello"):
    room: Short
    token: Short | None = None
    game_id: Short | None = None
    game_version: Count | None = None
    chat_seq: Count | None = None


class Join(_Client, tag="join"):
    id: ActionId
    name: Text
    watch: bool = False  # a spectator from the start, not seated


class Rename(_Client, tag="rename"):
    id: ActionId
    name: Text


class TakeSeat(_Client, tag="take_seat"):
    id: ActionId
    team: Short
    index: Index


class LeaveSeat(_Client, tag="leave_seat"):
    id: ActionId


class Act(_Client, tag="act"):
    id: ActionId
    action: dict[str, Any]


class Check(_Client, tag="check"):
    """A game action judged by the engine without being applied (the encryptor's clue check)."""

    id: ActionId
    action: dict[str, Any]


class Chat(_Client, tag="chat"):
    id: ActionId
    channel: Short
    text: Text


class Move(_Client, tag="move"):
    id: ActionId
    player: Short
    team: Short | None
    index: Index = 0


class Remove(_Client, tag="remove"):
    id: ActionId
    player: Short


class AddBot(_Client, tag="add_bot"):
    id: ActionId
    team: Short
    index: Index
    level: Short


class SetOptions(_Client, tag="set_options"):
    id: ActionId
    options: dict[str, Any]


class SetPublic(_Client, tag="set_public"):
    id: ActionId
    public: bool


class TransferHost(_Client, tag="transfer_host"):
    id: ActionId
    player: Short


class Start(_Client, tag="start"):
    id: ActionId


class Rematch(_Client, tag="rematch"):
    id: ActionId


class PlayAgain(_Client, tag="play_again"):
    id: ActionId


class Ping(_Client, tag="ping"):
    """Keep-alive: answered by `pong`; a socket that pinged once is dropped when it falls silent."""

    id: ActionId


ClientMessage = (
    Hello
    | Join
    | Rename
    | TakeSeat
    | LeaveSeat
    | Act
    | Check
    | Chat
    | Move
    | Remove
    | AddBot
    | SetOptions
    | SetPublic
    | TransferHost
    | Start
    | Rematch
    | PlayAgain
    | Ping
)
CLIENT_TYPES: frozenset[str] = frozenset(t.__struct_config__.tag for t in ClientMessage.__args__)


class _Server(msgspec.Struct, tag_field="type"):
    """Base of every server message."""


class Welcome(_Server, tag="welcome"):
    room: str
    you: str | None
    server_time: float


class Joined(_Server, tag="joined"):
    id: str
    you: str
    token: str


class Ack(_Server, tag="ack"):
    id: str
    version: int | None = None


class Error(_Server, tag="error"):
    id: str | None
    code: str
    detail: str = ""


class Room(_Server, tag="room"):
    room: Any  # the description, usually pre-encoded once as msgspec.Raw for every socket
    you: str | None


class View(_Server, tag="view"):
    game_id: str
    version: int
    view: Any  # the view's JSON object, pre-encoded by the rules as msgspec.Raw (views_json)


class ChatLineOut(msgspec.Struct):
    seq: int
    channel: str
    team: str | None
    player: str | None
    name: str
    text: str
    at: float


class ChatLines(_Server, tag="chat"):
    lines: list[ChatLineOut]


class Pong(_Server, tag="pong"):
    id: str


class Bye(_Server, tag="bye"):
    reason: str
    retry_ms: int


class _Typed(msgspec.Struct):
    """Just the tag, read only when a frame failed to parse, to tell unknown types apart."""

    type: Any = None


_decoder = msgspec.json.Decoder(ClientMessage)
_typed_decoder = msgspec.json.Decoder(_Typed)
_encoder = msgspec.json.Encoder()


def parse_client(frame: bytes | str) -> ClientMessage:
    """One frame -> one client message, or Refused(bad_json | unknown_type | bad_message)."""
    if len(frame) > MAX_FRAME_BYTES:
        raise Refused(ErrorCode.FRAME_TOO_LARGE, f"frames are limited to {MAX_FRAME_BYTES} bytes")
    try:
        return _decoder.decode(frame)
    except RecursionError:  # msgspec decodes `Any` fields recursively
        raise Refused(ErrorCode.BAD_MESSAGE, "nested too deeply") from None
    except msgspec.ValidationError as exc:
        try:
            kind = _typed_decoder.decode(frame).type
        except msgspec.DecodeError:
            raise Refused(ErrorCode.BAD_MESSAGE, "a frame must be a JSON object") from None
        except RecursionError:
            raise Refused(ErrorCode.BAD_MESSAGE, "nested too deeply") from None
        if not isinstance(kind, str) or kind not in CLIENT_TYPES:
            raise Refused(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind!r}") from None
        raise Refused(ErrorCode.BAD_MESSAGE, str(exc)) from None
    except msgspec.DecodeError as exc:
        raise Refused(ErrorCode.BAD_JSON, str(exc)) from None


def encode(message: _Server) -> bytes:
    """A server message as the text of one frame, UTF-8 encoded."""
    return _encoder.encode(message)


def encode_views(game_id: str, version: int, views: list[bytes]) -> list[bytes]:
    """`encode(View(game_id, version, msgspec.Raw(view)))` for each view, in order, with the
    envelope encoded once and each view spliced into it: the same bytes, without a Struct and
    an encoder pass per seat on every action."""
    envelope = _encoder.encode(View(game_id, version, None))
    head = envelope[: -len(_NULL_VIEW_END)]  # `view` is the last field: b'{..."view":'
    return [b"".join((head, view, b"}")) for view in views]


_NULL_VIEW_END = b"null}"


def error_id(frame: bytes | str) -> str | None:
    """The `id` of a refused frame when it has a readable one, so its error can name it."""
    try:
        raw = msgspec.json.decode(frame)
    except (msgspec.DecodeError, RecursionError):
        return None
    if isinstance(raw, dict):
        value = raw.get("id")
        if isinstance(value, str) and 0 < len(value) <= 64:
            return value
    return None
