"""Running an ASGI app for the bench under uvicorn or granian, with the same settings as serve.

`codebreakers serve` runs the game under uvicorn only; to compare granian on the real game the
bench serves the same app, built by serve's own `build()` from the same `CODEBREAKERS_*`
settings, under granian (`codebreakers.bench.asgi:game_app` as a factory). The bare endpoint runs
through here under both servers. Both servers get serve's WebSocket settings (uvicorn's
websockets-sansio protocol without permessage-deflate, 1 MiB frames; granian never offers
deflate), one worker, and the GC thresholds serve uses.

Run as `python -m codebreakers.bench.asgi TARGET --port P --server uvicorn|granian [--factory]`.
"""

from __future__ import annotations

import argparse
import gc
from typing import Any

from codebreakers.bench.runtime import GC_THRESHOLDS, raise_nofile

BACKLOG = 4096
WS_MAX_BYTES = 1024 * 1024


def game_app() -> Any:
    """The game's app exactly as `codebreakers serve` builds it (settings from the environment)."""
    from codebreakers.cli import build_parser
    from codebreakers.server.main import build

    config, _node = build(build_parser().parse_args(["serve"]))
    return config.app


def serve(target: str, host: str, port: int, server: str, factory: bool) -> None:
    raise_nofile(65_536)
    gc.set_threshold(*GC_THRESHOLDS)
    if server == "granian":
        from granian import Granian
        from granian.constants import Interfaces
        from granian.log import LogLevels

        Granian(
            target,
            address=host,
            port=port,
            interface=Interfaces.ASGI,
            workers=1,
            websockets=True,
            backlog=BACKLOG,
            log_level=LogLevels.warning,
            factory=factory,
        ).serve()
        return
    import uvicorn

    uvicorn.run(
        target,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_BYTES,
        ws_per_message_deflate=False,
        backlog=BACKLOG,
        log_level="warning",
        access_log=False,
        factory=factory,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("target", help="module:attribute")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--server", choices=["uvicorn", "granian"], default="uvicorn")
    parser.add_argument(
        "--factory", action="store_true", help="TARGET is a function returning the app"
    )
    args = parser.parse_args()
    serve(args.target, args.host, args.port, args.server, args.factory)


if __name__ == "__main__":
    main()
