"""The virtual box in a terminal, driven over a pseudo-terminal as over SSH."""

import codecs
import fcntl
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tarfile
import termios
import time
from pathlib import Path

import pytest

from companion.box import VirtualClock, open_box
from companion.box.terminal import COLUMNS, ROWS, art_pixels, oled_art, split_keys
from companion.demo import GAP, Player
from companion.games import game_class
from companion.modes import Choose
from companion.table import Settings, Table
from companion.ui.canvas import Screen, render

ROOT = Path(__file__).resolve().parents[1]
ART = re.compile(r"^([\u2800-\u28ff]{64}) │")


def test_art_round_trips_every_pixel():
    image = render(Screen("Turn 1/7 Canal 0", ("Siège 4: Колхоз é è ç",), "OK"))
    assert art_pixels(oled_art(image)).tobytes() == image.tobytes()
    assert [len(line) for line in oled_art(image)] == [64] * 16  # braille: 2 x 4 pixels a cell


def test_escape_sequences_stay_whole():
    assert split_keys("\x1b[Aa\r\x1b[B") == ["\x1b[A", "a", "\r", "\x1b[B"]


class Pty:
    """A program on a pseudo-terminal: type keys, read the last screen it drew."""

    def __init__(self, argv, cwd=ROOT, env=None, size=(COLUMNS, ROWS)):
        # subprocess forks and execs in C: no Python code (or lock held by another
        # thread of the test process) runs in the child before the program starts.
        self.fd, child_end = pty.openpty()
        columns, rows = size
        fcntl.ioctl(child_end, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
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

    def frames(self, since=0):
        """Every complete picture drawn after ``since`` characters of output: (art, lines)."""
        drawn = []
        for frame in self.buffer[since:].split("\x1b[H"):
            text = frame.replace("\x1b[K", "").replace("\x1b[J", "").replace("\x1b[?25h", "")
            lines = [line.rstrip("\r") for line in text.split("\n")]
            art = [m.group(1) for line in lines if (m := ART.match(line))]
            if len(art) == 16:
                drawn.append((art, lines))
        return drawn

    def screen(self):
        """The last complete OLED picture drawn, as art lines, and the whole terminal's text."""
        drawn = self.frames()
        return (drawn[-1][0], "\n".join(drawn[-1][1])) if drawn else (None, "")

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
    lines = text.split("\n")
    # The whole box fits 80 x 24: the panel, the LEDs beside it, the keys below.
    assert len(lines) < ROWS and max(map(len, lines)) <= COLUMNS
    assert lines[0].endswith("│ A ○  B ○") and lines[2].endswith("│ □□□□□□□□□□")
    assert lines[-1].startswith("↑↓/ws move")
    term.type("q")
    assert term.finish() == 0


def oks_to_a_secret_choice(game, seed):
    """How many OK presses take a new game of ``game`` (seeded, fewest players) from its
    first hand-over to a seat's secret A/B screen, and the screen A then draws: played on a
    virtual box beside it."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=seed)
        table.start(Settings(game, game_class(game).min_players, "en"))
        player = Player(box, table, box.clock)
        player.wait(GAP)
        while not isinstance(table.mode, Choose):
            player.press("ok")
        oks = player.presses
        player.press("choice_a")
        return oks, oled_art(render(table.screen()))
    finally:
        box.close()


def after_a_secret_press(tmp_path, key):
    """What the terminal draws once a seat presses ``key`` at its secret screen."""
    run = ["run", "--board", "virtual", "--seed", "1", "--game", "gulag", "--players", "5"]
    run.append("--no-journal")  # the fewest players, as oks_to_a_secret_choice counts them
    term = Pty(
        [sys.executable, "-m", "companion", *run],
        env={"COMPANION_DATA": str(tmp_path)},
    )
    term.read(1.0)
    for _ in range(oks_to_a_secret_choice("gulag", 1)[0]):  # to a worker's Work or Strike
        term.type("\r")
        term.read(0.5)  # each press on its own screen, past the table's guard
    before = len(term.buffer)
    term.type(key)
    term.read(1.5)  # the press's blink and beep come and go
    drawn = term.frames(before)
    term.type("q")
    assert term.finish() == 0
    return drawn


def test_onlookers_cannot_tell_an_a_press_from_a_b_press(tmp_path):
    a = after_a_secret_press(tmp_path, "a")
    b = after_a_secret_press(tmp_path, "b")
    assert a and b, "no picture drawn after the press"
    assert a[-1][0] == oks_to_a_secret_choice("gulag", 1)[1]  # "Seat 2: chosen. OK: play it"
    assert a[-1] == b[-1]  # the whole terminal, LEDs and all
    assert {tuple(art) for art, _ in a} == {tuple(art) for art, _ in b}
    assert not any("choice_" in line for _, lines in a + b for line in lines)


def test_a_terminal_too_small_is_told_the_size_the_box_needs(tmp_path):
    term = Pty(
        [sys.executable, "-m", "companion", "run", "--board", "virtual", "--no-journal"],
        env={"COMPANION_DATA": str(tmp_path)},
        size=(60, 20),
    )
    term.read(3.0)
    assert "The box needs 80 x 24 characters; this terminal has 60 x 20." in term.buffer
    assert term.screen() == (None, "")
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
    # What a Pi gets: the runtime, none of the test tools.
    assert (clone / ".venv" / "bin" / "companion").exists()
    assert not any((clone / ".venv" / "bin" / tool).exists() for tool in ("pytest", "ruff", "mypy"))
    # and the committed tree in one archive, to copy there without a hosting address.
    subprocess.run(["make", "-s", "dist"], cwd=clone, check=True, capture_output=True)
    (archive,) = (clone / "dist").glob("companion-*.tar.gz")
    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
    assert {"companion/Makefile", "companion/hardware/pinout.toml"} <= names
    assert {"companion/systemd/companion.service", "companion/companion/cli.py"} <= names
