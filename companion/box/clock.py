"""The box's clocks: the wall clock at a table, a virtual one for demos and tests.

Everything timed (debouncing, blinks, holds, screen changes) reads one clock,
so a demo on the virtual clock replays to the same millisecond every time.
"""

from __future__ import annotations

import time


class WallClock:
    def now(self) -> float:
        return time.monotonic()


class VirtualClock:
    """Time that moves only when told to."""

    def __init__(self, start: float = 0.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time does not go backwards")
        self.t += seconds
