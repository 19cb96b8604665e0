"""A cheap memory probe for long runs: the process's resident memory, read from /proc.

``tracemalloc`` counts bytes exactly but traces every allocation, which made a long
run several times slower (a simulated kiosk day spent 70% of its CPU in it). A leak
worth the name (a list that grows with each press, a cache without a bound) grows
the resident memory as surely, and reading it costs one small file read, so it can
stay on for a whole day. ``tests/test_memory.py`` shows that it still catches a leak
of a few bytes a press.
"""

from __future__ import annotations

import os
import resource

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """The memory this process holds in RAM now (its peak where /proc is missing)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
