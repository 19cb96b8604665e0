"""What the box shows and sounds, on the box's clock, with a trace of every change.

Blinks and beeps are timed by the table's own schedule rather than
gpiozero's background threads, so that the same presses give the same
trace to the millisecond: that is what lets a test prove that every secret
choice looks and sounds the same.

A running box keeps the last ``TRACE_KEPT`` changes (``trace_limit``), so that
memory stays flat over days of play; a demo sets ``trace_limit = None`` to keep
its whole trace, which the swap tests compare.
"""

from __future__ import annotations

import gc
import heapq
import itertools
from collections.abc import Callable
from typing import Any

from PIL import Image

from companion.box.board import Board

FEEDBACK_BLINK = 0.15  # seconds the status LED lights after a press
FEEDBACK_BEEP = 0.06  # seconds the buzzer sounds after a press
TRACE_KEPT = 4096  # changes a running box keeps in its trace

FrameSink = Callable[[Image.Image, float], None]


def _freeze_what_loaded() -> None:
    """What the process made until its first frame (modules, classes, functions: some 20,000
    objects, nearly all for good) is moved out of the garbage collector's sight, once, so that
    no later full collection walks it again (some 10 ms here, a Pi Zero ten times more, which
    a press could pay), nor the exit (``gc.freeze``; what little of it is garbage stays)."""
    if gc.get_freeze_count() == 0:
        gc.freeze()


class Outputs:
    def __init__(self, board: Board, clock: Callable[[], float]) -> None:
        self.board = board
        self.clock = clock
        self.trace: list[str] = []
        self.trace_limit: int | None = TRACE_KEPT
        self.frame_sinks: list[FrameSink] = []
        self.frames_shown = 0
        self._last_frame: bytes | None = None
        self._last_image: Image.Image | None = None
        self._levels: dict[str, Any] = {}
        self._due: list[tuple[float, int, str, Any]] = []
        self._order = itertools.count()

    def level(self, device: str) -> Any:
        """What a device shows now (0 when never set)."""
        return self._levels.get(device, 0)

    # -- immediate changes --------------------------------------------------------
    def _record(self, device: str, value: Any) -> bool:
        if self._levels.get(device) == value:
            return False
        self._levels[device] = value
        self.trace.append(f"{self.clock():.3f} {device} {value}")
        if self.trace_limit is not None and len(self.trace) >= 2 * self.trace_limit:
            del self.trace[: -self.trace_limit]  # trimmed in halves: appends stay cheap
        return True

    def show(self, image: Image.Image) -> bool:
        """Hand a frame to the OLED driver if it differs from the one shown. The loop hands
        the same image again while its screen is unchanged (a frame is never drawn on once
        shown): that one is known without packing its bytes."""
        if image is self._last_image:
            return False
        data = image.tobytes()
        self._last_image = image
        if data == self._last_frame:
            return False
        self._last_frame = data
        self.board.oled.display(image)
        self.frames_shown += 1
        if self.frames_shown == 1:
            _freeze_what_loaded()
        now = self.clock()
        for sink in self.frame_sinks:
            sink(image, now)
        return True

    def set_bar(self, lit: int) -> None:
        """Light the bottom ``lit`` LEDs of the bar (0 to 10)."""
        lit = max(0, min(len(self.board.bar), lit))
        if self._record("bar", lit):
            self.board.bar.light(lit)

    def set_led(self, name: str, value: float) -> None:
        if self._record(name, round(value, 3)):
            getattr(self.board, name).value = value

    def set_buzzer(self, on: bool) -> None:
        if self._record("buzzer", int(on)):
            self.board.buzzer.value = int(on)

    # -- timed changes ------------------------------------------------------------
    def later(self, delay: float, device: str, value: Any) -> None:
        heapq.heappush(self._due, (self.clock() + delay, next(self._order), device, value))

    def feedback(self) -> None:
        """The one blink-and-beep every press gets, whatever was pressed."""
        self.set_led("status_a", 1.0)
        self.set_buzzer(True)
        self.later(FEEDBACK_BEEP, "buzzer", False)
        self.later(FEEDBACK_BLINK, "status_a", 0.0)

    def tick(self) -> None:
        """Carry out the timed changes that are due."""
        now = self.clock()
        while self._due and self._due[0][0] <= now:
            _, _, device, value = heapq.heappop(self._due)
            if device == "buzzer":
                self.set_buzzer(value)
            else:
                self.set_led(device, value)

    @property
    def busy(self) -> bool:
        return bool(self._due)
