"""The virtual board's pins: gpiozero's mock PWM pins with a bounded history.

gpiozero's ``MockPin`` appends every change to ``states`` for its own tests'
``assert_states``; a box mashed for hours would keep them all. Here the
history keeps the last ``HISTORY`` changes, which ``assert_states`` still reads.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from gpiozero.pins.mock import MockPWMPin

HISTORY = 64  # changes kept per pin


class BoundedMockPin(MockPWMPin):  # type: ignore[misc]  # gpiozero ships no type hints
    def clear_states(self) -> None:
        super().clear_states()
        self.states: Any = deque(self.states, maxlen=HISTORY)
