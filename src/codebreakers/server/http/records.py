"""Game records over HTTP: who may fetch one, and through which viewer's eyes.

The records module decides what a viewer may take away (everything once the game is over; a
partial record while it runs). Here the seat token says who is asking: while a game runs only
the room's players may fetch its record, so an unguessable game id alone is never enough.
"""

from __future__ import annotations

from typing import Any

from codebreakers.games.base import Viewer
from codebreakers.games.records import export_record
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.ops.config import Ports
from codebreakers.server.rooms import chat, document, model
from codebreakers.server.rooms.tokens import token_hash


async def record_for(ports: Ports, game_id: str, token: str | None) -> dict[str, Any]:
    store = ports.store
    game = await store.load_game(game_id)
    room = await store.load_room(game.room_code) if game is not None else None
    if game is None or room is None or game.game not in ports.rules:
        raise Refused(ErrorCode.GAME_NOT_FOUND, "no game has this id")
    stored = model.load(room.data)
    pid = document.player_for_token(stored, token_hash(token)) if token else None
    if pid is None and not game.over:
        raise Refused(ErrorCode.BAD_TOKEN, "only the room's players may fetch a game still running")
    seats = {seat for team in game.setup["teams"].values() for seat in team}
    seat = pid if pid in seats else None
    viewer = Viewer(seat, seat is None and bool(game.setup["options"].get("open_spectators")))
    lines = []
    for line in await store.chat_of_game(game_id):
        wire = chat.to_wire(line)
        lines.append(
            {
                "seq": wire.seq,
                "channel": wire.channel,
                "seat": wire.player,
                "name": wire.name,
                "text": wire.text,
                "at": wire.at,
            }
        )
    actions = [{"seat": a.seat, "action": a.action, "at": a.at} for a in game.actions]
    return export_record(game.game, game.setup, actions, lines, viewer)
