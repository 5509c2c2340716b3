"""What every load-generator client shares, whichever WebSocket library is under it.

Its own module so that `sockets.py` (which picks the client) and each client's module import it
without importing each other.
"""

from __future__ import annotations

from collections.abc import Callable

CONNECT_TIMEOUT_S = 120.0
MAX_FRAME = 2**22

FrameHandler = Callable[[str], None]
