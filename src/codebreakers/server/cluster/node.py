"""One server process: the rooms it holds in memory, their timers and bots, and the bus.

Rooms are loaded on demand (a socket, an HTTP request, a bus notice for a room held here) and
forgotten when idle; at start-up every live game's room is loaded so its timers and bots resume
from the stored log. Every node learns of every change through the bus, its own included.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from codebreakers.bus.base import Notice
from codebreakers.games.base import Rejection
from codebreakers.server.cluster.catchup import CatchUp
from codebreakers.server.cluster.shutdown import InFlight
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.ops.config import Ports, ServerConfig
from codebreakers.server.ops.ipguard import IpGuard
from codebreakers.server.ops.logs import get_logger
from codebreakers.server.ops.metrics import HeldCounts, Metrics, instrument
from codebreakers.server.play.bot_seats import BotDriver
from codebreakers.server.play.retry import Backoff
from codebreakers.server.play.timers import RoomTimer
from codebreakers.server.rooms import description, document, levels, model, room_codes
from codebreakers.server.rooms.description import Listing
from codebreakers.server.rooms.hub import RoomHub
from codebreakers.server.wire.messages import Bye, encode
from codebreakers.store.base import RoomRow
from codebreakers.store.ratings.open import ratings_of

log = get_logger(__name__)

JSON = dict[str, Any]
OPEN_LIMIT = 50


class Node:
    def __init__(self, ports: Ports, config: ServerConfig) -> None:
        self.metrics = Metrics(self.held_counts, ports.bus)
        self.ports = replace(
            ports,
            store=instrument(ports.store, self.metrics),
            ratings=ports.ratings or ratings_of(ports.store),
        )
        self.config = config
        self.ip_guard = IpGuard(config.per_ip, ports.clock)
        self.hubs: dict[str, RoomHub] = {}
        self.catchup = CatchUp(
            self.ports.store, ports.bus, self.hubs.values, self.metrics.caught_up
        )
        self.in_flight = InFlight()
        self.draining = False  # set by a graceful shutdown: health checks then say so
        self._loading: dict[str, asyncio.Lock] = {}
        self._timers: dict[str, RoomTimer] = {}
        self._bots: dict[str, BotDriver] = {}

    async def start(self) -> None:
        await self.ports.store.open()
        await self.ports.bus.start(self._on_notice)
        for game_id in await self.ports.store.live_games():
            game = await self.ports.store.load_game(game_id)
            if game is not None:
                await self.hub(game.room_code)  # arms its timer and wakes its bots
        self.catchup.start()
        log.info("node started", live_rooms=len(self.hubs))

    async def close(self) -> None:
        await self.catchup.close()
        for timer in self._timers.values():
            timer.cancel()
        for driver in self._bots.values():
            driver.cancel()
        await self.ports.bus.close()
        await self.ports.store.close()

    def say_goodbye(self, retry_ms: int = 1000) -> None:
        """Tell every socket the server is going away and when to come back."""
        frame = encode(Bye("shutdown", retry_ms))
        for hub in self.hubs.values():
            for conn in hub.all_connections():
                conn.push(frame)
                conn.close_soon()

    def held_counts(self) -> HeldCounts:
        """What /metrics counts of this node's rooms, when it is scraped."""
        hubs = list(self.hubs.values())
        return HeldCounts(
            connections=sum(len(h.all_connections()) for h in hubs),
            rooms=len(hubs),
            games_live=sum(1 for h in hubs if h.runner is not None and not h.runner.over),
        )

    # Rooms

    async def hub(self, code: str) -> RoomHub | None:
        """The room's hub, loading it from the store on first use; None for an unknown code."""
        found = self.hubs.get(code)
        if found is not None:
            return found
        lock = self._loading.setdefault(code, asyncio.Lock())
        async with lock:
            found = self.hubs.get(code)
            if found is None:
                row = await self.ports.store.load_room(code)
                if row is None or row.game not in self.ports.rules:
                    self._loading.pop(code, None)
                    return None
                found = RoomHub(self.ports, self.config, row)
                found.on_game_change = self._on_game_change
                await found.load()
                self.hubs[code] = found
                # Its game may need this node now (another node died): timer and bots resume.
                self._on_game_change(found)
        self._loading.pop(code, None)
        return found

    def release(self, hub: RoomHub) -> None:
        """Forget an idle room (it is all in the store)."""
        if hub.idle() and self.hubs.get(hub.code) is hub:
            del self.hubs[hub.code]
            timer = self._timers.pop(hub.code, None)
            if timer is not None:
                timer.cancel()
            self._bots.pop(hub.code, None)

    async def create_room(self, game: str, options: Any, public: bool, base_url: str) -> RoomHub:
        rules = self.ports.rules.get(game)
        if rules is None:
            raise Refused(ErrorCode.UNKNOWN_GAME, f"no game {game!r} here")
        if not isinstance(options, dict):
            raise Refused(ErrorCode.BAD_MESSAGE, "options is an object")
        checked = rules.check_options(options)
        if isinstance(checked, Rejection):
            raise Refused(checked.code, checked.detail)
        room = document.new_room(game, checked, rules.team_sizes(checked), public, base_url)
        data = model.dump(room)
        now = self.ports.clock()
        while True:
            row = RoomRow(room_codes.new_code(), game, data, 1, public, True, now, now)
            if await self.ports.store.create_room(row):
                break
        hub = await self.hub(row.code)
        assert hub is not None
        return hub

    async def open_rooms(self) -> list[Listing]:
        rows = await self.ports.store.list_rooms(public=True, waiting=True, limit=OPEN_LIMIT)
        rooms = [(row, room) for row in rows if document.free_seats(room := model.load(row.data))]
        assert self.ports.ratings is not None
        found = await levels.levels(self.ports.ratings, [room for _, room in rooms])
        return [
            description.listing(room, row.code, row.created_at, levels.around(level))
            for (row, room), level in zip(rooms, found, strict=True)
        ]

    # Changes

    async def _on_notice(self, notice: Notice) -> None:
        hub = self.hubs.get(notice.room) if notice.room is not None else None
        if hub is not None:
            self.metrics.noticed(await hub.on_notice(notice))

    def _on_game_change(self, hub: RoomHub) -> None:
        """Re-arm the room's timer and let its bots look at the new state."""
        playing = hub.playing()
        timer = self._timers.get(hub.code)
        deadline = playing.deadline() if playing is not None else None
        if deadline is not None and timer is None:
            timer = self._timers[hub.code] = RoomTimer(
                lambda: self._fire(hub.code), self.ports.clock
            )
        if timer is not None:
            timer.arm(deadline)
        if playing is not None and self.ports.make_bot is not None and hub.bot_seats():
            driver = self._bots.get(hub.code)
            if driver is None:
                driver = self._bots[hub.code] = BotDriver(
                    hub, self.ports.make_bot, self.config.bot_delay_s
                )
            driver.poke()

    async def _fire(self, code: str) -> None:
        hub = self.hubs.get(code)
        if hub is None:
            return
        backoff = Backoff("the timeout", room=code)
        while True:
            try:
                await hub.timeout()
                break
            except Exception as error:  # `busy` or a failed store
                await backoff.pause(error)
            if self.hubs.get(code) is not hub:
                return
        await hub.publish()
