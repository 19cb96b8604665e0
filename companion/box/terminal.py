"""The virtual box in a terminal: the OLED pixel for pixel, the LEDs, and keys for buttons.

It works over SSH. Keys press and release the mock pins, so a key takes the
very path a finger on the real box takes (pin, gpiozero, debouncer, queue,
table); the front end never calls the game.
"""

from __future__ import annotations

import os
import select
import sys
import termios
import tty
from collections.abc import Callable
from typing import IO

from PIL import Image

from companion.box import Box

KEYS = {
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
TOGGLES = {"p": "peek"}  # a terminal has no key-up: p holds PEEK down until pressed again
HOLDS = {"O": "ok"}  # capital O holds OK for two seconds (a new game)
TAP = 0.08
HOLD = 2.0
HELP = "↑↓/ws move  Enter OK  Bksp back  a/b choice  p peek  O hold OK  q quit"
HALF_BLOCKS = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}


def oled_art(image: Image.Image) -> list[str]:
    """The frame as text: one character for two pixel rows, so 128x64 fits 128x32."""
    bits = image.convert("1").load()
    width, height = image.size
    return [
        "".join(HALF_BLOCKS[(int(bits[x, y] > 0), int(bits[x, y + 1] > 0))] for x in range(width))
        for y in range(0, height, 2)
    ]


def art_pixels(lines: list[str]) -> Image.Image:
    """Read the art back into an image (how tests check what the terminal shows)."""
    back = {ch: pair for pair, ch in HALF_BLOCKS.items()}
    image = Image.new("1", (len(lines[0]), 2 * len(lines)))
    for row, line in enumerate(lines):
        for x, ch in enumerate(line):
            top, bottom = back[ch]
            image.putpixel((x, 2 * row), top)
            image.putpixel((x, 2 * row + 1), bottom)
    return image


def led_line(box: Box) -> str:
    level = box.outputs.level
    bar = "".join("■" if i < level("bar") else "□" for i in range(10))
    a = "●" if level("status_a") else "○"
    b = "◐" if level("status_b") else "○"
    buzz = "♪" if level("buzzer") else " "
    return f"bar [{bar}]  A {a}  B {b}  {buzz}"


class Terminal:
    """Draws the box and turns keys into presses, until q."""

    def __init__(self, box: Box, step: Callable[[], None], out: IO[str] | None = None) -> None:
        self.box = box
        self.step = step
        self.out = out or sys.stdout
        self.releases: dict[str, float] = {}
        self.toggled: set[str] = set()
        self.last_key = ""
        self.frame: list[str] = []
        box.outputs.frame_sinks.append(lambda image, t: self._new_frame())

    def _new_frame(self) -> None:
        self.frame = oled_art(self.box.virtual_board.glass())

    def key(self, text: str) -> bool:
        """One key from the keyboard; False to quit."""
        if text in ("q", "\x03"):
            return False
        now = self.box.clock.now()
        if text in TOGGLES:
            button = TOGGLES[text]
            down = button not in self.toggled
            self.toggled.symmetric_difference_update({button})
            self.box.virtual_board.drive(button, down)
            self.last_key = f"{button} {'held' if down else 'released'}"
        elif text in HOLDS:
            button = HOLDS[text]
            self.box.virtual_board.drive(button, True)
            self.releases[button] = now + HOLD
            self.last_key = f"{button} held"
        elif text in KEYS:
            button = KEYS[text]
            self.box.virtual_board.drive(button, True)
            self.releases[button] = now + TAP
            self.last_key = button
        return True

    def release_due(self) -> None:
        now = self.box.clock.now()
        for button, at in list(self.releases.items()):
            if now >= at:
                self.box.virtual_board.drive(button, False)
                del self.releases[button]

    def draw(self) -> None:
        lines = ["\x1b[H", *self.frame, "", led_line(self.box), f"key: {self.last_key:<24}", HELP]
        self.out.write("\x1b[K\n".join(lines) + "\x1b[K")
        self.out.flush()

    def run(self, fd: int | None = None) -> None:
        fd = sys.stdin.fileno() if fd is None else fd
        saved = termios.tcgetattr(fd) if os.isatty(fd) else None
        try:
            if saved is not None:
                tty.setcbreak(fd)
            self.out.write("\x1b[2J\x1b[?25l")
            self._loop(fd)
        finally:
            if saved is not None:
                termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            self.out.write("\x1b[?25h\n")
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
            current = (*self.frame, led_line(self.box), self.last_key)
            if current != shown:
                self.draw()
                shown = current


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
