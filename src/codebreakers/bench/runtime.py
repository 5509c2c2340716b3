"""Process settings every benchmark process needs: enough file descriptors and a quiet GC.

Ten thousand sockets need more descriptors than the usual soft limit of 1,024, and CPython's
cyclic collector, left at its defaults, walks every live connection object in a full collection
and stalls the event loop for 100+ ms (see docs/performance.md), which would measure the
collector rather than the server.
"""

from __future__ import annotations

import gc
import resource

GC_THRESHOLDS = (200_000, 50, 1_000)


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


def tune_gc() -> None:
    """Collect young objects rarely and never rescan what start-up allocated."""
    gc.collect()
    gc.set_threshold(*GC_THRESHOLDS)
    gc.freeze()
