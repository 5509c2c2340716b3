"""Chat rules that don't depend on sockets: text checks, channel naming, who may read a line.

Lines are stored with the room (store channel "all" or "team:<team>") so reconnects and game
records have them; on the wire the channel is "all" or "team" plus the team's name.
"""

from __future__ import annotations

import unicodedata

from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.rooms import document
from codebreakers.server.rooms.model import Room
from codebreakers.server.wire.messages import ChatLineOut
from codebreakers.store.base import ChatLine

MAX_TEXT = 500
LINES_BURST = 5.0
LINES_RATE = 0.5  # one line every 2 seconds once the burst is spent


def clean_text(text: str) -> str:
    """Plain text: trimmed, control characters other than newlines refused as empty."""
    text = "".join(c for c in text if c == "\n" or unicodedata.category(c) != "Cc").strip()
    if not text:
        raise Refused(ErrorCode.CHAT_EMPTY, "a chat line needs some text")
    if len(text) > MAX_TEXT:
        raise Refused(ErrorCode.CHAT_TOO_LONG, f"a chat line holds at most {MAX_TEXT} characters")
    return text


def store_channel(channel: str, team: str | None) -> str:
    if channel == "all":
        return "all"
    if channel == "team" and team is not None:
        return f"team:{team}"
    if channel == "team":
        raise Refused(ErrorCode.CHAT_NOT_ALLOWED, "spectators have no team chat")
    raise Refused(ErrorCode.BAD_MESSAGE, "channel is 'team' or 'all'")


def to_wire(line: ChatLine) -> ChatLineOut:
    team = line.channel.removeprefix("team:") if line.channel.startswith("team:") else None
    return ChatLineOut(
        seq=line.seq,
        channel="team" if team else "all",
        team=team,
        player=line.seat,
        name=line.name,
        text=line.text,
        at=line.at,
    )


def reader(data: Room, pid: str | None) -> tuple[str | None, bool]:
    """(team, open spectator) of whoever reads chat as `pid` in the room `data`."""
    team = document.team_of(data, pid) if pid else None
    return team, bool(data.options.get("open_spectators")) and team is None


def readable(line: ChatLineOut, team: str | None, open_spectator: bool) -> bool:
    """Team lines go to that team, and to spectators of an open-spectators room."""
    if line.team is None:
        return True
    return line.team == team or (team is None and open_spectator)
