"""The virtual box in a terminal: the OLED pixel for pixel, the LEDs, and keys for buttons.

It works over SSH. Keys press and release the mock pins, so a key takes the
very path a finger on the real box takes (pin, gpiozero, debouncer, queue,
table); the front end never calls the game.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import termios
import tty
from collections.abc import Callable
from typing import IO

from PIL import Image

from companion.box import Box
from companion.box.inputs import HOLD_TIME
from companion.box.pinout import Button

KEYS: dict[str, Button] = {
    "\x1b[A": "up",
    "\x1b[B": "down",
    "w": "up",
    "s": "down",
    "\r": "ok",
    "\n": "ok",
    " ": "ok",
    "\x7f": "back",
    "\x08": "back",
    "\x1b": "back",
    "a": "choice_a",
    "1": "choice_a",
    "b": "choice_b",
    "2": "choice_b",
}
PEEK_KEY = "p"  # a terminal has no key-up: p shows the card until the next key, or PEEK_SHOW
PEEK_SHOW = 4.0  # seconds PEEK stays down after p, at most
#: PEEK held and Up: the phone's QR code; and Down: the seat's code. They leave PEEK down
PEEK_GESTURES = ("up", "down")
HOLDS: dict[str, Button] = {
    "O": "ok",
    "X": "back",
}  # a long OK (a new game) and a long Back (abandon)
TAP = 0.08
HOLD = HOLD_TIME + 0.5  # a held key is let go this long after: surely past the box's hold
QUIT_KEYS = ("q", "\x03")
QUIT_CONFIRM = 3.0  # seconds in which a second q (or Ctrl-C) quits
HELP = "↑↓/ws move  Enter OK  Bksp back  a/b choice  p peek  O/X hold OK/Back  q quit"
CHORD_KEY = "S"  # a booth's staff chord (PEEK and Back held together), which two keys cannot hold
#: the kiosk's keys: the staff chord on S, the rest as HELP, shorter to stay within 80 columns
KIOSK_HELP = "↑↓ move  Enter OK  Bksp back  a/b choice  p peek  O/X hold  S staff  q quit"
ASK_QUIT = "Quit? q again to quit; any other key carries on."
#: on exit: clear the screen and its scrollback, leave the alternate screen, show the cursor
CLEAR = "\x1b[H\x1b[2J\x1b[3J\x1b[?1049l\x1b[?25h"
BRAILLE = 0x2800
# The dot of a braille cell (2 pixels wide, 4 high) for each pixel, as Unicode numbers them.
DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
COLUMNS, ROWS = 80, 24  # the smallest terminal the whole box fits in


def oled_art(image: Image.Image) -> list[str]:
    """The frame as braille: one character for 2 x 4 pixels, so 128 x 64 fits 64 x 16."""
    width, height = image.size
    pixels = image.convert("L").tobytes()
    lines = []
    for top in range(0, height, 4):
        cells = [BRAILLE] * (width // 2)
        for dy, row_dots in enumerate(DOTS):
            row = pixels[(top + dy) * width : (top + dy + 1) * width]
            for x, value in enumerate(row):
                if value:
                    cells[x >> 1] |= row_dots[x & 1]
        lines.append("".join(map(chr, cells)))
    return lines


def art_pixels(lines: list[str]) -> Image.Image:
    """Read the art back into an image (how tests check what the terminal shows)."""
    image = Image.new("1", (2 * len(lines[0]), 4 * len(lines)))
    for row, line in enumerate(lines):
        for cell, ch in enumerate(line):
            bits = ord(ch) - BRAILLE
            for dy, row_dots in enumerate(DOTS):
                for dx, dot in enumerate(row_dots):
                    if bits & dot:
                        image.putpixel((2 * cell + dx, 4 * row + dy), 1)
    return image


def leds(box: Box, held: set[Button]) -> list[str]:
    """The LEDs, the buzzer and any button held down, to stand beside the panel.

    Nothing here says which button was pressed last: onlookers must not learn
    an A from a B. A held PEEK shows, as a finger on the real button would.
    """
    level = box.outputs.level
    return [
        f"A {'●' if level('status_a') else '○'}  B {'◐' if level('status_b') else '○'}",
        "",
        "".join("■" if i < level("bar") else "□" for i in range(10)),
        "",
        "♪" if level("buzzer") else "",
        "",
        *(f"{button.upper()} held" for button in sorted(held)),
    ]


def panel(art: list[str], side: list[str], help_line: str = HELP) -> list[str]:
    """The panel with the LEDs beside it and the keys below: at most 80 x 23 characters."""
    rows = [f"{line} │ {side[i] if i < len(side) else ''}" for i, line in enumerate(art)]
    return [*rows, "", help_line]


class Terminal:
    """Draws the box and turns keys into presses, until q twice.

    Safer than the box, since a laptop has no hood: PEEK is let go at the next key
    (before that key acts, so the OK of a hand-over never shows the next seat's card),
    after ``PEEK_SHOW`` seconds, or when the screen changes under it; quitting asks
    first; the screen is wiped on the way out.
    """

    def __init__(
        self,
        box: Box,
        step: Callable[[], None],
        out: IO[str] | None = None,
        chord: tuple[frozenset[Button], float] | None = None,
    ) -> None:
        """``chord``: the buttons of a booth's staff chord and how long they are held, which
        ``CHORD_KEY`` then holds for the user (``KIOSK_HELP`` names it)."""
        self.box = box
        self.step = step
        self.out = out or sys.stdout
        self.chord = chord
        self.help = HELP if chord is None else KIOSK_HELP
        box.hooded = False  # a laptop has no hood: private lines wait for p
        self.releases: dict[Button, float] = {}
        self.toggled: set[Button] = set()
        self.frame: list[str] = []
        self.peek_until = 0.0
        self.peek_frames: list[list[str]] = []  # the screen before PEEK, then PEEK's own
        self.quit_until: float | None = None
        box.outputs.frame_sinks.append(lambda image, t: self._new_frame())

    def _new_frame(self) -> None:
        self.frame = oled_art(self.box.virtual_board.glass())
        if "peek" in self.toggled and self.frame not in self.peek_frames:
            if len(self.peek_frames) < 2:
                self.peek_frames.append(self.frame)  # what PEEK shows
            else:
                self._let_go_peek()  # the screen changed under PEEK: not its card any more

    def _let_go_peek(self) -> None:
        if "peek" in self.toggled:
            self.toggled.discard("peek")
            self.box.virtual_board.drive("peek", False)

    def key(self, text: str) -> bool:
        """One key from the keyboard; False to quit."""
        now = self.box.clock.now()
        if self.quit_until is not None:
            asked, self.quit_until = now < self.quit_until, None
            if asked:  # the key answers "Quit?" and does nothing else
                return text not in QUIT_KEYS
        if text in QUIT_KEYS:
            self._let_go_peek()  # no card stays up under "Quit?"
            self.quit_until = now + QUIT_CONFIRM
            return True
        if "peek" in self.toggled and text != PEEK_KEY and KEYS.get(text) not in PEEK_GESTURES:
            self._let_go_peek()
        if text == PEEK_KEY:
            if "peek" in self.toggled:
                self._let_go_peek()
            else:
                self.toggled.add("peek")
                self.peek_frames = [self.frame]
                self.peek_until = now + PEEK_SHOW
                self.box.virtual_board.drive("peek", True)
        elif text in HOLDS:
            button = HOLDS[text]
            self.box.virtual_board.drive(button, True)
            self.releases[button] = now + HOLD
        elif text == CHORD_KEY and self.chord is not None:
            buttons, hold = self.chord
            for button in sorted(buttons):  # held together, let go together
                self.box.virtual_board.drive(button, True)
                self.releases[button] = now + hold + 0.5
        elif text in KEYS:
            button = KEYS[text]
            self.box.virtual_board.drive(button, True)
            self.releases[button] = now + TAP
        return True

    def release_due(self) -> None:
        now = self.box.clock.now()
        for button, at in list(self.releases.items()):
            if now >= at:
                self.box.virtual_board.drive(button, False)
                del self.releases[button]
        if "peek" in self.toggled and now >= self.peek_until:
            self._let_go_peek()
        if self.quit_until is not None and now >= self.quit_until:
            self.quit_until = None

    def lines(self) -> list[str]:
        """What the terminal shows: the panel, the LEDs beside it, the keys below."""
        help_line = ASK_QUIT if self.quit_until is not None else self.help
        return panel(self.frame, leds(self.box, self.toggled), help_line)

    def draw(self) -> None:
        lines = self.lines()
        size = terminal_size(self.out)
        if size is not None and (size[0] < COLUMNS or size[1] < len(lines) + 1):
            have = f"{size[0]} x {size[1]}"
            lines = [f"The box needs {COLUMNS} x {ROWS} characters; this terminal has {have}."]
        self.out.write("\x1b[H" + "\x1b[K\n".join(lines) + "\x1b[K\x1b[J")
        self.out.flush()

    def _interrupted(self, signum: int, frame: object) -> None:
        """Ctrl-C asks first, like q (and lets PEEK go first); a second one quits even a loop
        that is stuck."""
        if self.quit_until is not None:
            raise KeyboardInterrupt
        self._let_go_peek()
        self.quit_until = self.box.clock.now() + QUIT_CONFIRM

    def run(self, fd: int | None = None) -> None:
        fd = sys.stdin.fileno() if fd is None else fd
        saved = termios.tcgetattr(fd) if os.isatty(fd) else None
        try:
            old_handler = signal.signal(signal.SIGINT, self._interrupted)
        except ValueError:  # not the main thread: Ctrl-C stays Python's own
            old_handler = None
        try:
            if saved is not None:
                tty.setcbreak(fd)
            self.out.write("\x1b[?1049h\x1b[2J\x1b[?25l")  # the alternate screen
            self._loop(fd)
        finally:
            if old_handler is not None:
                signal.signal(signal.SIGINT, old_handler)
            self._let_go_peek()
            if saved is not None:
                termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            self.out.write(CLEAR)  # no last frame left behind: no card, no hand
            self.out.flush()

    def _loop(self, fd: int) -> None:
        shown: tuple[str, ...] = ()
        while True:
            ready, _, _ = select.select([fd], [], [], 0.02)
            if ready:
                data = os.read(fd, 64).decode(errors="ignore")
                if not data:
                    return
                for text in split_keys(data):
                    if not self.key(text):
                        return
            self.release_due()
            self.step()
            current = (*self.lines(), str(terminal_size(self.out)))  # redrawn on a resize too
            if current != shown:
                self.draw()
                shown = current


def terminal_size(out: IO[str]) -> tuple[int, int] | None:
    """The columns and rows of the terminal ``out`` writes to, or None if it is not one."""
    try:
        size = os.get_terminal_size(out.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return size.columns, size.lines


def split_keys(data: str) -> list[str]:
    """Split raw input into keys, keeping escape sequences (arrows) whole."""
    keys = []
    i = 0
    while i < len(data):
        if data.startswith("\x1b[", i) and i + 2 < len(data):
            keys.append(data[i : i + 3])
            i += 3
        else:
            keys.append(data[i])
            i += 1
    return keys
