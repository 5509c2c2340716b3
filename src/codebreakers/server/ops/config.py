"""What a server node is made of: its settings and the ports it talks through.

The app factory and the room hubs receive these instead of reaching for globals, so tests build
a node with a temporary store, a fake clock or no bot delay, and multi-node runs share nothing
but the store and the bus.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from codebreakers.bots.base import Bot
from codebreakers.bus.base import Bus
from codebreakers.games.base import GameRules
from codebreakers.server.ops.ipguard import DEFAULT, IpLimits
from codebreakers.server.ops.proxies import NONE, TrustedProxies
from codebreakers.store.base import Store

# make_bot(game, *, level, lang, seed, seat) -> Bot, from codebreakers.bots.registry
BotFactory = Callable[..., Bot]
BOT_LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True, slots=True)
class ServerConfig:
    public_url: str | None = None  # the site's own URL: share links and the Origin check
    bot_delay_s: float = 1.2  # a human-like pause before each bot move (0 in tests)
    offer_bots_after_s: float = 20.0  # a quick-join lobby offers bots to its host after this
    # A socket that pinged (a browser's keep-alive) and then sent nothing for this long is
    # dropped, so a player whose network went away shows as away to the others.
    silent_socket_s: float = 10.0
    frame_burst: float = 30.0  # frames a socket may send at once ...
    frames_per_s: float = 10.0  # ... and then per second
    player_frame_burst: float = 60.0  # frames all of one player's sockets may send at once ...
    player_frames_per_s: float = 20.0  # ... and then per second
    per_ip: IpLimits = DEFAULT  # per client address (server/ops/ipguard.py); ipguard.OFF for none
    # whose X-Forwarded-For is believed (server/ops/proxies.py)
    trusted_proxies: TrustedProxies = NONE
    metrics_port: int = 0  # GET /metrics on a listener of its own (server/ops/metrics.py); 0: none
    metrics_host: str = "127.0.0.1"
    # serve: freeze the start-up objects, then collect on a clock (server/ops/process.py)
    tune_gc: bool = False


@dataclass(frozen=True, slots=True)
class Ports:
    store: Store
    bus: Bus
    rules: Mapping[str, GameRules[Any]]
    make_bot: BotFactory | None = None
    bot_games: frozenset[str] = frozenset()  # the games make_bot has bots for
    clock: Callable[[], float] = field(default=time.time)
