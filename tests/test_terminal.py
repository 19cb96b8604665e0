"""The virtual box in a terminal, driven over a pseudo-terminal as over SSH."""

import codecs
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.box.terminal import art_pixels, oled_art, split_keys
from companion.ui.canvas import Screen, render

ROOT = Path(__file__).resolve().parents[1]
ART = re.compile(r"^[ ▀▄█]{128}$")


def test_art_round_trips_every_pixel():
    image = render(Screen("Turn 1/7 Canal 0", ("Siège 4: Колхоз é è ç",), "OK"))
    assert art_pixels(oled_art(image)).tobytes() == image.tobytes()


def test_escape_sequences_stay_whole():
    assert split_keys("\x1b[Aa\r\x1b[B") == ["\x1b[A", "a", "\r", "\x1b[B"]


class Pty:
    """A program on a pseudo-terminal: type keys, read the last screen it drew."""

    def __init__(self, argv, cwd=ROOT, env=None):
        # subprocess forks and execs in C: no Python code (or lock held by another
        # thread of the test process) runs in the child before the program starts.
        self.fd, child_end = pty.openpty()
        self.process = subprocess.Popen(
            argv,
            cwd=cwd,
            env={**os.environ, **(env or {}), "TERM": "xterm"},
            stdin=child_end,
            stdout=child_end,
            stderr=child_end,
            start_new_session=True,
        )
        os.close(child_end)
        self.pid = self.process.pid
        self.buffer = ""
        # A read may end in the middle of a character: decode across reads.
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def read(self, seconds):
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = self.decoder.decode(os.read(self.fd, 65536))
            except OSError:
                break
            if not chunk:
                break
            self.buffer += chunk

    def screen(self):
        """The last complete OLED picture drawn, as art lines."""
        frames = self.buffer.split("\x1b[H")
        for frame in reversed(frames):
            lines = [line.replace("\x1b[K", "").rstrip("\r") for line in frame.split("\n")]
            art = [line for line in lines if ART.match(line)]
            if len(art) == 32:
                return art, "\n".join(lines)
        return None, ""

    def wait_for(self, expected, seconds=60):
        """Read until the screen shows ``expected`` (a Screen), or fail."""
        end = time.monotonic() + seconds
        want = oled_art(render(expected))
        while time.monotonic() < end:
            self.read(0.3)
            art, _ = self.screen()
            if art == want:
                return
        art, text = self.screen()
        raise AssertionError(f"the terminal never showed {expected}; last:\n{text[-3000:]}")

    def type(self, keys):
        """Type after a moment, as a person who has read the screen (the box drops
        presses made within its guard time of a new prompt)."""
        self.read(0.4)
        os.write(self.fd, keys.encode())

    def finish(self, seconds=10):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if (code := self.process.poll()) is not None:
                os.close(self.fd)
                return code
            self.read(0.2)
        self.process.kill()
        raise AssertionError("the program did not quit")


def setup_screen(row, values):
    """The setup screen as the table draws it, row ``row`` selected."""
    labels = [
        f"Game: {values[0]}",
        f"Players: {values[1]}",
        f"Deal: {values[2]}",
        f"Deck: {values[3]}",
        f"Language: {values[4]}",
    ]
    first = max(0, min(row - 1, len(labels) - 3))
    lines = tuple(("►" if i == row else " ") + labels[i] for i in range(first, first + 3))
    last = row == len(labels) - 1
    return Screen("New game", lines, "▲▼ change  OK: start" if last else "▲▼ change  OK: next")


DEFAULTS = ["Gulag", 7, "by the box", "English", "English"]


def test_the_virtual_box_runs_in_a_terminal_and_keys_press_its_buttons(tmp_path):
    term = Pty(
        [sys.executable, "-m", "companion", "run", "--board", "virtual", "--seed", "1"],
        env={"COMPANION_DATA": str(tmp_path)},
    )
    term.wait_for(setup_screen(0, DEFAULTS))
    term.type("\r")  # OK: to the players row
    term.wait_for(setup_screen(1, DEFAULTS))
    term.type("\x1b[A")  # Up: 8 players
    term.wait_for(setup_screen(1, ["Gulag", 8, "by the box", "English", "English"]))
    _, text = term.screen()
    assert "key: up" in text and "bar [□□□□□□□□□□]" in text
    term.type("q")
    assert term.finish() == 0


@pytest.mark.skipif(
    shutil.which("make") is None or shutil.which("git") is None, reason="needs make and git"
)
def test_the_readme_run_command_starts_the_box_from_a_fresh_clone(tmp_path):
    readme = (ROOT / "README.md").read_text()
    assert "\n    make run\n" in readme
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    # The committed tree only: the clone has no virtual environment yet.
    assert not (clone / ".venv").exists()
    term = Pty(["make", "run"], cwd=clone, env={"COMPANION_DATA": str(tmp_path / "data")})
    term.wait_for(setup_screen(0, DEFAULTS), seconds=900)  # a first install, on a busy machine
    term.type("q")
    assert term.finish(seconds=30) == 0
