"""Running the bare endpoint for the bench under uvicorn or granian, with serve's settings.

The game itself runs through `codebreakers serve --server uvicorn|granian`. The bare endpoint
gets the same WebSocket settings (uvicorn's websockets-sansio protocol without
permessage-deflate, 1 MiB frames; granian never offers deflate), one worker, and serve's GC
thresholds.

Run as `python -m codebreakers.bench.asgi TARGET --port P --server uvicorn|granian [--factory]`.
"""

from __future__ import annotations

import argparse

from codebreakers.server.ops.process import (
    BACKLOG,
    NOFILE,
    WS_MAX_BYTES,
    raise_nofile,
    set_gc_thresholds,
)


def serve(target: str, host: str, port: int, server: str, factory: bool) -> None:
    raise_nofile(NOFILE)
    set_gc_thresholds()
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
