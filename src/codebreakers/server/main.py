"""`codebreakers serve`: settings from the command line (or environment), then uvicorn or granian.

The garbage collector is tuned as docs/performance.md explains: with thousands of sockets a
full collection walks every object and stalls the event loop, so thresholds are raised and the
objects alive after start-up are frozen out of collections. The descriptor limit is raised too:
each player is a socket.
"""

from __future__ import annotations

import argparse
import os
import socket
from typing import Any

import uvicorn

from codebreakers.bots.registry import GAMES as BOT_GAMES
from codebreakers.bots.registry import make_bot
from codebreakers.bus import open_bus
from codebreakers.server.app import create_app
from codebreakers.server.cluster.node import Node
from codebreakers.server.cluster.shutdown import drain
from codebreakers.server.ops import logs, process
from codebreakers.server.ops.config import Ports, ServerConfig
from codebreakers.server.ops.ipguard import ip_limits
from codebreakers.server.ops.process import BACKLOG, NOFILE, WS_MAX_BYTES
from codebreakers.server.ops.proxies import TrustedProxies
from codebreakers.server.play.translation import server_rules
from codebreakers.server.wire.protocols import DirectWriteProtocol, guarded_http
from codebreakers.store import open_store

# Kernel send buffer per socket (Linux doubles it). Autotuning grows it to 4 MiB for a client
# that stops reading, so a few thousand stalled sockets could pin gigabytes of kernel memory and
# the outbox limit (server/wire/connection.py) would take megabytes to notice; views are a few KB.
SEND_BUFFER_BYTES = 64 * 1024


class _Server(uvicorn.Server):
    """uvicorn, plus a drain (stop accepting, finish in-flight messages, `bye`) before it closes
    the sockets."""

    def __init__(self, config: uvicorn.Config, node: Node) -> None:
        super().__init__(config)
        self._node = node

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Listening: one plain line on stdout for whoever started the server by hand (`make
        run`), beside the log lines on stderr."""
        await super().startup(sockets)
        if self.started:
            print(f"Codebreakers is ready: open {self._address(sockets)}", flush=True)

    def _address(self, sockets: list[socket.socket] | None) -> str:
        if self._node.config.public_url:
            return self._node.config.public_url
        host, port = self.config.host, self.config.port
        if sockets:
            port = sockets[0].getsockname()[1]
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        return f"http://{f'[{host}]' if ':' in host else host}:{port}"

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await drain(self, self._node)
        await super().shutdown(sockets)


def build(args: argparse.Namespace) -> tuple[uvicorn.Config, Node]:
    ports = Ports(
        store=open_store(args.db),
        bus=open_bus(args.redis),
        rules=server_rules(),
        make_bot=make_bot,
        bot_games=frozenset(BOT_GAMES),
    )
    settings = ServerConfig(
        public_url=args.public_url,
        bot_delay_s=args.bot_delay,
        offer_bots_after_s=args.offer_bots_after,
        per_ip=ip_limits(args.per_ip_sockets, args.per_ip_frames_per_s, args.per_ip_rooms_per_min),
        trusted_proxies=TrustedProxies.parse(args.trusted_proxies),
        metrics_port=args.metrics_port,
        metrics_host=args.metrics_host,
        tune_gc=True,
    )
    app = create_app(ports, settings)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        # uvicorn's protocols, requests and frames bounded in time, pushes written directly
        http=guarded_http(app.state.node.ip_guard, settings.trusted_proxies),
        ws=DirectWriteProtocol,
        ws_max_size=WS_MAX_BYTES,
        # permessage-deflate keeps zlib state per socket: 48 KiB more per idle player and a
        # third less throughput (docs/performance.md, "Server load"); views are a few KB.
        ws_per_message_deflate=False,
        log_level=args.log_level,
        log_config=None,  # uvicorn's loggers go through ours (logging_setup: JSON or text)
        lifespan="on",
        proxy_headers=False,  # ours instead (server/ops/proxies.py): uvicorn trusts 127.0.0.1
    )
    return config, app.state.node


def serve(args: argparse.Namespace) -> int:
    logs.configure(args.log_level)
    process.raise_nofile(NOFILE)
    if args.server == "granian":
        return _serve_granian(args)
    process.set_gc_thresholds()
    config, node = build(args)
    server = _Server(config, node)
    listener = config.bind_socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)  # inherited
    server.run(sockets=[listener])
    return 0 if server.started else 1


def _serve_granian(args: argparse.Namespace) -> int:
    """granian runs the app in a worker process of its own, which builds it with `granian_app`
    from the environment: every option travels there as its CODEBREAKERS_* variable."""
    from granian import Granian
    from granian.constants import Interfaces
    from granian.log import LogLevels

    for name, value in vars(args).items():
        if name != "command" and value is not None:
            os.environ[f"CODEBREAKERS_{name.upper()}"] = str(value)
    Granian(
        f"{__name__}:granian_app",
        address=args.host,
        port=args.port,
        interface=Interfaces.ASGI,
        workers=1,
        websockets=True,
        backlog=BACKLOG,
        log_level=LogLevels(args.log_level.lower()),
        factory=True,
    ).serve()
    return 0


def granian_app() -> Any:
    """The app as `serve` builds it, for granian's worker (options from the environment)."""
    from codebreakers.cli import build_parser

    args = build_parser().parse_args(["serve"])
    logs.configure(args.log_level)
    process.set_gc_thresholds()
    config, _node = build(args)
    return config.app
