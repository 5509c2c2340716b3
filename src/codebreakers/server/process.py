"""Process settings for thousands of sockets: enough file descriptors and a quiet GC.

Used by `codebreakers serve` and by every benchmark process. Ten thousand sockets need more
descriptors than the usual soft limit of 1,024, and CPython's cyclic collector, left at its
defaults, walks every live connection object in a full collection and stalls the event loop for
100+ ms (see docs/performance.md).
"""

from __future__ import annotations

import gc
import resource

GC_THRESHOLDS = (200_000, 50, 1_000)
NOFILE = 65_536  # descriptors wanted (capped by the hard limit)
BACKLOG = 4096  # pending connections granian queues (uvicorn's own default: 2048)
WS_MAX_BYTES = 1024 * 1024  # beyond the protocol's own 64 KiB check, which answers with an error


def raise_nofile(wanted: int) -> int:
    """Raise the soft (and, if allowed, hard) descriptor limit to `wanted`; return the new soft."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= wanted:
        return soft
    if hard != resource.RLIM_INFINITY and hard < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return wanted
        except (ValueError, OSError):
            wanted = hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return wanted


def freeze_startup() -> None:
    """Never rescan what start-up allocated (it lives as long as the process)."""
    gc.collect()
    gc.freeze()


def set_gc_thresholds() -> None:
    """Collect young objects rarely: each pass walks every object created since the last."""
    gc.set_threshold(*GC_THRESHOLDS)


def tune_gc() -> None:
    """Collect young objects rarely and never rescan what start-up allocated."""
    set_gc_thresholds()
    freeze_startup()
