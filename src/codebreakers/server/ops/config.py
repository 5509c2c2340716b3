"""What a server node is made of: its settings and the ports it talks through.

The app factory and the room hubs receive these instead of reaching for globals, so tests build
a node with a temporary store, a fake clock or no bot delay, and multi-node runs share nothing
but the store and the bus. The defaults an operator can change are those of `Settings`
(server/ops/settings.py), declared there once; the rest are the node's own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from codebreakers.bots.base import Bot
from codebreakers.bus.base import Bus
from codebreakers.games.base import GameRules
from codebreakers.server.ops.ipguard import IpLimits
from codebreakers.server.ops.proxies import TrustedProxies
from codebreakers.server.ops.settings import DEFAULTS, Settings
from codebreakers.store.base import Store
from codebreakers.store.ratings.base import Ratings

# make_bot(game, *, level, lang, seed, seat) -> Bot, from codebreakers.bots.registry
BotFactory = Callable[..., Bot]
BOT_LEVELS = ("easy", "normal", "hard")
PER_IP = DEFAULTS.ip_limits()  # what the per-address settings' defaults allow


@dataclass(frozen=True, slots=True)
class ServerConfig:
    public_url: str | None = DEFAULTS.public_url  # share links and the Origin check
    bot_delay_s: float = DEFAULTS.bot_delay  # a human-like pause before each bot move (0 in tests)
    offer_bots_after_s: float = DEFAULTS.offer_bots_after  # a quick-join lobby offers bots then
    # A socket that pinged (a browser's keep-alive) and then sent nothing for this long is
    # dropped, so a player whose network went away shows as away to the others.
    silent_socket_s: float = 10.0
    frame_burst: float = 30.0  # frames a socket may send at once ...
    frames_per_s: float = 10.0  # ... and then per second
    player_frame_burst: float = 60.0  # frames all of one player's sockets may send at once ...
    player_frames_per_s: float = 20.0  # ... and then per second
    per_ip: IpLimits = PER_IP  # per client address (server/ops/ipguard.py); ipguard.OFF for none
    # whose X-Forwarded-For is believed (server/ops/proxies.py)
    trusted_proxies: TrustedProxies = DEFAULTS.trusted_proxies
    metrics_port: int = DEFAULTS.metrics_port  # GET /metrics on a listener of its own; 0: none
    metrics_host: str = DEFAULTS.metrics_host
    # serve: freeze the start-up objects, then collect on a clock (server/ops/process.py)
    tune_gc: bool = False

    @classmethod
    def from_settings(cls, settings: Settings, *, tune_gc: bool = False) -> ServerConfig:
        """The node `codebreakers serve` runs with these settings."""
        return cls(
            public_url=settings.public_url,
            bot_delay_s=settings.bot_delay,
            offer_bots_after_s=settings.offer_bots_after,
            per_ip=settings.ip_limits(),
            trusted_proxies=settings.trusted_proxies,
            metrics_port=settings.metrics_port,
            metrics_host=settings.metrics_host,
            tune_gc=tune_gc,
        )


@dataclass(frozen=True, slots=True)
class Ports:
    store: Store
    bus: Bus
    rules: Mapping[str, GameRules[Any]]
    make_bot: BotFactory | None = None
    bot_games: frozenset[str] = frozenset()  # the games make_bot has bots for
    clock: Callable[[], float] = field(default=time.time)
    # Results and ratings over the same database; the node fills it in from `store`
    # (store/ratings/open.py) unless given one.
    ratings: Ratings | None = None
