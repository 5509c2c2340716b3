"""`codebreakers serve`: its settings (server/ops/settings.py), then uvicorn or granian.

The garbage collector is tuned as docs/performance.md explains: with thousands of sockets a
full collection walks every object and stalls the event loop, so thresholds are raised and the
objects alive after start-up are frozen out of collections. The descriptor limit is raised too:
each player is a socket.
"""

from __future__ import annotations

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
from codebreakers.server.ops.process import BACKLOG, NOFILE, WS_MAX_BYTES
from codebreakers.server.ops.settings import Settings
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


def build(settings: Settings) -> tuple[uvicorn.Config, Node]:
    ports = Ports(
        store=open_store(settings.db),
        bus=open_bus(settings.redis),
        rules=server_rules(),
        make_bot=make_bot,
        bot_games=frozenset(BOT_GAMES),
    )
    node_config = ServerConfig.from_settings(settings, tune_gc=True)
    app = create_app(ports, node_config)
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        # uvicorn's protocols, requests and frames bounded in time, pushes written directly
        http=guarded_http(app.state.node.ip_guard, node_config.trusted_proxies),
        ws=DirectWriteProtocol,
        ws_max_size=WS_MAX_BYTES,
        # permessage-deflate keeps zlib state per socket: 48 KiB more per idle player and a
        # third less throughput (docs/performance.md, "Server load"); views are a few KB.
        ws_per_message_deflate=False,
        log_level=settings.log_level,
        log_config=None,  # uvicorn's loggers go through ours (server/ops/logs.py: JSON or text)
        lifespan="on",
        proxy_headers=False,  # ours instead (server/ops/proxies.py): uvicorn trusts 127.0.0.1
    )
    return config, app.state.node


def serve(settings: Settings) -> int:
    logs.configure(settings.log_level, settings.log_format)
    process.raise_nofile(NOFILE)
    if settings.server == "granian":
        return _serve_granian(settings)
    process.set_gc_thresholds()
    config, node = build(settings)
    server = _Server(config, node)
    listener = config.bind_socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)  # inherited
    server.run(sockets=[listener])
    return 0 if server.started else 1


def _serve_granian(settings: Settings) -> int:
    """granian runs the app in a worker process of its own, which builds it with `granian_app`
    from the environment: every setting travels there as its CODEBREAKERS_* variable."""
    from granian import Granian
    from granian.constants import Interfaces
    from granian.log import LogLevels

    os.environ.update(settings.environ())
    Granian(
        f"{__name__}:granian_app",
        address=settings.host,
        port=settings.port,
        interface=Interfaces.ASGI,
        workers=1,
        websockets=True,
        backlog=BACKLOG,
        log_level=LogLevels(settings.log_level),
        factory=True,
    ).serve()
    return 0


def granian_app() -> Any:
    """The app as `serve` builds it, for granian's worker (settings from the environment)."""
    settings = Settings.from_environ(os.environ)
    logs.configure(settings.log_level, settings.log_format)
    process.set_gc_thresholds()
    config, _node = build(settings)
    return config.app
