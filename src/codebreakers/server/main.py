"""`codebreakers serve`: settings from the command line (or environment), then uvicorn.

The garbage collector is tuned as docs/performance.md explains: with thousands of sockets a
full collection walks every object and stalls the event loop, so thresholds are raised and the
objects alive after start-up are frozen out of collections.
"""

from __future__ import annotations

import argparse
import gc
import logging
import socket

import uvicorn

from codebreakers.bots.registry import GAMES as BOT_GAMES
from codebreakers.bots.registry import make_bot
from codebreakers.bus import open_bus
from codebreakers.games.registry import RULES_BY_NAME
from codebreakers.server import logging_setup
from codebreakers.server.app import create_app
from codebreakers.server.config import Ports, ServerConfig
from codebreakers.server.ipguard import ip_limits
from codebreakers.server.node import Node
from codebreakers.server.shutdown import drain
from codebreakers.store import open_store

GC_THRESHOLDS = (200_000, 50, 1_000)
WS_MAX_BYTES = 1024 * 1024  # beyond our own 64 KiB check, which answers with an error frame
# Kernel send buffer per socket (Linux doubles it). Autotuning grows it to 4 MiB for a client
# that stops reading, so a few thousand stalled sockets could pin gigabytes of kernel memory and
# the outbox limit (server/connection.py) would take megabytes to notice; views are a few KB.
SEND_BUFFER_BYTES = 64 * 1024


class _Server(uvicorn.Server):
    """uvicorn, plus a `bye` to every socket before it closes them, and gc.freeze after start."""

    def __init__(self, config: uvicorn.Config, node: Node) -> None:
        super().__init__(config)
        self._node = node

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        gc.collect()
        gc.freeze()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await drain(self, self._node)  # stop accepting, finish in-flight messages, bye
        await super().shutdown(sockets)


def build(args: argparse.Namespace) -> tuple[uvicorn.Config, Node]:
    ports = Ports(
        store=open_store(args.db),
        bus=open_bus(args.redis),
        rules=RULES_BY_NAME,
        make_bot=make_bot,
        bot_games=frozenset(BOT_GAMES),
    )
    settings = ServerConfig(
        public_url=args.public_url,
        bot_delay_s=args.bot_delay,
        offer_bots_after_s=args.offer_bots_after,
        per_ip=ip_limits(args.per_ip_sockets, args.per_ip_frames_per_s, args.per_ip_rooms_per_min),
    )
    app = create_app(ports, settings)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_BYTES,
        # permessage-deflate keeps zlib state per socket: 48 KiB more per idle player and a
        # third less throughput (docs/performance.md, "Server load"); views are a few KB.
        ws_per_message_deflate=False,
        log_level=args.log_level,
        log_config=None,  # uvicorn's loggers go through ours (logging_setup: JSON or text)
        lifespan="on",
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    return config, app.state.node


def serve(args: argparse.Namespace) -> int:
    if args.server != "uvicorn":
        logging.getLogger(__name__).error("only --server uvicorn serves the game for now")
        return 2
    logging_setup.configure(args.log_level)
    gc.set_threshold(*GC_THRESHOLDS)
    config, node = build(args)
    server = _Server(config, node)
    listener = config.bind_socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)  # inherited
    server.run(sockets=[listener])
    return 0 if server.started else 1
