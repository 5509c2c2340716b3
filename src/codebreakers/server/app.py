"""The ASGI application: routes, the WebSocket, static files, and the node's lifetime.

`create_app` takes the node's ports (store, bus, rules, bots, clock) and settings, so the same
factory serves `codebreakers serve`, the in-process test client and the benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, WebSocketRoute

from codebreakers.server.cluster import shutdown
from codebreakers.server.cluster.node import Node
from codebreakers.server.errors import BUSY_DETAIL, ErrorCode, Refused
from codebreakers.server.http import me, passkeys, quickplay, standings, static
from codebreakers.server.http.routes import WEB_DIR, error_response, routes
from codebreakers.server.http.security import SecurityMiddleware
from codebreakers.server.ops import metrics, process
from codebreakers.server.ops.config import Ports, ServerConfig
from codebreakers.server.ops.logs import get_logger
from codebreakers.server.ops.proxies import ForwardedMiddleware
from codebreakers.server.ws.endpoint import asgi_endpoint
from codebreakers.store.base import StoreBusy

log = get_logger(__name__)


async def _not_found(request: Request, exc: Exception) -> Response:
    return error_response(Refused(ErrorCode.NOT_FOUND, f"nothing at {request.url.path}"))


async def _refused(request: Request, exc: Exception) -> Response:
    """A refusal no route answered itself (such as `busy` from the store) as its JSON error."""
    assert isinstance(exc, Refused)
    return error_response(exc)


async def _busy(request: Request, exc: Exception) -> Response:
    """The store could not take a call in time (`StoreBusy`, nothing done): 503 `busy`, and the
    client may send the same request again."""
    log.warning("store busy: request refused", path=request.url.path)
    return error_response(Refused(ErrorCode.BUSY, BUSY_DETAIL))


def create_app(ports: Ports, config: ServerConfig | None = None) -> Starlette:
    node = Node(ports, config or ServerConfig())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await node.start()
        config = node.config
        scrapes = None
        if config.metrics_port:
            scrapes = await metrics.serve_port(
                node.metrics, config.metrics_host, config.metrics_port
            )
        collector = None
        if node.config.tune_gc:
            process.freeze_startup()
            collector = asyncio.get_running_loop().create_task(process.collect_on_schedule())
        try:
            yield
        finally:
            if scrapes is not None:
                scrapes.close()
            await shutdown.settle(node)
            await node.close()
            if collector is not None:
                collector.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await collector

    app = Starlette(
        routes=[
            *routes(node),
            *quickplay.routes(node),
            *me.routes(node),
            *passkeys.routes(node),
            *standings.routes(node),
            WebSocketRoute("/ws", partial(asgi_endpoint, node)),
            # The build's files (named by the page) for a year; the plain path revalidated.
            Mount(
                f"/static/{static.build_id(WEB_DIR)}", static.CachedFiles(WEB_DIR, static.IMMUTABLE)
            ),
            Mount("/static", static.CachedFiles(WEB_DIR, static.REVALIDATE), name="static"),
        ],
        middleware=[
            Middleware(ForwardedMiddleware, proxies=node.config.trusted_proxies),
            Middleware(SecurityMiddleware, public_url=node.config.public_url),
            Middleware(GZipMiddleware, minimum_size=512),
        ],
        exception_handlers={404: _not_found, Refused: _refused, StoreBusy: _busy},
        lifespan=lifespan,
    )
    app.state.node = node
    return app


__all__ = ["create_app"]
