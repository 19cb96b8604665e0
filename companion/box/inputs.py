"""Buttons as a real table uses them: bouncy contacts, impatient hands, a full queue.

The debouncer is ours, a pure function of timestamped edges, because
gpiozero's mock pins ignore ``bounce_time`` and so could never test it. It
takes the first edge of a change at once (no added latency) and then ignores
the contact for ``hold_off`` seconds, after which it follows the settled
level. A press shorter than the hold-off still counts: the release is taken
when the hold-off ends.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Literal

from companion.box.pinout import Button
from companion.valueclass import valueclass

#: what became of a button: pushed, let go, or held past HOLD_TIME
PressKind = Literal["press", "release", "hold"]

HOLD_OFF = 0.015  # longer than contact bounce (<= 10 ms), shorter than a quick tap
HOLD_TIME = 1.5  # a press this long is a hold (for anything destructive)
QUEUE_SIZE = 16


@valueclass(frozen=True)
class Press:
    """A debounced button event: ``kind`` is "press", "release" or "hold"."""

    t: float
    button: Button
    kind: PressKind


class Debouncer:
    """One button's contact, turned into clean transitions."""

    def __init__(self, hold_off: float = HOLD_OFF, hold_time: float = HOLD_TIME) -> None:
        self.hold_off = hold_off
        self.hold_time = hold_time
        self.raw = False
        self.raw_since = float("-inf")
        self.pressed = False
        self.locked_until = float("-inf")
        self.pressed_at = float("-inf")
        self.held = False

    def edge(self, t: float, level: bool) -> list[tuple[float, PressKind]]:
        """Feed a raw edge (``level`` True = contact closed); return the clean events due."""
        events = self.poll(t)
        if level != self.raw:
            self.raw = level
            self.raw_since = t
        return events + self.poll(t)

    def poll(self, t: float) -> list[tuple[float, PressKind]]:
        """The clean events due by time ``t`` (call it from the loop for holds)."""
        events: list[tuple[float, PressKind]] = []
        while True:
            # A change settled after the hold-off, or at once when not locked.
            if self.raw != self.pressed:
                at = max(self.raw_since, self.locked_until)
                if at > t:
                    break
                self.pressed = self.raw
                self.locked_until = at + self.hold_off
                if self.pressed:
                    self.pressed_at = at
                    self.held = False
                events.append((at, "press" if self.pressed else "release"))
                continue
            break
        if self.pressed and not self.held and t - self.pressed_at >= self.hold_time:
            self.held = True
            events.append((self.pressed_at + self.hold_time, "hold"))
        return events


def debounce(
    edges: Iterable[tuple[float, bool]], hold_off: float = HOLD_OFF
) -> list[tuple[float, PressKind]]:
    """The clean press and release events in a trace of raw edges (holds left out)."""
    d = Debouncer(hold_off, hold_time=float("inf"))
    events: list[tuple[float, PressKind]] = []
    for t, level in edges:
        events += d.edge(t, level)
    events += d.poll(float("inf"))
    return events


class Inputs:
    """Every button's debouncer and one bounded queue of clean events.

    When the queue is full the newest event is dropped and counted: the table
    drops stale presses anyway, and an unbounded queue would let a stuck
    button eat the memory of a box that runs for days.
    """

    def __init__(
        self, buttons: Iterable[Button], clock: Callable[[], float], size: int = QUEUE_SIZE
    ) -> None:
        self.clock = clock
        self.debouncers = {name: Debouncer() for name in buttons}
        self.queue: deque[Press] = deque()
        self.size = size
        self.dropped = 0
        # When every debouncer was last polled, with no edge since: polling again at that
        # time finds nothing new (the loop asks each button's level, then takes the queue,
        # all at one time), so it is skipped.
        self.polled_at: float | None = None

    def edge(self, button: Button, level: bool) -> None:
        """A raw edge from a pin callback, stamped with the box's clock."""
        self.polled_at = None
        self._push(button, self.debouncers[button].edge(self.clock(), level))

    def poll(self) -> None:
        now = self.clock()
        if now == self.polled_at:
            return
        self.polled_at = now
        for name, debouncer in self.debouncers.items():
            self._push(name, debouncer.poll(now))

    def _push(self, button: Button, events: list[tuple[float, PressKind]]) -> None:
        for t, kind in events:
            if len(self.queue) >= self.size:
                self.dropped += 1
                continue
            self.queue.append(Press(t, button, kind))

    def take(self) -> Press | None:
        self.poll()
        return self.queue.popleft() if self.queue else None

    def clear(self) -> int:
        """Drop every waiting event (a new phase began); return how many."""
        self.poll()
        n = len(self.queue)
        self.queue.clear()
        return n

    def is_down(self, button: Button) -> bool:
        self.poll()
        return self.debouncers[button].pressed
