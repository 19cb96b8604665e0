"""The staff chord: a gesture no stranger makes by chance, and no staff member forgets.

Hold PEEK and Back together, and nothing else, for five seconds; let go; then
press Up Up Down Down A B within ten seconds. The hold alone only arms it
(a screen asks for the code); any wrong press disarms it. A storm of random
presses and holds would have to land the exact hold and then the six-press
code, which a seeded storm of 100,000 presses never does (tests).
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.box.pinout import Button

CHORD: frozenset[Button] = frozenset({"peek", "back"})
CHORD_HOLD = 5.0  # seconds the chord is held to arm the code
CODE: tuple[Button, ...] = ("up", "up", "down", "down", "choice_a", "choice_b")
CODE_TIME = 10.0  # seconds to enter the code once armed


class StaffChord:
    """Watches button levels and presses; says when the staff menu should open."""

    def __init__(self) -> None:
        self.held_since: float | None = None
        self.armed_until: float | None = None
        self.entered = 0

    @property
    def armed(self) -> bool:
        return self.armed_until is not None

    def levels(self, down: Iterable[str], now: float) -> None:
        """The buttons down at ``now``: exactly the chord for long enough arms the code."""
        if self.armed_until is not None and now > self.armed_until:
            self.disarm()
        if frozenset(down) != CHORD:
            self.held_since = None
            return
        if self.held_since is None:
            self.held_since = now
        elif now - self.held_since >= CHORD_HOLD and self.armed_until is None:
            self.armed_until = now + CODE_TIME
            self.entered = 0

    def press(self, button: str) -> bool:
        """A press while armed: True when it completes the code. Wrong presses disarm."""
        if self.armed_until is None or self.held_since is not None:
            return False  # not armed, or the chord is still held: its presses are not the code
        if button == CODE[self.entered]:
            self.entered += 1
            if self.entered == len(CODE):
                self.disarm()
                return True
            return False
        self.disarm()
        return False

    def disarm(self) -> None:
        self.armed_until = None
        self.entered = 0
